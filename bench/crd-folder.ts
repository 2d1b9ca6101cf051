/**
 * `foresight validate DIR` on a folder of large CustomResourceDefinitions and no custom resource (ten CRDs of
 * about 420 KB each, some 4 MB, shaped like prometheus-operator's: long descriptions, a pod template's worth of
 * nested objects per version, list-map keys and CEL rules), as a repository of operator manifests is. Reports
 * wall and CPU time per run after one warm-up run, like the CLI section (issue #18: a CRD folder must not pay for
 * validators of kinds nothing uses). Then the same CRDs with three custom resources of each kind beside them, as
 * an operator's install folder with its samples is: what validating a kind's resources costs on top.
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
  /** The same CRDs with custom resources of theirs beside them, in one thread. */
  readonly withResources?: {
    readonly resources: number;
    readonly wallMs: Summary;
    readonly oneThreadCpuMs: Summary;
    readonly peakRssMiB: Summary;
    readonly exitCode: number | null;
  };
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

/** A value for a schema node from schemaNode: every field set, two list items. */
function sampleOf(node: Record<string, unknown>): unknown {
  const properties = node['properties'] as Record<string, Record<string, unknown>> | undefined;
  if (properties !== undefined) {
    return Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, sampleOf(child)]));
  }
  switch (node['type']) {
    case 'array':
      return [
        { name: 'a', value: 'x' },
        { name: 'b', value: 'y' },
      ];
    case 'integer':
      return 3;
    case 'boolean':
      return true;
    case 'string':
      return 'value';
    default:
      return '25%';
  }
}

/** `count` custom resources of a generated CRD's kind, valid against it. */
export function generateResources(index: number, breadth: number, count: number): string {
  const spec = sampleOf(schemaNode(3, breadth, index + 1));
  return Array.from({ length: count }, (_, resource) =>
    stringify({
      apiVersion: 'monitoring.example.com/v1',
      kind: `Monitor${index}`,
      metadata: { name: `monitor-${resource}`, namespace: 'default' },
      spec,
    }),
  ).join('---\n');
}

/** Writes a folder of the CRDs (and `resourcesPerKind` custom resources of each); returns its path and size. */
function writeFolder(
  options: CrdFolderOptions,
  name: string,
  resourcesPerKind: number,
): { root: string; bytes: number } {
  const root = join(options.workDir, name);
  mkdirSync(root, { recursive: true });
  let bytes = 0;
  for (let index = 0; index < options.crds; index++) {
    const text = generateCrd(index, options.breadth);
    writeFileSync(join(root, `monitor${index}-crd.yaml`), text);
    bytes += Buffer.byteLength(text);
    if (resourcesPerKind > 0) {
      writeFileSync(
        join(root, `monitor${index}.yaml`),
        generateResources(index, options.breadth, resourcesPerKind),
      );
    }
  }
  return { root, bytes };
}

/** Custom resources of each kind in the second folder. */
const RESOURCES_PER_KIND = 3;

/** Runs the CRD folder benchmark. */
export async function benchCrdFolder(options: CrdFolderOptions): Promise<CrdFolderReport> {
  const { root, bytes } = writeFolder(options, 'crd-folder', 0);
  const withResources = writeFolder(options, 'crd-folder-with-resources', RESOURCES_PER_KIND).root;
  const cli = join(__dirname, '..', 'dist', 'cli.js');
  await runNode(cli, ['validate', root]);
  const runs = [];
  const oneThread = [];
  const resourceRuns = [];
  const oneThreadEnv = { FORESIGHT_VALIDATE_THREADS: '1' };
  for (let i = 0; i < options.repeats; i++) {
    runs.push(await runNode(cli, ['validate', root]));
    oneThread.push(await runNode(cli, ['validate', root], undefined, oneThreadEnv));
    resourceRuns.push(await runNode(cli, ['validate', withResources], undefined, oneThreadEnv));
  }
  const report: CrdFolderReport = {
    crds: options.crds,
    mib: Math.round((bytes / 2 ** 20) * 10) / 10,
    wallMs: summarize(runs.map((run) => run.wallMs)),
    cpuMs: summarize(runs.map((run) => run.cpuMs)),
    peakRssMiB: summarize(runs.map((run) => run.peakRssMiB)),
    exitCode: runs[runs.length - 1]?.exitCode ?? null,
    oneThreadCpuMs: summarize(oneThread.map((run) => run.cpuMs)),
    withResources: {
      resources: options.crds * RESOURCES_PER_KIND,
      wallMs: summarize(resourceRuns.map((run) => run.wallMs)),
      oneThreadCpuMs: summarize(resourceRuns.map((run) => run.cpuMs)),
      peakRssMiB: summarize(resourceRuns.map((run) => run.peakRssMiB)),
      exitCode: resourceRuns[resourceRuns.length - 1]?.exitCode ?? null,
    },
  };
  options.log(
    `foresight validate ${options.crds} CRDs (${report.mib} MiB): ${Math.round(report.wallMs.median)} ms wall, ` +
      `${Math.round(report.cpuMs.median)} ms CPU (in one thread ${Math.round(report.oneThreadCpuMs?.median ?? 0)} ms), ` +
      `exit ${String(report.exitCode)}; with ${report.withResources?.resources ?? 0} custom resources ` +
      `${Math.round(report.withResources?.oneThreadCpuMs.median ?? 0)} ms CPU in one thread, ` +
      `exit ${String(report.withResources?.exitCode)}`,
  );
  return report;
}
