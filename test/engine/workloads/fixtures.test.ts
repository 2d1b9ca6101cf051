/**
 * Scenario tests over real YAML: each folder of test/fixtures/workloads holds input.yaml (optionally nodes.yaml)
 * and expected.json, a summary of the pods and findings. Expected files change only on request:
 * UPDATE_FIXTURES=1 node scripts/run-tests.mjs workloads/fixtures
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { computeQosClass } from '../../../server/src/engine/model/qos';
import { expandWorkloads } from '../../../server/src/engine/workloads';
import type { ExpansionResult, WorkloadInput } from '../../../server/src/engine/workloads';

const ROOT = join(__dirname, '..', '..', 'fixtures', 'workloads');
const SHOULD_UPDATE = process.env['UPDATE_FIXTURES'] === '1';

function readDocuments(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((document) => document.toJS() as unknown);
}

function summarise(result: ExpansionResult): unknown {
  return {
    pods: result.pods.map(({ pod, owner, source, replicaIndex }) => {
      const metadata = pod['metadata'] as Record<string, unknown>;
      const owners = metadata['ownerReferences'] as { kind: string; name: string }[] | undefined;
      return {
        name: metadata['name'],
        namespace: metadata['namespace'],
        owner: owner === null ? null : `${owner.kind}/${owner.name}`,
        controller: owners?.[0] === undefined ? null : `${owners[0].kind}/${owners[0].name}`,
        labels: metadata['labels'] ?? {},
        qosClass: computeQosClass(pod['spec']).qosClass,
        source: `${source.documentIndex}:${source.path.join('.')}`,
        replicaIndex,
      };
    }),
    findings: result.findings.map((finding) => ({
      code: finding.code,
      document: finding.object?.documentIndex,
      path: (finding.path ?? []).join('.'),
      message: finding.message,
    })),
  };
}

void describe('workload fixtures', () => {
  for (const name of readdirSync(ROOT).sort()) {
    const folder = join(ROOT, name);
    void test(`the pods expanded from fixture ${name} match expected.json, run after run`, () => {
      const inputs: WorkloadInput[] = readDocuments(join(folder, 'input.yaml')).map(
        (object, documentIndex) => ({
          object,
          source: { file: 'input.yaml', documentIndex, path: [] },
        }),
      );
      const nodesFile = join(folder, 'nodes.yaml');
      const nodes = existsSync(nodesFile) ? readDocuments(nodesFile) : [];
      const first = summarise(expandWorkloads(inputs, { nodes }));
      const second = summarise(expandWorkloads(inputs, { nodes }));
      assert.deepEqual(first, second);
      const expectedFile = join(folder, 'expected.json');
      if (SHOULD_UPDATE) {
        writeFileSync(expectedFile, `${JSON.stringify(first, null, 2)}\n`);
      }
      assert.deepEqual(first, JSON.parse(readFileSync(expectedFile, 'utf8')) as unknown);
    });
  }
});
