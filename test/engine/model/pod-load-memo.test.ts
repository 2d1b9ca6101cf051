/**
 * simulate() loads a cluster file twice (its own checks, then the timeline's run) and shares the binding of its pods
 * through a PodLoadMemo. A load through the memo must give what a load without it gives: the same nodes with the
 * same pods and the same findings, and PodInfos of its own; when the inputs of the binding differ (another version,
 * other PriorityClasses, another source, nodes in another order) the memo is not used.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCluster } from '../../../server/src/engine/model/load/cluster-load';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { PodLoadMemo } from '../../../server/src/engine/model/load/pod-load-memo';
import type { KubernetesMinor } from '../../../server/src/engine/version';

const NODE = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1' } },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
};

function pod(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { nodeName: 'n1', ...spec },
  };
}

function priorityClass(name: string, value: number, globalDefault = false): Record<string, unknown> {
  return {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
    globalDefault,
  };
}

/**
 * One List of a node and pods: a plain one, a malformed request, a negative one, a priority class, a default
 * priority, pod-level resources (1.34 on), a duplicate, a spec that is no object.
 */
const CAPTURE: readonly SourcedObject[] = [
  {
    object: {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        NODE,
        pod('plain', {
          containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }],
        }),
        pod('malformed', { containers: [{ name: 'c', resources: { requests: { cpu: 'lots' } } }] }),
        pod('negative', { containers: [{ name: 'c', resources: { requests: { memory: '-1Mi' } } }] }),
        pod('classed', { priorityClassName: 'high', containers: [{ name: 'c' }] }),
        pod('defaulted', { containers: [{ name: 'c' }] }),
        pod('podlevel', {
          resources: { requests: { cpu: '2' } },
          containers: [{ name: 'c', resources: { requests: { cpu: '100m' } } }],
        }),
        pod('duplicate', { containers: [{ name: 'c' }] }),
        pod('duplicate', { containers: [{ name: 'c' }] }),
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nospec', namespace: 'default' }, spec: 3 },
      ],
    },
    source: { file: 'capture.yaml', documentIndex: 0, path: [] },
  },
];

/** What a load gives, as plain data: each node's pods (every PodInfo field) and the findings. */
function loadedView(
  objects: readonly SourcedObject[],
  options: { version: KubernetesMinor; extra?: readonly SourcedObject[]; memo?: PodLoadMemo },
): unknown {
  const loaded = loadCluster(objects, {
    version: options.version,
    description: 'capture.yaml',
    extraObjects: options.extra ?? [],
    ...(options.memo === undefined ? {} : { podMemo: options.memo }),
  });
  return {
    pods: loaded.cluster.nodes.map((node) => node.pods.map((info) => ({ ...info }))),
    requested: loaded.cluster.nodes.map((node) => node.requested.milliCpu),
    findings: loaded.findings,
  };
}

const sourced = (object: unknown): SourcedObject => ({
  object,
  source: { file: 'app.yaml', documentIndex: 0, path: [] },
});

describe('PodLoadMemo', () => {
  const CASES: readonly {
    name: string;
    first: { version: KubernetesMinor; extra?: readonly SourcedObject[] };
    second: { version: KubernetesMinor; extra?: readonly SourcedObject[] };
  }[] = [
    {
      name: 'a second load with the same inputs gives what a load without the memo gives',
      first: { version: '1.35', extra: [sourced(priorityClass('high', 1000))] },
      second: { version: '1.35', extra: [sourced(priorityClass('high', 1000))] },
    },
    {
      name: 'a second load whose PriorityClass has another value resolves the priority afresh',
      first: { version: '1.35', extra: [sourced(priorityClass('high', 1000))] },
      second: { version: '1.35', extra: [sourced(priorityClass('high', 5))] },
    },
    {
      name: 'a second load with a new global default class gives the defaulted pod that priority',
      first: { version: '1.35' },
      second: { version: '1.35', extra: [sourced(priorityClass('everyone', 42, true))] },
    },
    {
      name: 'a second load for another version computes the requests of that version',
      first: { version: '1.35' },
      second: { version: '1.33' },
    },
  ];
  for (const { name, first, second } of CASES) {
    test(name, () => {
      const memo = new PodLoadMemo();
      assert.deepEqual(loadedView(CAPTURE, { ...first, memo }), loadedView(CAPTURE, first));
      assert.deepEqual(loadedView(CAPTURE, { ...second, memo }), loadedView(CAPTURE, second));
    });
  }

  test('the defaulted pod takes the global default of the second load, not the first (the memo is bypassed)', () => {
    const memo = new PodLoadMemo();
    loadCluster(CAPTURE, { version: '1.35', description: 'c', podMemo: memo });
    const second = loadCluster(CAPTURE, {
      version: '1.35',
      description: 'c',
      extraObjects: [sourced(priorityClass('everyone', 42, true))],
      podMemo: memo,
    });
    const defaulted = second.cluster.nodes[0]?.pods.find((info) => info.name === 'defaulted');
    assert.equal(defaulted?.priority, 42);
  });

  test('each load has PodInfos of its own: a run binding or unbinding one leaves the other load as it was', () => {
    const memo = new PodLoadMemo();
    const first = loadCluster(CAPTURE, { version: '1.35', description: 'c', podMemo: memo });
    const second = loadCluster(CAPTURE, { version: '1.35', description: 'c', podMemo: memo });
    const [one, other] = [first, second].map((loaded) => loaded.cluster.nodes[0]?.pods[0]);
    assert.ok(one !== undefined && other !== undefined);
    assert.notEqual(one, other);
    other.nodeName = null;
    other.startTime = 12;
    assert.equal(one.nodeName, 'n1');
    assert.equal(one.startTime, null);
    const third = loadCluster(CAPTURE, { version: '1.35', description: 'c', podMemo: memo });
    assert.equal(third.cluster.nodes[0]?.pods[0]?.nodeName, 'n1');
    assert.equal(third.cluster.nodes[0]?.pods[0]?.startTime, null);
  });

  test('the same pod object at another place of the file is loaded afresh (its source is its own)', () => {
    const memo = new PodLoadMemo();
    loadCluster(CAPTURE, { version: '1.35', description: 'c', podMemo: memo });
    const moved: SourcedObject[] = [
      { object: CAPTURE[0]?.object, source: { file: 'other.yaml', documentIndex: 2, path: [] } },
    ];
    assert.deepEqual(loadedView(moved, { version: '1.35', memo }), loadedView(moved, { version: '1.35' }));
  });

  test('the malformed and negative requests are reported by every load, the memo repeating them', () => {
    const memo = new PodLoadMemo();
    const codes = (): string[] =>
      loadCluster(CAPTURE, { version: '1.35', description: 'c', podMemo: memo }).findings.map((f) => f.code);
    const first = codes();
    assert.ok(first.includes('invalid-quantity') && first.includes('negative-quantity'), first.join());
    assert.deepEqual(codes(), first);
  });

  test('a second load whose nodes come in another order binds afresh, each pod on its own node', () => {
    const node = (name: string): Record<string, unknown> => ({
      ...NODE,
      metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    });
    const onNode = (name: string, nodeName: string): Record<string, unknown> =>
      pod(name, { nodeName, containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }] });
    const list = (items: readonly unknown[]): SourcedObject[] => [
      {
        object: { apiVersion: 'v1', kind: 'List', items },
        source: { file: 'c.yaml', documentIndex: 0, path: [] },
      },
    ];
    const [a, b] = [node('a'), node('b')];
    const pods = [onNode('on-a', 'a'), onNode('on-b', 'b')];
    const memo = new PodLoadMemo();
    loadedView(list([a, b, ...pods]), { version: '1.35', memo });
    const swapped = list([b, a, ...pods]);
    assert.deepEqual(
      loadedView(swapped, { version: '1.35', memo }),
      loadedView(swapped, { version: '1.35' }),
    );
  });
});
