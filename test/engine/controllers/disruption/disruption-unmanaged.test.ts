/**
 * Budgets over pods without a controller (pkg/controller/disruption/disruption.go): getExpectedScale leaves such a
 * pod out of expectedPods and lists it as unmanaged, trySync raises the UnmanagedPods warning, and countHealthyPods
 * counts every Ready selected pod in currentHealthy, managed or not. Rows follow disruption_test.go
 * (TestStatusForUnmanagedPod, TestTotalUnmanagedPods, TestUnmanagedPods…), each named after the case it follows.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourcedObject } from '../../../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../../../server/src/engine/simulate/simulate';

const NODE = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'w1' },
  status: { allocatable: { cpu: '8', memory: '16Gi', pods: '110' } },
};
const CONTAINER = { name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } };

const budget = (spec: Record<string, unknown>) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default' },
  spec: { ...spec, selector: { matchLabels: { app: 'web' } } },
});
const bare = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', labels: { app: 'web' } },
  spec: { containers: [CONTAINER], ...extra },
});
const deployment = (replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [CONTAINER] } },
  },
});

const rows: {
  name: string;
  manifests: Record<string, unknown>[];
  /** expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed at the end. */
  status: [number, number, number, number];
  unmanagedEvent: boolean;
}[] = [
  {
    name: 'TestTotalUnmanagedPods: a percentage minAvailable over one pod without a controller lists it as unmanaged',
    manifests: [budget({ minAvailable: '28%' }), bare('unmanaged')],
    status: [0, 1, 0, 0],
    unmanagedEvent: true,
  },
  {
    name: 'TestStatusForUnmanagedPod: no sync error, the UnmanagedPods warning instead',
    manifests: [budget({ minAvailable: '28%' }), bare('unmanaged')],
    status: [0, 1, 0, 0],
    unmanagedEvent: true,
  },
  {
    name: 'countHealthyPods: under maxUnavailable a Ready pod without a controller is healthy, outside the expected scale',
    manifests: [budget({ maxUnavailable: 1 }), deployment(2), bare('lone')],
    status: [2, 3, 1, 2],
    unmanagedEvent: true,
  },
  {
    name: 'getExpectedPodCount: an integer minAvailable counts the selected pods and needs no controller',
    manifests: [budget({ minAvailable: 1 }), deployment(2), bare('lone')],
    status: [3, 3, 1, 2],
    unmanagedEvent: false,
  },
  {
    name: 'countHealthyPods: a pod without a controller that is not Ready is not healthy',
    manifests: [
      budget({ maxUnavailable: 1 }),
      deployment(2),
      bare('never-ready', { nodeSelector: { missing: 'label' } }),
    ],
    status: [2, 2, 1, 1],
    unmanagedEvent: true,
  },
];

describe('disruption budgets over pods without a controller', () => {
  for (const row of rows) {
    test(row.name, () => {
      const sourced = (objects: readonly Record<string, unknown>[], file: string): SourcedObject[] =>
        objects.map((object, documentIndex) => ({ object, source: { file, documentIndex, path: [] } }));
      const { report } = simulate({
        manifests: sourced(row.manifests, 'm.yaml'),
        cluster: sourced([NODE], 'cluster.yaml'),
      });
      const status = report.disruptionBudgets?.[0];
      assert.deepEqual(
        [status?.expectedPods, status?.currentHealthy, status?.desiredHealthy, status?.disruptionsAllowed],
        row.status,
      );
      assert.equal(status?.syncError, null);
      const events = (report.events ?? []).filter((event) => event.reason === 'UnmanagedPods');
      assert.equal(events.length, row.unmanagedEvent ? 1 : 0);
      if (row.unmanagedEvent) {
        assert.deepEqual(
          [events[0]?.eventType, events[0]?.source, events[0]?.involvedObject],
          [
            'Warning',
            { component: 'controllermanager' },
            { kind: 'PodDisruptionBudget', namespace: 'default', name: 'web' },
          ],
        );
      }
    });
  }
});
