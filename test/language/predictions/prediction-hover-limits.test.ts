/**
 * Hovers on a large cluster stay readable: a tie names its first nodes and counts the rest, and the per-node
 * tables (the filter that failed, the free room) show their first rows and count the rest, with how many of
 * those fit. Below the limits the hover is whole.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  resourcesHoverMarkdown,
  workloadHoverMarkdown,
} from '../../../server/src/language/predictions/prediction-hover';
import type { WorkloadPrediction } from '../../../server/src/language/predictions/workload-predictions';
import type { ReportNode } from '../../../server/src/engine/scenario/report/report-entries';

const names = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `node-${String(i).padStart(2, '0')}`);

function prediction(nodes: number, pendingNodes: number): WorkloadPrediction {
  const all = names(nodes);
  return {
    source: { file: 'file:///a.yaml', documentIndex: 0, path: [] },
    kind: 'Deployment',
    name: 'web',
    namespace: 'default',
    replicas: [
      { podName: 'web-a', nodeName: all[0] ?? null, tiedNodes: all, preempted: [] },
      { podName: 'web-b', nodeName: null, tiedNodes: [], preempted: [] },
    ],
    scheduled: 1,
    pending: 1,
    qosClass: 'Burstable',
    qosReason: 'container web has no cpu or memory limit',
    pendingMessage: `0/${pendingNodes} nodes are available: ${pendingNodes} Insufficient cpu.`,
    nodeReasons: new Map(names(pendingNodes).map((node) => [node, ['Insufficient cpu']])),
    causes: [],
    nodeCount: nodes,
    cannotStart: 0,
    cannotStartReason: null,
    cannotStartMessage: null,
  };
}

describe('hovers on many nodes', () => {
  test('a tie of 30 nodes names 5 others and counts 24; 30 failing nodes show 20 rows and count 10', () => {
    const markdown = workloadHoverMarkdown(prediction(30, 30));
    assert.match(
      markdown,
      /\| web-a \| node-00 \(tied with node-01, node-02, node-03, node-04, node-05 and 24 more\) \|/,
    );
    const rows = markdown.split('\n').filter((line) => /^\| node-\d\d \| Insufficient cpu \|$/.test(line));
    assert.equal(rows.length, 20);
    assert.equal(rows[19], '| node-19 | Insufficient cpu |');
    assert.ok(markdown.includes('| … 10 more nodes | |'));
  });

  test('at the limits nothing is cut', () => {
    const markdown = workloadHoverMarkdown(prediction(6, 20));
    assert.match(markdown, /tied with node-01, node-02, node-03, node-04, node-05\) \|/);
    assert.equal(markdown.split('\n').filter((line) => line.endsWith('| Insufficient cpu |')).length, 20);
    assert.ok(!markdown.includes('more nodes'));
  });

  test('the free-room table shows 20 nodes and counts the rest, with how many of them fit', () => {
    // Nodes 0–24 have 1 cpu free, the others 4: a 2-cpu pod fits 25 to 29 only.
    const nodes: ReportNode[] = names(30).map((name, i) => ({
      name,
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
      requested: { cpu: i < 25 ? '3' : '0', memory: '0' },
    }));
    const markdown = resourcesHoverMarkdown({ cpuMilli: 2_000, memoryBytes: 0 }, nodes);
    assert.match(markdown, /fits on 5 of 30 nodes/);
    assert.equal(markdown.split('\n').filter((line) => line.startsWith('| node-')).length, 20);
    assert.ok(markdown.includes('| … 10 more nodes | | | 5 of them |'));
  });
});
