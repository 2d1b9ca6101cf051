/**
 * Scale-down eligibility and drainability, from cluster-autoscaler's core/scaledown/eligibility/eligibility_test.go
 * (TestFilterOutUnremovable, with IgnoreDaemonSetsUtilization=false: DaemonSet pods count; isNodeAtOrBelowUtilizationThreshold)
 * and the drainability rules' tests in the order of rules.go Default (simulator/drainability/rules/*_test.go, simulator/drain_test.go TestGetPodsToMove); each row
 * names the upstream case it follows.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SAFE_TO_EVICT_ANNOTATION,
  SAFE_TO_EVICT_LOCAL_VOLUMES_ANNOTATION,
  SCALE_DOWN_DISABLED_ANNOTATION,
  TO_BE_DELETED_TAINT,
  checkEligibility,
  podsToMove,
} from '../../../server/src/engine/autoscaler/scale-down-eligibility';
import type {
  DrainCandidatePod,
  ScaleDownNode,
} from '../../../server/src/engine/autoscaler/scale-down-eligibility';
import { Resources } from '../../../server/src/engine/model/resources';

/** BuildTestNode(name, 1000, 10): 1000m cpu, 10 bytes of memory. */
function node(name: string, pods: number[], extra: Partial<ScaleDownNode> = {}): ScaleDownNode {
  const allocatable = new Resources();
  allocatable.milliCpu = 1000;
  allocatable.memory = 10;
  return {
    name,
    allocatable,
    annotations: {},
    taintKeys: [],
    podRequests: pods.map((milliCpu) => ({ milliCpu, memory: 0 })),
    ...extra,
  };
}

describe('eligibility (eligibility_test.go TestFilterOutUnremovable)', () => {
  const rows: readonly { name: string; node: ScaleDownNode; eligible: boolean; reason?: string }[] = [
    { name: 'regular node stays', node: node('regular', []), eligible: true },
    {
      name: 'recently deleted node is filtered out',
      node: node('justDeleted', [], { taintKeys: [TO_BE_DELETED_TAINT] }),
      eligible: false,
      reason: 'CurrentlyBeingDeleted',
    },
    {
      name: 'marked no scale down is filtered out',
      node: node('noScaleDown', [], { annotations: { [SCALE_DOWN_DISABLED_ANNOTATION]: 'true' } }),
      eligible: false,
      reason: 'ScaleDownDisabledAnnotation',
    },
    {
      name: 'highly utilized node is filtered out (bigPod 600m of 1000m)',
      node: node('regular', [600]),
      eligible: false,
      reason: 'NotUnderutilized',
    },
    {
      name: 'underutilized node stays (smallPod 100m of 1000m)',
      node: node('regular', [100]),
      eligible: true,
    },
    {
      name: 'high utilization daemonsets node is filtered out (smallPod 100m + dsPod 500m, DaemonSets counted)',
      node: node('regular', [100, 500]),
      eligible: false,
      reason: 'NotUnderutilized',
    },
    {
      name: 'isNodeAtOrBelowUtilizationThreshold: exactly at the threshold is a candidate (0.5 of 0.5)',
      node: node('regular', [500]),
      eligible: true,
    },
    {
      name: 'utilization.Calculate fails without memory allocatable: UnexpectedError',
      node: { ...node('regular', []), allocatable: Object.assign(new Resources(), { milliCpu: 1000 }) },
      eligible: false,
      reason: 'UnexpectedError',
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const verdict = checkEligibility(row.node, 0.5);
      assert.equal(verdict.reason === null, row.eligible);
      if (row.reason !== undefined) {
        assert.equal(verdict.reason, row.reason);
      }
    });
  }

  test('utilization is the larger of the cpu and the memory share', () => {
    const allocatable = new Resources();
    allocatable.milliCpu = 1000;
    allocatable.memory = 1000;
    const verdict = checkEligibility(
      { ...node('n', []), allocatable, podRequests: [{ milliCpu: 100, memory: 700 }] },
      0.5,
    );
    assert.equal(verdict.utilization, 0.7);
    assert.equal(verdict.reason, 'NotUnderutilized');
  });
});

function pod(name: string, extra: Partial<DrainCandidatePod> = {}): DrainCandidatePod {
  return {
    namespace: 'default',
    name,
    controllerKind: 'ReplicaSet',
    annotations: {},
    isMirror: false,
    isTerminal: false,
    isLongTerminating: false,
    localVolumes: [],
    budgetsAllowed: [],
    ...extra,
  };
}

describe('drainability (drainability rules, drain_test.go TestGetPodsToMove)', () => {
  const rows: readonly {
    name: string;
    pods: DrainCandidatePod[];
    move: string[];
    blocking?: { reason: string; message: string };
  }[] = [
    { name: 'replicated pod: moved', pods: [pod('rs')], move: ['rs'] },
    {
      name: 'unreplicated pod: blocks (NotReplicated)',
      pods: [pod('bare', { controllerKind: null })],
      move: [],
      blocking: { reason: 'NotReplicated', message: 'default/bare is not replicated' },
    },
    {
      name: 'mirror pod: skipped',
      pods: [pod('static', { controllerKind: 'Node', isMirror: true })],
      move: [],
    },
    {
      name: 'DaemonSet pod: skipped (goes with the node)',
      pods: [pod('ds', { controllerKind: 'DaemonSet' })],
      move: [],
    },
    {
      name: 'terminal rule: a finished pod is drainable, without a controller (terminal comes before replicated)',
      pods: [pod('done', { controllerKind: null, isTerminal: true })],
      move: ['done'],
    },
    {
      name: 'kube-system pod without a PodDisruptionBudget: blocks (UnmovableKubeSystemPod)',
      pods: [pod('dns', { namespace: 'kube-system' })],
      move: [],
      blocking: {
        reason: 'UnmovableKubeSystemPod',
        message: 'non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: dns',
      },
    },
    {
      name: 'kube-system pod with a budget that allows a disruption: moved',
      pods: [pod('dns', { namespace: 'kube-system', budgetsAllowed: [1] })],
      move: ['dns'],
    },
    {
      name: 'safe-to-evict "false": blocks (NotSafeToEvictAnnotation)',
      pods: [pod('pinned', { annotations: { [SAFE_TO_EVICT_ANNOTATION]: 'false' } })],
      move: [],
      blocking: {
        reason: 'NotSafeToEvictAnnotation',
        message: 'pod annotated as not safe to evict present: pinned',
      },
    },
    {
      name: 'local storage: blocks (LocalStorageRequested)',
      pods: [pod('cache', { localVolumes: ['scratch'] })],
      move: [],
      blocking: { reason: 'LocalStorageRequested', message: 'pod with local storage present: cache' },
    },
    {
      name: 'localstorage rule: a volume named in safe-to-evict-local-volumes does not block',
      pods: [
        pod('cache', {
          localVolumes: ['scratch', 'tmp'],
          annotations: { [SAFE_TO_EVICT_LOCAL_VOLUMES_ANNOTATION]: 'scratch,tmp' },
        }),
      ],
      move: ['cache'],
    },
    {
      name: 'localstorage rule: a local volume the annotation leaves out still blocks',
      pods: [
        pod('cache', {
          localVolumes: ['scratch', 'tmp'],
          annotations: { [SAFE_TO_EVICT_LOCAL_VOLUMES_ANNOTATION]: 'scratch' },
        }),
      ],
      move: [],
      blocking: { reason: 'LocalStorageRequested', message: 'pod with local storage present: cache' },
    },
    {
      name: 'replicated rule: a pod of a custom controller is not replicated (--skip-nodes-with-custom-controller-pods)',
      pods: [pod('clone', { controllerKind: 'CloneSet' })],
      move: [],
      blocking: { reason: 'NotReplicated', message: 'default/clone is not replicated' },
    },
    {
      name: 'replicated rule: Job and StatefulSet pods are replicated',
      pods: [pod('job', { controllerKind: 'Job' }), pod('db-0', { controllerKind: 'StatefulSet' })],
      move: ['job', 'db-0'],
    },
    {
      name: 'daemonset rule comes before safetoevict: an annotated DaemonSet pod still goes with the node',
      pods: [pod('ds', { controllerKind: 'DaemonSet', annotations: { [SAFE_TO_EVICT_ANNOTATION]: 'true' } })],
      move: [],
    },
    {
      name: 'longterminating rule: a pod terminating past its grace period is skipped, even without a controller',
      pods: [pod('stuck', { controllerKind: null, isLongTerminating: true })],
      move: [],
    },
    {
      name: 'safe-to-evict "true" overrides local storage and no controller: moved',
      pods: [
        pod('cache', {
          localVolumes: ['scratch'],
          controllerKind: null,
          annotations: { [SAFE_TO_EVICT_ANNOTATION]: 'true' },
        }),
      ],
      move: ['cache'],
    },
    {
      name: 'a budget with no disruption left: blocks (NotEnoughPdb)',
      pods: [pod('payments', { budgetsAllowed: [0] })],
      move: [],
      blocking: {
        reason: 'NotEnoughPdb',
        message: 'not enough pod disruption budget to move default/payments',
      },
    },
    {
      name: 'the first blocking pod wins and nothing is moved',
      pods: [pod('rs'), pod('bare', { controllerKind: null }), pod('cache', { localVolumes: ['scratch'] })],
      move: [],
      blocking: { reason: 'NotReplicated', message: 'default/bare is not replicated' },
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const result = podsToMove(row.pods);
      assert.deepEqual(
        result.move.map((entry) => entry.name),
        row.move,
      );
      assert.deepEqual(
        result.blocking === null
          ? undefined
          : { reason: result.blocking.reason, message: result.blocking.message },
        row.blocking,
      );
    });
  }
});
