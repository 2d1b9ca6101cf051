/**
 * PodTopologySpread's per-class spread state (pod-classes.ts) against a fresh build for every pod: pods sharing a
 * spec object with random namespaces, labels and controllers, own constraints (with matchLabelKeys) or the system
 * defaults, while Services and ReplicaSets are added between them (the default selector changes). Every answer
 * must equal podConstraints and NodeInclusion built for that pod alone, and pods of one class must share it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadPod } from '../../../../server/src/engine/model/load/pod-load';
import { systemPriorityClasses } from '../../../../server/src/engine/model/load/priority';
import { ClusterObjects } from '../../../../server/src/engine/model/snapshot/cluster-objects';
import type { PodInfo } from '../../../../server/src/engine/model/snapshot/pod-info';
import { SYSTEM_DEFAULT_CONSTRAINTS } from '../../../../server/src/engine/scheduler/config';
import {
  NodeInclusion,
  podConstraints,
} from '../../../../server/src/engine/scheduler/plugins/pod-topology-spread/common';
import type {
  ConstraintsResult,
  SpreadDefaults,
} from '../../../../server/src/engine/scheduler/plugins/pod-topology-spread/common';
import { SpreadClasses } from '../../../../server/src/engine/scheduler/plugins/pod-topology-spread/pod-classes';
import { SeededRandom } from '../../../../server/src/engine/sim/seeded-random';

const SOURCE = { file: 'test', documentIndex: 0, path: [] };
const DEFAULTS: SpreadDefaults = { constraints: SYSTEM_DEFAULT_CONSTRAINTS, systemDefaulted: true };

/** Specs shared by many pods, as a ReplicaSet's template spec is. */
const SPECS: readonly Record<string, unknown>[] = [
  { containers: [{ name: 'c', image: 'nginx' }] },
  { containers: [{ name: 'c', image: 'nginx' }], tolerations: [{ key: 'gpu', operator: 'Exists' }] },
  {
    containers: [{ name: 'c', image: 'nginx' }],
    nodeSelector: { disk: 'ssd' },
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'web' } },
        matchLabelKeys: ['version'],
      },
      {
        maxSkew: 2,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
        nodeTaintsPolicy: 'Honor',
      },
    ],
  },
];

function pick<T>(random: SeededRandom, values: readonly T[]): T {
  return values[random.nextInt(values.length)] as T;
}

function randomPod(random: SeededRandom, index: number): PodInfo {
  const labels: Record<string, string> = { app: pick(random, ['web', 'api']) };
  if (random.next() < 0.5) {
    labels['version'] = pick(random, ['v1', 'v2']);
  }
  if (random.next() < 0.3) {
    labels['tier'] = 'front';
  }
  const owner = pick(random, [null, 'web-1', 'web-2']);
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `p${index}`,
      namespace: pick(random, ['default', 'other']),
      labels,
      ...(owner === null
        ? {}
        : {
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, controller: true }],
          }),
    },
    spec: pick(random, SPECS),
  };
  const context = { version: '1.35' as const, priorityClasses: systemPriorityClasses(), findings: [] };
  const pod = loadPod(object, SOURCE, null, context, true);
  assert.ok(pod !== null);
  return pod;
}

function addRandomObject(random: SeededRandom, objects: ClusterObjects, index: number): void {
  const namespace = pick(random, ['default', 'other']);
  if (random.next() < 0.5) {
    const selector = pick(random, [{ app: 'web' }, { version: 'v1' }, { tier: 'front' }, { app: 'api' }]);
    objects.add('Service', { metadata: { name: `s${index}`, namespace }, spec: { selector } }, SOURCE);
  } else {
    const name = pick(random, ['web-1', 'web-2']);
    const selector = { matchLabels: pick(random, [{ app: 'web' }, { app: 'api' }]) };
    objects.add('ReplicaSet', { metadata: { name, namespace }, spec: { selector } }, SOURCE);
  }
}

/** A ConstraintsResult as comparable data (selectors by their canonical key). */
function plain(result: ConstraintsResult): unknown {
  if (!result.ok) {
    return result;
  }
  return result.constraints.map((constraint) => ({ ...constraint, selector: constraint.selector.key }));
}

describe('PodTopologySpread spread classes', () => {
  test('every pod gets what a fresh build gives it, over random pods and object changes', () => {
    const random = new SeededRandom('pod-topology-spread-classes');
    const objects = new ClusterObjects();
    const classes = new SpreadClasses(DEFAULTS, objects);
    for (let step = 0; step < 400; step++) {
      if (random.next() < 0.1) {
        addRandomObject(random, objects, step);
      }
      const pod = randomPod(random, step);
      for (const action of ['DoNotSchedule', 'ScheduleAnyway'] as const) {
        const got = classes.constraintsOf(pod, action);
        assert.deepEqual(plain(got), plain(podConstraints(pod, action, DEFAULTS, objects)), `step ${step}`);
      }
      const inclusion = classes.inclusionOf(pod);
      const fresh = new NodeInclusion(pod);
      assert.equal(inclusion.affinityKey, fresh.affinityKey);
      assert.equal(inclusion.tolerationsKey, fresh.tolerationsKey);
    }
  });

  test('pods of one spec, namespace, labels and controller share one answer; other labels get their own', () => {
    const classes = new SpreadClasses(DEFAULTS, new ClusterObjects());
    const random = new SeededRandom(7);
    const first = randomPod(random, 0);
    const twin = { ...first, name: 'twin', labels: { ...first.labels } };
    const other = { ...first, name: 'other', labels: { ...first.labels, extra: 'x' } };
    const answer = classes.constraintsOf(first, 'ScheduleAnyway');
    assert.equal(classes.constraintsOf(twin, 'ScheduleAnyway'), answer);
    assert.equal(classes.inclusionOf(twin), classes.inclusionOf(first));
    assert.notEqual(classes.constraintsOf(other, 'ScheduleAnyway'), answer);
  });

  test('a Service added after a class was built gives its next pod the new default selector', () => {
    const objects = new ClusterObjects();
    const classes = new SpreadClasses(DEFAULTS, objects);
    const random = new SeededRandom(1);
    const first = randomPod(random, 0);
    const before = classes.constraintsOf(first, 'ScheduleAnyway');
    objects.add(
      'Service',
      {
        metadata: { name: 'all', namespace: first.namespace },
        spec: { selector: { app: first.labels['app'] } },
      },
      SOURCE,
    );
    const after = classes.constraintsOf({ ...first, name: 'again' }, 'ScheduleAnyway');
    assert.notDeepEqual(plain(after), plain(before));
    assert.deepEqual(plain(after), plain(podConstraints(first, 'ScheduleAnyway', DEFAULTS, objects)));
  });
});
