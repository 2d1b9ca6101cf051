/**
 * helper.DefaultSelector, remembered per namespace, labels and controller until the cluster's objects change:
 * the Services selecting the pod, merged, plus its ReplicaSet's selector; a Service added later is seen.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClusterObjects } from '../../../../server/src/engine/model/snapshot/cluster-objects';
import { defaultSelector } from '../../../../server/src/engine/scheduler/plugins/pod-topology-spread/common';
import { loadPod } from '../../../../server/src/engine/model/load/pod-load';
import type { PodInfo } from '../../../../server/src/engine/model/snapshot/pod-info';
import { systemPriorityClasses } from '../../../../server/src/engine/model/load/priority';
import { makePod } from '../builders';

const SOURCE = { file: 'test', documentIndex: 0, path: [] };

function service(objects: ClusterObjects, name: string, selector: Record<string, string>): void {
  objects.add(
    'Service',
    { kind: 'Service', metadata: { name, namespace: 'default' }, spec: { selector } },
    SOURCE,
  );
}

function podWithLabels(labels: Record<string, string>): PodInfo {
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', labels },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  };
  const context = { version: '1.35' as const, priorityClasses: systemPriorityClasses(), findings: [] };
  const pod = loadPod(object, SOURCE, null, context, true);
  assert.ok(pod !== null);
  return pod;
}

describe('PodTopologySpread default selector', () => {
  test('the Services that select the pod are merged; one added later changes the answer', () => {
    const objects = new ClusterObjects();
    service(objects, 'web', { app: 'web' });
    service(objects, 'other', { app: 'other' });
    const pod = podWithLabels({ app: 'web', tier: 'front' });
    const first = defaultSelector(pod, objects);
    assert.equal(first.matches({ app: 'web' }), true);
    assert.equal(first.matches({ app: 'other' }), false);
    assert.equal(defaultSelector(pod, objects), first, 'asked again, the remembered answer');

    // A Service on the pod's second label joins the merged selector: the remembered answer must not stay.
    service(objects, 'front', { tier: 'front' });
    const after = defaultSelector(pod, objects);
    assert.equal(after.matches({ app: 'web' }), false);
    assert.equal(after.matches({ app: 'web', tier: 'front' }), true);
  });

  test('a pod no Service selects gets an empty selector', () => {
    const objects = new ClusterObjects();
    service(objects, 'db', { app: 'db' });
    assert.equal(defaultSelector(makePod('web'), objects).isEmpty, true);
  });
});
