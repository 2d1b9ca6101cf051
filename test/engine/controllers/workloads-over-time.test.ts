import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { container, eventsOf, nodes, run, workload } from '../../support/timeline-builders';

const READY_AFTER_5S = {
  readinessProbe: { exec: { command: ['true'] }, initialDelaySeconds: 5, periodSeconds: 5 },
};

describe('StatefulSet ordering', () => {
  test('OrderedReady creates each pod only once the previous one is Ready', () => {
    const result = run({
      cluster: nodes(3),
      manifests: [
        workload(
          'StatefulSet',
          'db',
          'db:1.0',
          { replicas: 3 },
          { containers: [container('db:1.0', READY_AFTER_5S)] },
        ),
      ],
    });
    const created = eventsOf(result, 'PodCreated', 'db-').map((event) => [event.object.name, event.time]);
    const ready = new Map(
      eventsOf(result, 'PodPhaseChanged', 'db-')
        .filter((event) => event.details?.phase === 'Ready')
        .map((event) => [event.object.name, event.time]),
    );
    assert.deepEqual(
      created.map(([name]) => name),
      ['db-0', 'db-1', 'db-2'],
    );
    assert.equal(created[1]?.[1], ready.get('db-0'));
    assert.equal(created[2]?.[1], ready.get('db-1'));
  });

  test('Parallel creates every pod at once', () => {
    const result = run({
      cluster: nodes(3),
      manifests: [workload('StatefulSet', 'db', 'db:1.0', { replicas: 3, podManagementPolicy: 'Parallel' })],
    });
    assert.deepEqual(
      eventsOf(result, 'PodCreated', 'db-').map((event) => event.time),
      [0, 0, 0],
    );
  });

  test('a rolling update replaces pods from the highest ordinal down, one at a time before 1.35', () => {
    const spec = {
      replicas: 3,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
    };
    const cluster = [...nodes(3), workload('StatefulSet', 'db', 'db:1.0', spec)];
    const manifests = [workload('StatefulSet', 'db', 'db:1.1', spec)];
    const deleted = (version: '1.34' | '1.35'): string[] => {
      const result = run({ cluster, manifests, version });
      return eventsOf(result, 'PodDeleted', 'db-').map((event) => `${event.object.name}@${event.time}`);
    };
    assert.deepEqual(
      deleted('1.34').map((entry) => entry.split('@')[0]),
      ['db-2', 'db-1', 'db-0'],
    );
    const gated = deleted('1.35');
    assert.equal(
      gated[0]?.split('@')[1],
      gated[1]?.split('@')[1],
      'maxUnavailable 2 takes db-2 and db-1 together',
    );
  });
});

describe('the counts a rollout ends with', () => {
  // Pods turn available after the last sync that scaled anything (kubectl rollout status waits for them): the
  // end of the rollout carries the counts then, not those of its last scaling step.
  const cases: readonly {
    name: string;
    kind: 'StatefulSet' | 'DaemonSet' | 'Deployment';
    spec: Record<string, unknown>;
    atEnd: { newReplicas: number; oldReplicas: number; available: number; unavailable: number };
  }[] = [
    {
      name: 'a StatefulSet of 2 (OrderedReady) ends with both pods available',
      kind: 'StatefulSet',
      spec: { replicas: 2 },
      atEnd: { newReplicas: 2, oldReplicas: 0, available: 2, unavailable: 0 },
    },
    {
      name: 'a DaemonSet on 3 nodes ends with its 3 pods available',
      kind: 'DaemonSet',
      spec: {},
      atEnd: { newReplicas: 3, oldReplicas: 0, available: 3, unavailable: 0 },
    },
    {
      name: 'a new Deployment of 3 ends with its 3 pods available',
      kind: 'Deployment',
      spec: { replicas: 3 },
      atEnd: { newReplicas: 3, oldReplicas: 0, available: 3, unavailable: 0 },
    },
  ];
  for (const { name, kind, spec, atEnd } of cases) {
    test(name, () => {
      const result = run({
        cluster: nodes(3),
        manifests: [
          workload(kind, 'app', 'app:1.0', spec, { containers: [container('app:1.0', READY_AFTER_5S)] }),
        ],
      });
      const record = result.rollouts.get(kind, 'default', 'app');
      assert.equal(record?.outcome, 'Complete');
      const [complete] = eventsOf(result, 'RolloutComplete', 'app');
      assert.deepEqual(complete?.details?.rollout, atEnd);
      const { time, ...last } = record?.steps[record.steps.length - 1] ?? { time: -1 };
      assert.deepEqual(last, atEnd);
      assert.equal(time, record?.endedAt);
      const firstStep = eventsOf(result, 'RolloutStep', 'app')[0]?.details?.rollout;
      assert.equal(firstStep?.available, 0, 'no pod is available when the controller first creates them');
    });
  }
});

describe('kubelet', () => {
  test('serialized pulls: the second image waits for the first on the same node', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: { containers: [container('a:1')] } },
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b' }, spec: { containers: [container('b:1')] } },
      ],
      timing: { imagePullSeconds: 10, containerStartSeconds: 1 },
    });
    const running = eventsOf(result, 'PodPhaseChanged')
      .filter((event) => event.details?.phase === 'Running')
      .map((event) => `${event.object.name}@${event.time}`);
    assert.deepEqual(running, ['a@11', 'b@21']);
  });

  test('an image already pulled on the node is not pulled again', () => {
    const result = run({
      cluster: nodes(1),
      manifests: [workload('Deployment', 'web', 'web:1.0', { replicas: 2 })],
      timing: { imagePullSeconds: 10, containerStartSeconds: 1 },
    });
    const messages = eventsOf(result, 'PodPhaseChanged', 'web')
      .filter((event) => event.details?.phase === 'ContainerCreating')
      .map((event) => event.message);
    assert.deepEqual(messages, ['Pulling image "web:1.0"', 'Pulling image "web:1.0"']);
    const ready = eventsOf(result, 'PodPhaseChanged', 'web').filter(
      (event) => event.details?.phase === 'Ready',
    );
    assert.deepEqual(
      ready.map((event) => event.time),
      [11, 11],
      'the second pod waits for the same pull, not a second one',
    );
  });
});

describe('node failure', () => {
  test('pods are evicted after their own tolerationSeconds, counted from the NotReady taint', () => {
    const tolerations = [
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 30,
      },
    ];
    const result = run({
      cluster: [...nodes(1), workload('Deployment', 'web', 'web:1.0', { replicas: 1 }, { tolerations })],
      steps: [{ at: 10, action: { type: 'failNode', node: 'worker-1' } }],
      timing: { nodeMonitorGracePeriodSeconds: 40 },
    });
    assert.deepEqual(
      eventsOf(result, 'NodeNotReady').map((event) => event.time),
      [50],
    );
    assert.deepEqual(
      eventsOf(result, 'PodEvicted', 'web').map((event) => [event.time, event.details?.reason]),
      [[80, 'Taint manager: deleting due to NoExecute taint']],
    );
  });
});

describe('kube-scheduler loop', () => {
  test('a Pending pod is retried when a node is added and lands there', () => {
    const result = run({
      cluster: nodes(1, '1', '4Gi'),
      manifests: [
        workload(
          'Deployment',
          'big',
          'big:1.0',
          { replicas: 2 },
          {
            containers: [{ name: 'app', image: 'big:1.0', resources: { requests: { cpu: '800m' } } }],
          },
        ),
      ],
      steps: [{ at: 100, action: { type: 'addNode', name: 'worker-2', like: 'worker-1' } }],
    });
    const unschedulable = eventsOf(result, 'PodUnschedulable', 'big');
    assert.equal(unschedulable.length, 1);
    assert.equal(
      unschedulable[0]?.message.split(' no new claims')[0],
      '0/1 nodes are available: 1 Insufficient cpu.',
    );
    const scheduled = eventsOf(result, 'PodScheduled', 'big').map((event) => [event.time, event.node]);
    assert.deepEqual(scheduled, [
      [0, 'worker-1'],
      [100, 'worker-2'],
    ]);
  });
});
