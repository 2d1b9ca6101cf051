/**
 * The kubelet eviction manager's order and message under memory pressure, rows following
 * pkg/kubelet/eviction/helpers_test.go (TestOrderedByExceedsRequestMemory, TestOrderedByPriority,
 * TestOrderedbyMemory, TestSortByEvictionPriority-style combinations) and helpers.go's evictionMessage text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { MemoryCandidate } from '../../../server/src/engine/kubelet/eviction-ranking';
import {
  memoryEvictionMessage,
  rankMemoryPressure,
  splitPodUsage,
} from '../../../server/src/engine/kubelet/eviction-ranking';

const Mi = 1024 * 1024;

function candidate(
  name: string,
  priority: number,
  requestMi: number,
  usageMi: number,
  seq = 0,
): MemoryCandidate {
  return { name, priority, requestBytes: requestMi * Mi, usageBytes: usageMi * Mi, createdSeq: seq };
}

const names = (pods: readonly MemoryCandidate[]): string[] => rankMemoryPressure(pods).map((pod) => pod.name);

describe('rankMemoryPressure', () => {
  test('TestOrderedByExceedsRequestMemory: the pod above its request goes first, whatever its priority', () => {
    assert.deepEqual(
      names([candidate('below-requests', -1, 200, 199), candidate('exceeds-requests', 1, 100, 101)]),
      ['exceeds-requests', 'below-requests'],
    );
  });

  test('TestOrderedByPriority: among pods on the same side of their requests, lowest priority first', () => {
    assert.deepEqual(
      names([candidate('high', 1, 100, 50), candidate('low', -1, 100, 50), candidate('none', 0, 100, 50)]),
      ['low', 'none', 'high'],
    );
  });

  test('TestOrderedbyMemory: the largest use above request first', () => {
    // upstream pods: (request, usage) 0/500, 0/300, 100/800, 100/300, 1000/800, 1000/200
    const pods = [
      candidate('pod1', 0, 0, 500),
      candidate('pod2', 0, 0, 300),
      candidate('pod3', 0, 100, 800),
      candidate('pod4', 0, 100, 300),
      candidate('pod5', 0, 1000, 800),
      candidate('pod6', 0, 1000, 200),
    ];
    assert.deepEqual(names(pods), ['pod3', 'pod1', 'pod2', 'pod4', 'pod5', 'pod6']);
  });

  test('rankMemoryPressure: exceeding requests, then priority, then use above request (an idle BestEffort pod is 0 above, before a pod 256Mi below)', () => {
    const pods = [
      candidate('guaranteed-low-use', 0, 512, 256),
      candidate('burstable-over', 0, 128, 900),
      candidate('besteffort-idle', 0, 0, 0),
      candidate('critical-ish-over', 1000, 128, 2000),
    ];
    assert.deepEqual(names(pods), [
      'burstable-over',
      'critical-ish-over',
      'besteffort-idle',
      'guaranteed-low-use',
    ]);
  });

  test('full ties go to the pod created first (upstream sort is unstable)', () => {
    assert.deepEqual(names([candidate('b', 0, 1, 2, 2), candidate('a', 0, 1, 2, 1)]), ['a', 'b']);
  });
});

describe('memoryEvictionMessage (evictionMessage)', () => {
  test('names the threshold, what is available and each container above its request, as the kubelet writes it', () => {
    const containers = splitPodUsage(300 * Mi, [
      { name: 'app', requestBytes: 128 * Mi, requestText: '128Mi' },
      { name: 'sidecar', requestBytes: 64 * Mi, requestText: '64Mi' },
    ]);
    assert.equal(
      memoryEvictionMessage(100 * Mi, 50 * Mi, containers),
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. ' +
        'Container app was using 236Mi, request is 128Mi, has larger consumption of memory. ',
    );
  });

  test('a pod within its requests gets only the node part', () => {
    const containers = splitPodUsage(64 * Mi, [
      { name: 'app', requestBytes: 128 * Mi, requestText: '128Mi' },
    ]);
    assert.equal(
      memoryEvictionMessage(100 * Mi, 3 * Mi, containers),
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 3Mi. ',
    );
  });

  test('a scenario using more memory than the node has: the kubelet observes 0 available, never less', () => {
    assert.equal(
      memoryEvictionMessage(100 * Mi, -3 * Mi, []),
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 0. ',
    );
  });
});
