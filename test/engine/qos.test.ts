import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeQosClass } from '../../server/src/engine/model/qos';
import type { QosClassName } from '../../server/src/engine/model/qos';

// Cases of upstream TestComputePodQOS (pkg/apis/core/v1/helper/qos/qos_test.go), plus defaulting and reasons.

type List = Record<string, string | number>;

/** Requests and limits of cpu and memory ('' leaves one out), like the upstream getResourceList helper. */
function resources(cpu: string, memory: string): List {
  const list: List = {};
  if (cpu !== '') {
    list['cpu'] = cpu;
  }
  if (memory !== '') {
    list['memory'] = memory;
  }
  return list;
}

function container(name: string, requests: List, limits: List, extra: Record<string, unknown> = {}): unknown {
  return { name, image: 'busybox', resources: { requests, limits }, ...extra };
}

interface Case {
  readonly name: string;
  readonly spec: unknown;
  readonly qosClass: QosClassName;
  readonly reason?: string;
  readonly podLevelResources?: boolean;
}

const none = resources('', '');

const CASES: readonly Case[] = [
  {
    name: 'a single container with equal cpu and memory requests and limits is Guaranteed',
    spec: { containers: [container('app', resources('100m', '100Mi'), resources('100m', '100Mi'))] },
    qosClass: 'Guaranteed',
    reason: 'every container sets cpu and memory limits equal to requests',
  },
  {
    name: 'two guaranteed containers make a Guaranteed pod',
    spec: {
      containers: [
        container('a', resources('100m', '100Mi'), resources('100m', '100Mi')),
        container('b', resources('100m', '100Mi'), resources('100m', '100Mi')),
      ],
    },
    qosClass: 'Guaranteed',
  },
  {
    name: 'two containers without resources make a BestEffort pod',
    spec: { containers: [container('a', none, none), container('b', none, none)] },
    qosClass: 'BestEffort',
    reason: 'no container sets any cpu or memory request or limit',
  },
  {
    name: 'a pod without containers is BestEffort',
    spec: {},
    qosClass: 'BestEffort',
  },
  {
    name: 'a best-effort container beside a burstable one makes the pod Burstable',
    spec: {
      containers: [container('a', none, none), container('b', resources('1', ''), resources('2', ''))],
    },
    qosClass: 'Burstable',
    reason: 'container a has no cpu or memory limit',
  },
  {
    name: 'a best-effort container beside a guaranteed one makes the pod Burstable',
    spec: {
      containers: [
        container('a', none, none),
        container('b', resources('10m', '100Mi'), resources('10m', '100Mi')),
      ],
    },
    qosClass: 'Burstable',
    reason: 'container a has no cpu or memory limit',
  },
  {
    name: 'a container with only memory requests and limits is Burstable for want of a cpu limit',
    spec: { containers: [container('app', resources('', '100Mi'), resources('', '100Mi'))] },
    qosClass: 'Burstable',
    reason: 'container app has no cpu limit',
  },
  {
    name: 'a container with requests and no limits is Burstable',
    spec: { containers: [container('app', resources('100m', '100Mi'), none)] },
    qosClass: 'Burstable',
    reason: 'container app has no cpu or memory limit',
  },
  {
    name: 'a burstable container beside a guaranteed one makes the pod Burstable',
    spec: {
      containers: [
        container('web', resources('1', '100Mi'), resources('2', '100Mi')),
        container('side', resources('100m', '100Mi'), resources('100m', '100Mi')),
      ],
    },
    qosClass: 'Burstable',
    reason: 'container web requests 1 cpu, less than its limit 2',
  },
  {
    name: 'an unbounded container keeps the pod Burstable even when the sums of requests and limits match',
    spec: {
      containers: [
        container('a', resources('100m', '100Mi'), resources('200m', '200Mi')),
        container('b', resources('100m', '100Mi'), none),
      ],
    },
    qosClass: 'Burstable',
    reason: 'container b has no cpu or memory limit',
  },
  {
    name: 'requests below limits make the pod Burstable',
    spec: { containers: [container('app', resources('10m', '100Mi'), resources('100m', '200Mi'))] },
    qosClass: 'Burstable',
    reason: 'container app requests 10m cpu, less than its limit 100m',
  },
  {
    name: 'explicit zero requests do not take the limit and make the pod Burstable',
    spec: { containers: [container('app', resources('0', '0'), resources('100m', '200Mi'))] },
    qosClass: 'Burstable',
    reason: 'container app requests 0 cpu, less than its limit 100m',
  },
  {
    name: 'hugepages do not count, so zero cpu and memory with hugepages is BestEffort',
    spec: {
      containers: [
        container(
          'app',
          { ...resources('0', '0'), 'hugepages-2Mi': '1Gi' },
          { ...resources('0', '0'), 'hugepages-2Mi': '1Gi' },
        ),
      ],
    },
    qosClass: 'BestEffort',
  },
  {
    name: 'a burstable init container makes the pod Burstable',
    spec: {
      containers: [container('app', none, none)],
      initContainers: [container('setup', resources('10m', '100Mi'), resources('100m', '200Mi'))],
    },
    qosClass: 'Burstable',
    reason: 'container app has no cpu or memory limit',
  },
  {
    name: 'an init container without limits keeps an otherwise guaranteed pod Burstable',
    spec: {
      containers: [container('app', resources('1', '1Gi'), resources('1', '1Gi'))],
      initContainers: [container('setup', resources('10m', ''), none)],
    },
    qosClass: 'Burstable',
    reason: 'init container setup has no cpu or memory limit',
  },
  {
    name: 'limits without requests are copied into requests, as the API server defaults them, so the pod is Guaranteed',
    spec: { containers: [container('app', none, resources('500m', '256Mi'))] },
    qosClass: 'Guaranteed',
  },
  {
    name: 'a limit copied into a missing memory request still leaves a lower cpu request Burstable',
    spec: { containers: [container('app', resources('250m', ''), resources('500m', '256Mi'))] },
    qosClass: 'Burstable',
    reason: 'container app requests 250m cpu, less than its limit 500m',
  },
  {
    name: 'equal quantities written differently compare equal',
    spec: {
      containers: [container('app', { cpu: '0.5', memory: '1Gi' }, { cpu: '500m', memory: '1073741824' })],
    },
    qosClass: 'Guaranteed',
  },
  {
    name: 'numbers from YAML are quantities too',
    spec: { containers: [container('app', { cpu: 1, memory: '1Gi' }, { cpu: 1, memory: '1Gi' })] },
    qosClass: 'Guaranteed',
  },
  {
    name: 'an unnamed container is named by its position',
    spec: { containers: [{ resources: { limits: { cpu: '1' } } }] },
    qosClass: 'Burstable',
    reason: 'container #1 has no memory limit',
  },
  {
    name: 'a memory request below its limit is worded in bytes',
    spec: { containers: [container('app', resources('1', '128Mi'), resources('1', '256Mi'))] },
    qosClass: 'Burstable',
    reason: 'container app requests 128Mi memory, less than its limit 256Mi',
  },
  {
    name: 'pod-level requests equal to pod-level limits make the pod Guaranteed whatever the containers set',
    spec: {
      containers: [container('a', none, none)],
      resources: { requests: resources('10m', '100Mi'), limits: resources('10m', '100Mi') },
    },
    qosClass: 'Guaranteed',
    reason: 'the pod-level resources set cpu and memory limits equal to requests',
  },
  {
    name: 'pod-level resources override burstable containers',
    spec: {
      containers: [container('a', resources('3m', '10Mi'), resources('5m', '20Mi'))],
      resources: { requests: resources('10m', '100Mi'), limits: resources('10m', '100Mi') },
    },
    qosClass: 'Guaranteed',
  },
  {
    name: 'pod-level requests below pod-level limits make the pod Burstable',
    spec: {
      containers: [container('a', none, none)],
      resources: { requests: resources('10m', '10Mi'), limits: resources('20m', '50Mi') },
    },
    qosClass: 'Burstable',
    reason: 'the pod-level resources request 10m cpu, less than its limit 20m',
  },
  {
    name: 'pod-level resources override guaranteed containers',
    spec: {
      containers: [container('a', resources('5m', '10Mi'), resources('5m', '10Mi'))],
      resources: { requests: resources('10m', '10Mi'), limits: resources('20m', '50Mi') },
    },
    qosClass: 'Burstable',
  },
  {
    name: 'pod-level requests without pod-level limits make the pod Burstable',
    spec: {
      containers: [container('a', resources('5m', '10Mi'), none)],
      resources: { requests: resources('10m', '10Mi') },
    },
    qosClass: 'Burstable',
    reason: 'the pod-level resources set no cpu or memory limit',
  },
  {
    name: 'a pod-level cpu limit without a memory limit makes the pod Burstable',
    spec: {
      containers: [
        container('a', resources('5m', '10Mi'), none),
        container('b', resources('5m', '10Mi'), resources('5m', '10Mi')),
      ],
      resources: { requests: resources('10m', '10Mi'), limits: resources('5m', '') },
    },
    qosClass: 'Burstable',
    reason: 'the pod-level resources set no memory limit',
  },
  {
    name: 'pod-level limits alone default the pod-level requests to them, so the pod is Guaranteed',
    spec: { containers: [container('a', none, none)], resources: { limits: resources('1', '1Gi') } },
    qosClass: 'Guaranteed',
  },
  {
    name: 'pod-level limits with container requests default the pod-level requests to the containers’ requests',
    spec: {
      containers: [container('a', resources('200m', ''), none), container('b', resources('300m', ''), none)],
      resources: { limits: resources('1', '1Gi') },
    },
    qosClass: 'Burstable',
    reason: 'the pod-level resources request 500m cpu, less than its limit 1',
  },
  {
    name: 'pod-level resources are ignored when the feature is off, as in 1.33',
    spec: {
      containers: [container('a', none, none)],
      resources: { requests: resources('10m', '100Mi'), limits: resources('10m', '100Mi') },
    },
    qosClass: 'BestEffort',
    podLevelResources: false,
  },
  {
    name: 'pod-level resources naming no cpu, memory or hugepages leave the containers in charge',
    spec: {
      containers: [container('a', resources('1', '1Gi'), resources('1', '1Gi'))],
      resources: { requests: { 'example.com/widget': '1' } },
    },
    qosClass: 'Guaranteed',
  },
  {
    name: 'pod-level hugepages alone hand the decision to the pod level, where no cpu or memory means BestEffort',
    spec: {
      containers: [container('a', resources('1', '1Gi'), resources('1', '1Gi'))],
      resources: { limits: { 'hugepages-2Mi': '2Mi' } },
    },
    qosClass: 'BestEffort',
    reason:
      'the pod-level resources set no cpu or memory request or limit (they replace the containers’ own)',
  },
  {
    name: 'malformed input yields BestEffort rather than an exception',
    spec: { containers: 'not a list', initContainers: [null, 3] },
    qosClass: 'BestEffort',
  },
  {
    name: 'unparsable quantities count as unset',
    spec: { containers: [container('app', { cpu: 'lots', memory: '1Gi' }, { cpu: 'lots', memory: '1Gi' })] },
    qosClass: 'Burstable',
    reason: 'container app has no cpu limit',
  },
];

void describe('computeQosClass', () => {
  for (const testCase of CASES) {
    void test(testCase.name, () => {
      const options =
        testCase.podLevelResources === undefined ? {} : { podLevelResources: testCase.podLevelResources };
      const result = computeQosClass(testCase.spec, options);
      assert.equal(result.qosClass, testCase.qosClass);
      if (testCase.reason !== undefined) {
        assert.equal(result.reason, testCase.reason);
      }
    });
  }
});

void describe('computeQosClass, asked again of the same spec object (kept by spec)', () => {
  const shared = {
    containers: [container('a', none, none)],
    resources: { requests: resources('10m', '100Mi'), limits: resources('10m', '100Mi') },
  };
  const orders: readonly { name: string; order: readonly boolean[] }[] = [
    {
      name: 'pod-level resources on, then off, then on again: each answer is its own',
      order: [true, false, true],
    },
    { name: 'pod-level resources off, then on: each answer is its own', order: [false, true, false] },
  ];
  for (const { name, order } of orders) {
    void test(name, () => {
      const spec = structuredClone(shared);
      for (const podLevelResources of order) {
        // The answer a fresh copy of the spec gets (never asked before) is the reference.
        const fresh = computeQosClass(structuredClone(shared), { podLevelResources });
        assert.deepEqual(computeQosClass(spec, { podLevelResources }), fresh);
        assert.equal(fresh.qosClass, podLevelResources ? 'Guaranteed' : 'BestEffort');
      }
    });
  }
});
