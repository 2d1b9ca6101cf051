/**
 * Runs a fixture folder of test/fixtures/engine (cluster.yaml, optional manifests.yaml) through the simulation
 * and summarises what the expected files pin: findings (code, severity, path, message) and each pod's outcome.
 * Used by fixtures.test.ts and by update-fixtures.ts (the only way expected.json files change).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseObjects } from '../../support/raw-objects';
import type { Finding } from '../../../protocol/finding';
import { addressOf } from '../../support/finding-address';
import { simulate } from '../../../server/src/engine/simulate/simulate';

/** The folder holding one directory per scenario. */
export const FIXTURES_DIR = join(__dirname, '..', '..', 'fixtures', 'engine');

/** What an expected.json holds. */
export interface FixtureSummary {
  readonly findings: readonly {
    severity: string;
    code: string;
    file: string;
    path: string;
    message: string;
  }[];
  readonly pods: readonly {
    pod: string;
    node: string | null;
    tiedNodes: readonly string[];
    message: string | null;
  }[];
  readonly nodes: readonly { name: string; requested: Readonly<Record<string, string>> }[];
}

/**
 * The FitError up to the end of its filter reasons: what follows is PostFilter's message (DynamicResources,
 * DefaultPreemption), pinned by those plugins' own tests rather than by every scenario.
 */
function filterPart(message: string): string {
  const end = message.indexOf('. ', message.indexOf('available:'));
  return end < 0 ? message : message.slice(0, end + 1);
}

/** Simulates one scenario folder and summarises it. */
export function summariseFixture(name: string): FixtureSummary {
  const dir = join(FIXTURES_DIR, name);
  const syntax: Finding[] = [];
  const read = (file: string) =>
    existsSync(join(dir, file)) ? parseObjects(readFileSync(join(dir, file), 'utf8'), file, syntax) : [];
  const result = simulate({
    cluster: read('cluster.yaml'),
    manifests: read('manifests.yaml'),
    clusterDescription: 'cluster.yaml',
    version: '1.35',
  });
  // Which plugins the engine lacks is not what these scenarios pin (it changes as plugins are added).
  const pinned = [...syntax, ...result.report.findings].filter(
    (finding) => finding.code !== 'plugin-not-modelled',
  );
  const findings = pinned.map((finding) => ({
    severity: finding.severity,
    code: finding.code,
    file: addressOf(finding).document,
    path: addressOf(finding).path,
    message: finding.message,
  }));
  return {
    findings,
    pods: result.report.pods.map((pod) => ({
      pod: `${pod.namespace}/${pod.name}`,
      node: pod.nodeName,
      tiedNodes: pod.tiedNodes,
      message: pod.unschedulable === null ? null : filterPart(pod.unschedulable.message),
    })),
    nodes: result.report.cluster.nodes.map((node) => ({ name: node.name, requested: node.requested })),
  };
}
