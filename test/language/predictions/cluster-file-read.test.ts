/**
 * prepareScope reads a cluster file once per text (scope-simulation.ts): keystroke after keystroke the engine is
 * given the very same cluster objects, which the prediction worker holds and the engine reuses; a changed text, or
 * another file, is read afresh.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getAnalysisContext } from '../../support/language-service';
import { prepareScope } from '../../../server/src/language/service/scope-simulation';
import type { ClusterFileRef } from '../../../server/src/language/service/scope-simulation';

const CONTEXT = getAnalysisContext('1.35', 1_000_000);

function clusterFile(path: string): ClusterFileRef {
  return { uri: `file://${path}`, name: 'cluster.yaml', path };
}

function nodes(count: number): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `apiVersion: v1\nkind: Node\nmetadata: {name: n${i}}\nstatus: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}\n`,
  ).join('---\n');
}

describe('prepareScope and the cluster file', () => {
  test('the same text gives the same objects and analysis; a changed text is read again', () => {
    const file = clusterFile('/work/a/.foresight/cluster.yaml');
    const text = nodes(2);
    const first = prepareScope([], '1.35', CONTEXT, file, text);
    const again = prepareScope([], '1.35', CONTEXT, file, `${text}`);
    assert.equal(first.input.cluster?.length, 2);
    assert.equal(again.input.cluster, first.input.cluster, 'the very same objects');
    assert.equal(again.clusterAnalysis, first.clusterAnalysis);
    const changed = prepareScope([], '1.35', CONTEXT, file, nodes(3));
    assert.equal(changed.input.cluster?.length, 3);
    assert.notEqual(changed.input.cluster, first.input.cluster);
  });

  test('another file of the same text is its own read', () => {
    const text = nodes(1);
    const one = prepareScope([], '1.35', CONTEXT, clusterFile('/work/one/cluster.yaml'), text);
    const other = prepareScope([], '1.35', CONTEXT, clusterFile('/work/other/cluster.yaml'), text);
    assert.notEqual(other.input.cluster, one.input.cluster);
    assert.equal((other.input.cluster?.[0]?.source.file ?? '').includes('/work/other/'), true);
  });

  test('another analysis context (another Kubernetes version) is its own read', () => {
    const file = clusterFile('/work/b/cluster.yaml');
    const text = nodes(1);
    const current = prepareScope([], '1.35', CONTEXT, file, text);
    const older = prepareScope([], '1.34', getAnalysisContext('1.34', 1_000_000), file, text);
    assert.notEqual(older.input.cluster, current.input.cluster);
  });
});
