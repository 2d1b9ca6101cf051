import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createBalancedAllocation } from '../../../../server/src/engine/scheduler/plugins/node-resources-balanced-allocation';
import { buildPlugin, container, makeNode, makePod, runScore, withPods } from '../builders';

// Situations of upstream TestNodeResourcesBalancedAllocation (noderesources/balanced_allocation_test.go):
// score = (1 - |cpuFraction - memoryFraction| / 2) * 100, on plain requests (no 100m/200Mi defaults).

describe('NodeResourcesBalancedAllocation score', () => {
  test('a best-effort pod (no requests) is skipped', () => {
    const node = makeNode('a', { cpu: '4000m', memory: '10000' });
    const { plugin } = buildPlugin(createBalancedAllocation, [node]);
    assert.equal(runScore(plugin, makePod('p'), [node]), null);
  });

  test('equal cpu and memory fractions score 100, unequal ones less', () => {
    const a = makeNode('a', { cpu: '4000m', memory: '10000' });
    const b = makeNode('b', { cpu: '6000m', memory: '10000' });
    const { plugin } = buildPlugin(createBalancedAllocation, [a, b]);
    const pod = makePod('p', { containers: [container({ cpu: '3000m', memory: '5000' })] });
    // a: cpu 0.75, memory 0.5 → (1 - 0.125) * 100 = 87; b: 0.5 and 0.5 → 100
    assert.deepEqual(runScore(plugin, pod, [a, b]), { a: 87, b: 100 });
  });

  test('the pods already on the node count, and fractions are capped at 1', () => {
    const a = withPods(makeNode('a', { cpu: '4000m', memory: '10000' }), [
      makePod('running', { containers: [container({ cpu: '3000m', memory: '5000' })] }),
    ]);
    const { plugin } = buildPlugin(createBalancedAllocation, [a]);
    const pod = makePod('p', { containers: [container({ cpu: '2000m', memory: '1000' })] });
    // cpu min(5000/4000, 1) = 1, memory 0.6 → (1 - 0.2) * 100 = 80
    assert.deepEqual(runScore(plugin, pod, [a]), { a: 80 });
  });
});
