/**
 * `foresight validate DIR` on a folder of large CustomResourceDefinitions and no custom resource (ten CRDs of
 * about 420 KB each, some 4 MB, shaped like prometheus-operator's: long descriptions, a pod template's worth of
 * nested objects per version, list-map keys and CEL rules), as a repository of operator manifests is. Reports
 * wall and CPU time per run after one warm-up run, like the CLI section (issue #18: a CRD folder must not pay for
 * validators of kinds nothing uses).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { runNode } from './support/child-run';
import type { Summary } from './support/stats';
import { summarize } from './support/stats';

/** The CRD folder section of the report. */
export interface CrdFolderReport {
  readonly crds: number;
  readonly mib: number;
  readonly wallMs: Summary;
  readonly cpuMs: Summary;
  readonly peakRssMiB: Summary;
  readonly exitCode: number | null;
  /**
   * CPU of the same runs in one thread (FORESIGHT_VALIDATE_THREADS=1): the work itself, comparable with the figure
   * from before worker threads existed (a second thread loads the schemas again, so it costs CPU to save wall time).
   */
  readonly oneThreadCpuMs?: Summary;
}

/** Sizes and repeats of a run. */
export interface CrdFolderOptions {
  readonly crds: number;
  /** Object fields per level of the generated schema tree (the size knob). */
  readonly breadth: number;
  readonly repeats: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}

const LOREM =
  'Specifies the behaviour of the component as the operator reconciles it. When unset the operator picks a ' +
  'default that suits most clusters; see the upstream documentation for the full list of values and their effect.';

/** One schema node, `depth` levels of objects of `breadth` fields, with lists and rules here and there. */
function schemaNode(depth: number, breadth: number, seed: number): Record<string, unknown> {
  if (depth === 0) {
    const kind = seed % 4;
    return kind === 0
      ? { type: 'string', description: LOREM, maxLength: 253 }
      : kind === 1
        ? { type: 'integer', format: 'int32', minimum: 0, description: LOREM }
        : kind === 2
          ? { type: 'boolean', description: LOREM }
          : {
              'x-kubernetes-int-or-string': true,
              anyOf: [{ type: 'integer' }, { type: 'string' }],
              description: LOREM,
            };
  }
  const properties: Record<string, unknown> = {};
  for (let field = 0; field < breadth; field++) {
    properties[`field${depth}x${field}`] = schemaNode(depth - 1, breadth, seed * 7 + field);
  }
  properties['items'] = {
    type: 'array',
    description: LOREM,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    items: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, value: { type: 'string' } },
    },
  };
  return {
    type: 'object',
    description: LOREM,
    properties,
    'x-kubernetes-validations': [{ rule: 'size(self.items) <= 64', message: 'at most 64 items' }],
  };
}

/** A CRD text of one kind with two served versions. */
export function generateCrd(index: number, breadth: number): string {
  const kind = `Monitor${index}`;
  const version = (name: string, storage: boolean): Record<string, unknown> => ({
    name,
    served: true,
    storage,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { type: 'object' },
          spec: schemaNode(3, breadth, index + 1),
          status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    },
  });
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `monitor${index}s.monitoring.example.com` },
    spec: {
      group: 'monitoring.example.com',
      scope: 'Namespaced',
      names: { kind, listKind: `${kind}List`, plural: `monitor${index}s`, singular: `monitor${index}` },
      versions: [version('v1', true), version('v1beta1', false)],
    },
  };
  // Block YAML, as controller-gen writes CRDs.
  return stringify(crd, { lineWidth: 0 });
}

/** Writes the folder; returns its path and size. */
function writeFolder(options: CrdFolderOptions): { root: string; bytes: number } {
  const root = join(options.workDir, 'crd-folder');
  mkdirSync(root, { recursive: true });
  let bytes = 0;
  for (let index = 0; index < options.crds; index++) {
    const text = generateCrd(index, options.breadth);
    writeFileSync(join(root, `monitor${index}-crd.yaml`), text);
    bytes += Buffer.byteLength(text);
  }
  return { root, bytes };
}

/** Runs the CRD folder benchmark. */
export async function benchCrdFolder(options: CrdFolderOptions): Promise<CrdFolderReport> {
  const { root, bytes } = writeFolder(options);
  const cli = join(__dirname, '..', 'dist', 'cli.js');
  await runNode(cli, ['validate', root]);
  const runs = [];
  const oneThread = [];
  for (let i = 0; i < options.repeats; i++) {
    runs.push(await runNode(cli, ['validate', root]));
    oneThread.push(await runNode(cli, ['validate', root], undefined, { FORESIGHT_VALIDATE_THREADS: '1' }));
  }
  const report: CrdFolderReport = {
    crds: options.crds,
    mib: Math.round((bytes / 2 ** 20) * 10) / 10,
    wallMs: summarize(runs.map((run) => run.wallMs)),
    cpuMs: summarize(runs.map((run) => run.cpuMs)),
    peakRssMiB: summarize(runs.map((run) => run.peakRssMiB)),
    exitCode: runs[runs.length - 1]?.exitCode ?? null,
    oneThreadCpuMs: summarize(oneThread.map((run) => run.cpuMs)),
  };
  options.log(
    `foresight validate ${options.crds} CRDs (${report.mib} MiB): ${Math.round(report.wallMs.median)} ms wall, ` +
      `${Math.round(report.cpuMs.median)} ms CPU (in one thread ${Math.round(report.oneThreadCpuMs?.median ?? 0)} ms), ` +
      `exit ${String(report.exitCode)}`,
  );
  return report;
}
