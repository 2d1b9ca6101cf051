/**
 * ClusterState.recordEvent: a KubernetesEvent's object is its involved object without the field path. Given the
 * pod, the event shares the pod's reference (recorded events are never changed), with the same JSON.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClusterState } from '../../../server/src/engine/apiserver/cluster-state';
import { newSimPod } from '../../../server/src/engine/apiserver/sim-pod';
import type { SimPod } from '../../../server/src/engine/apiserver/sim-pod';
import { ContainerRefs, containerEvent } from '../../../server/src/engine/kubelet/kubelet-events';
import { createPodInfo } from '../../../server/src/engine/model/snapshot/pod-info';
import { Simulation } from '../../../server/src/engine/sim/run-loop';
import { TimelineRecorder } from '../../../server/src/engine/sim/timeline-recorder';

function simPod(namespace: string, name: string): SimPod {
  const info = createPodInfo(
    {
      pod: { metadata: { name, namespace }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
      source: { file: 'x', documentIndex: 0, path: [] },
      owner: null,
      priority: 0,
      podLevelResources: true,
    },
    [],
  );
  return newSimPod({ info, workload: null, revision: null, createdAt: 0, createdSeq: 0 });
}

describe('ClusterState.recordEvent', () => {
  test("a pod's container event names the pod by its shared reference, as it would by a copy", () => {
    const state = new ClusterState(new Simulation(), new TimelineRecorder());
    const pod = simPod('default', 'web-1');
    const kube = containerEvent('Pulled', new ContainerRefs(), pod, 'n1', {
      list: 'containers',
      name: 'app',
    });
    state.recordEvent(kube, 'pulled', 'n1', pod);
    state.recordEvent(kube, 'pulled', 'n1');
    const [shared, copied] = state.timeline.events;
    assert.ok(shared !== undefined && copied !== undefined);
    assert.equal(shared.object, pod.ref);
    assert.notEqual(copied.object, pod.ref);
    assert.equal(JSON.stringify(shared), JSON.stringify(copied));
    assert.deepEqual(shared.object, { kind: 'Pod', namespace: 'default', name: 'web-1' });
  });

  test('an event about another pod than the one given keeps its own object', () => {
    const state = new ClusterState(new Simulation(), new TimelineRecorder());
    const given = simPod('default', 'web-1');
    const other = simPod('prod', 'web-1');
    const kube = containerEvent('Killing', new ContainerRefs(), other, 'n1', {
      list: 'containers',
      name: 'app',
    });
    state.recordEvent(kube, 'killing', 'n1', given);
    assert.deepEqual(state.timeline.events[0]?.object, { kind: 'Pod', namespace: 'prod', name: 'web-1' });
  });
});
