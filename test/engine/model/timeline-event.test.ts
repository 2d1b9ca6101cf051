/**
 * timelineEvent: the timeline event of an engine change, with the fields of the Kubernetes Event it stands for.
 * Its JSON (key order included) is what the CLI's JSON report and the fixtures' expected timelines hold, so each
 * shape is pinned here; the source objects are shared per component and host.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TimelineEventDetails } from '../../../protocol/timeline';
import { EventSources, timelineEvent } from '../../../server/src/engine/model/kubernetes-events';
import type { KubeEvent } from '../../../server/src/engine/model/kubernetes-events';

const POD = { kind: 'Pod', namespace: 'default', name: 'web-1' };
const REPLICA_SET = { kind: 'ReplicaSet', namespace: 'default', name: 'web' };

describe('timelineEvent', () => {
  const cases: {
    name: string;
    details: TimelineEventDetails | undefined;
    kube: KubeEvent | undefined;
    json: string;
  }[] = [
    {
      name: 'an event without details or Kubernetes Event has the five common fields only',
      details: undefined,
      kube: undefined,
      json: '{"time":3,"type":"PodPhaseChanged","object":{"kind":"Pod","namespace":"default","name":"web-1"},"node":"n1","message":"m"}',
    },
    {
      name: 'details come after the message',
      details: { phase: 'Ready' },
      kube: undefined,
      json: '{"time":3,"type":"PodPhaseChanged","object":{"kind":"Pod","namespace":"default","name":"web-1"},"node":"n1","message":"m","details":{"phase":"Ready"}}',
    },
    {
      name: "a kubelet's event names its host, Normal unless a warning, about the event's object",
      details: undefined,
      kube: { reason: 'Pulled', component: 'kubelet', host: 'n1' },
      json: '{"time":3,"type":"PodPhaseChanged","object":{"kind":"Pod","namespace":"default","name":"web-1"},"node":"n1","message":"m","reason":"Pulled","eventType":"Normal","source":{"component":"kubelet","host":"n1"},"involvedObject":{"kind":"Pod","namespace":"default","name":"web-1"}}',
    },
    {
      name: "a controller's warning about another object keeps that object, after the details",
      details: { phase: 'Pending' },
      kube: {
        reason: 'FailedCreate',
        component: 'replicaset-controller',
        warning: true,
        involvedObject: REPLICA_SET,
      },
      json: '{"time":3,"type":"PodPhaseChanged","object":{"kind":"Pod","namespace":"default","name":"web-1"},"node":"n1","message":"m","details":{"phase":"Pending"},"reason":"FailedCreate","eventType":"Warning","source":{"component":"replicaset-controller"},"involvedObject":{"kind":"ReplicaSet","namespace":"default","name":"web"}}',
    },
  ];
  for (const { name, details, kube, json } of cases) {
    test(name, () => {
      const event = timelineEvent(3, 'PodPhaseChanged', POD, 'n1', 'm', details, kube, new EventSources());
      assert.equal(JSON.stringify(event), json);
    });
  }

  test('events of the same component and host share one source object, others get their own', () => {
    const sources = new EventSources();
    const kubelet = (host: string): KubeEvent => ({ reason: 'Started', component: 'kubelet', host });
    const first = sources.of(kubelet('n1'));
    assert.equal(sources.of(kubelet('n1')), first);
    assert.notEqual(sources.of(kubelet('n2')), first);
    assert.deepEqual(sources.of(kubelet('n2')), { component: 'kubelet', host: 'n2' });
    const controller = sources.of({ reason: 'SuccessfulCreate', component: 'replicaset-controller' });
    assert.equal(sources.of({ reason: 'SuccessfulDelete', component: 'replicaset-controller' }), controller);
    assert.deepEqual(controller, { component: 'replicaset-controller' });
  });
});
