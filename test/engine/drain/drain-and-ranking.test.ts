import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DRAIN_FILTER_MESSAGES, selectPodsForDrain } from '../../../server/src/engine/drain/drain-filters';
import type { DrainOptions } from '../../../server/src/engine/drain/drain-filters';
import { podsToDelete } from '../../../server/src/engine/controllers/pod-ranking';
import type { SimPod } from '../../../server/src/engine/apiserver/sim-pod';
import { newSimPod } from '../../../server/src/engine/apiserver/sim-pod';
import { createPodInfo } from '../../../server/src/engine/model/snapshot/pod-info';

/** A pod with an optional controller and annotations or volumes. */
function pod(
  name: string,
  extra: { controller?: string; mirror?: boolean; emptyDir?: boolean } = {},
): SimPod {
  const [kind, owner] = extra.controller?.split('/') ?? [];
  const object = {
    metadata: {
      name,
      namespace: 'default',
      ...(extra.mirror === true ? { annotations: { 'kubernetes.io/config.mirror': 'hash' } } : {}),
      ...(kind === undefined ? {} : { ownerReferences: [{ kind, name: owner, controller: true }] }),
    },
    spec: {
      containers: [{ name: 'app', image: 'app:1' }],
      ...(extra.emptyDir === true ? { volumes: [{ name: 'scratch', emptyDir: {} }] } : {}),
    },
  };
  const info = createPodInfo(
    {
      pod: object,
      source: { file: 'x', documentIndex: 0, path: [] },
      owner: null,
      priority: 0,
      podLevelResources: true,
    },
    [],
  );
  return newSimPod({ info, workload: null, revision: null, createdAt: 0, createdSeq: 0 });
}

const KUBECTL: DrainOptions = { ignoreDaemonSets: false, deleteEmptyDirData: false, force: false };

describe('selectPodsForDrain (kubectl drain filters)', () => {
  test('kubectl’s filter messages are pinned', () => {
    assert.deepEqual(DRAIN_FILTER_MESSAGES, {
      daemonSetFatal: 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)',
      daemonSetWarning: 'ignoring DaemonSet-managed Pods',
      localStorageFatal: 'Pods with local storage (use --delete-emptydir-data to override)',
      localStorageWarning: 'deleting Pods with local storage',
      unmanagedFatal: 'cannot delete Pods that declare no controller (use --force to override)',
      unmanagedWarning: 'deleting Pods that declare no controller',
    });
  });

  const cases: {
    name: string;
    pods: SimPod[];
    options: DrainOptions;
    evict: string[];
    skipped: number;
    errors: string[];
  }[] = [
    {
      name: 'a DaemonSet pod fails a drain without --ignore-daemonsets',
      pods: [pod('agent', { controller: 'DaemonSet/agent' }), pod('web', { controller: 'ReplicaSet/web' })],
      options: KUBECTL,
      evict: ['default/web'],
      skipped: 0,
      errors: ['cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/agent'],
    },
    {
      name: 'with --ignore-daemonsets a DaemonSet pod is skipped',
      pods: [pod('agent', { controller: 'DaemonSet/agent' })],
      options: { ...KUBECTL, ignoreDaemonSets: true },
      evict: [],
      skipped: 1,
      errors: [],
    },
    {
      name: 'a mirror pod is always skipped',
      pods: [pod('etcd', { mirror: true, controller: 'Node/cp' })],
      options: KUBECTL,
      evict: [],
      skipped: 1,
      errors: [],
    },
    {
      name: 'an emptyDir pod needs --delete-emptydir-data',
      pods: [pod('cache', { controller: 'ReplicaSet/cache', emptyDir: true })],
      options: KUBECTL,
      evict: [],
      skipped: 0,
      errors: [
        'cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache',
      ],
    },
    {
      name: 'a pod without a controller needs --force, in kubectl’s doubled wording',
      pods: [pod('b'), pod('a')],
      options: KUBECTL,
      evict: [],
      skipped: 0,
      errors: [
        'cannot delete cannot delete Pods that declare no controller (use --force to override): default/a, default/b',
      ],
    },
    {
      name: 'with --force a pod without a controller is evicted',
      pods: [pod('a')],
      options: { ...KUBECTL, force: true },
      evict: ['default/a'],
      skipped: 0,
      errors: [],
    },
  ];
  for (const { name, pods, options, evict, skipped, errors } of cases) {
    test(name, () => {
      const selection = selectPodsForDrain(pods, options);
      assert.deepEqual(
        selection.evict.map((entry) => entry.key),
        evict,
      );
      assert.equal(selection.skipped.length, skipped);
      assert.deepEqual(selection.errors, errors);
    });
  }
});

describe('podsToDelete (ActivePodsWithRanks)', () => {
  const state = (p: SimPod, fields: Partial<SimPod>): SimPod => Object.assign(p, fields);
  test('unassigned, then pending, then not ready, then doubled-up, then most recently ready, then newest', () => {
    const pods = [
      state(pod('ready-old'), {
        nodeName: 'n1',
        isRunning: true,
        isReady: true,
        readySince: 10,
        createdAt: 0,
      }),
      state(pod('ready-new'), {
        nodeName: 'n2',
        isRunning: true,
        isReady: true,
        readySince: 50,
        createdAt: 40,
      }),
      state(pod('unready'), { nodeName: 'n3', isRunning: true, isReady: false }),
      state(pod('pending'), { nodeName: 'n3', isRunning: false }),
      state(pod('unassigned'), { nodeName: null }),
      state(pod('doubled'), { nodeName: 'n4', isRunning: true, isReady: true, readySince: 5 }),
      state(pod('doubled-twin'), {
        nodeName: 'n4',
        isRunning: true,
        isReady: true,
        readySince: 5,
        createdAt: 1,
      }),
    ];
    assert.deepEqual(
      podsToDelete(pods, pods, 7).map((entry) => entry.name),
      ['unassigned', 'pending', 'unready', 'doubled-twin', 'doubled', 'ready-new', 'ready-old'],
    );
  });

  test('asking for none deletes none', () => {
    assert.deepEqual(podsToDelete([pod('a')], [pod('a')], 0), []);
  });
});
