/**
 * Claims a StatefulSet creates pass the API server's admission as the apply's do (admission/admit-claim.ts): a
 * claim LimitRanger or ResourceQuota refuses fails its pod's creation, with the controller's two FailedCreate
 * events (stateful_pod_control.go recordClaimEvent, then recordPodEvent), once, and the claim among the refused
 * objects with the StatefulSet's replicas. Rows follow stateful_pod_control_test.go's
 * TestStatefulPodControlCreatePodPVCCreateFailure (a claim's create error: two warning events, no pod) and
 * TestStatefulPodControlCreatesPods (claims created, then the pod), and limitranger's PVC cases (admission_test.go
 * TestPersistentVolumeClaimLimitFunc).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nodes, run, workload } from '../../../support/timeline-builders';

const quota = (hard: Record<string, string>): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'storage', namespace: 'default' },
  spec: { hard },
});

const claimLimit = (max: string): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'claims', namespace: 'default' },
  spec: { limits: [{ type: 'PersistentVolumeClaim', max: { storage: max } }] },
});

const db = (replicas: number, storage: string): Record<string, unknown> =>
  workload('StatefulSet', 'db', 'postgres:16', {
    replicas,
    volumeClaimTemplates: [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
      },
    ],
  });

const CASES: readonly {
  name: string;
  guard: Record<string, unknown>;
  replicas: number;
  storage: string;
  pods: readonly string[];
  claims: readonly string[];
  failedCreate: readonly string[];
  refused: readonly (string | number)[][];
}[] = [
  {
    name: 'TestStatefulPodControlCreatesPods: claims within the quota are created, then their pods',
    guard: quota({ persistentvolumeclaims: '3' }),
    replicas: 3,
    storage: '5Gi',
    pods: ['db-0', 'db-1', 'db-2'],
    claims: ['data-db-0', 'data-db-1', 'data-db-2'],
    failedCreate: [],
    refused: [],
  },
  {
    name: 'TestStatefulPodControlCreatePodPVCCreateFailure: the third claim exceeds the quota, so db-2 is never created',
    guard: quota({ persistentvolumeclaims: '2' }),
    replicas: 3,
    storage: '5Gi',
    pods: ['db-0', 'db-1'],
    claims: ['data-db-0', 'data-db-1'],
    failedCreate: [
      'create Claim data-db-2 for Pod db-2 in StatefulSet db failed error: persistentvolumeclaims "data-db-2" is forbidden: exceeded quota: storage, requested: persistentvolumeclaims=1, used: persistentvolumeclaims=2, limited: persistentvolumeclaims=2',
      'create Pod db-2 in StatefulSet db failed error: failed to create PVC data-db-2: persistentvolumeclaims "data-db-2" is forbidden: exceeded quota: storage, requested: persistentvolumeclaims=1, used: persistentvolumeclaims=2, limited: persistentvolumeclaims=2',
    ],
    refused: [['PersistentVolumeClaim', 'data-db-2', 'ResourceQuota', 3, 2]],
  },
  {
    name: 'TestPersistentVolumeClaimLimitFunc: a request over the max refuses the first claim; no pod at all',
    guard: claimLimit('20Gi'),
    replicas: 2,
    storage: '50Gi',
    pods: [],
    claims: [],
    failedCreate: [
      'create Claim data-db-0 for Pod db-0 in StatefulSet db failed error: persistentvolumeclaims "data-db-0" is forbidden: maximum storage usage per PersistentVolumeClaim is 20Gi, but request is 50Gi',
      'create Pod db-0 in StatefulSet db failed error: failed to create PVC data-db-0: persistentvolumeclaims "data-db-0" is forbidden: maximum storage usage per PersistentVolumeClaim is 20Gi, but request is 50Gi',
    ],
    refused: [['PersistentVolumeClaim', 'data-db-0', 'LimitRanger', 2, 0]],
  },
  {
    name: 'requests.storage counts the claims the controller created: 2 × 5Gi fit 12Gi, the third does not',
    guard: quota({ 'requests.storage': '12Gi' }),
    replicas: 3,
    storage: '5Gi',
    pods: ['db-0', 'db-1'],
    claims: ['data-db-0', 'data-db-1'],
    failedCreate: [
      'create Claim data-db-2 for Pod db-2 in StatefulSet db failed error: persistentvolumeclaims "data-db-2" is forbidden: exceeded quota: storage, requested: requests.storage=5Gi, used: requests.storage=10Gi, limited: requests.storage=12Gi',
      'create Pod db-2 in StatefulSet db failed error: failed to create PVC data-db-2: persistentvolumeclaims "data-db-2" is forbidden: exceeded quota: storage, requested: requests.storage=5Gi, used: requests.storage=10Gi, limited: requests.storage=12Gi',
    ],
    refused: [['PersistentVolumeClaim', 'data-db-2', 'ResourceQuota', 3, 2]],
  },
];

describe('admission of the claims a StatefulSet creates', () => {
  for (const row of CASES) {
    test(row.name, () => {
      const result = run({
        cluster: nodes(3),
        manifests: [row.guard, db(row.replicas, row.storage)],
        until: 600,
      });
      const pods = [...result.state.pods.values()]
        .filter((pod) => pod.namespace === 'default' && !pod.isGone)
        .map((pod) => pod.name)
        .sort();
      assert.deepEqual(pods, row.pods);
      const claims = result.events
        .filter((event) => event.type === 'ClaimCreated')
        .map((event) => event.object.name)
        .sort();
      assert.deepEqual(claims, row.claims);
      assert.deepEqual(
        result.events.filter((event) => event.type === 'FailedCreate').map((event) => event.message),
        row.failedCreate,
      );
      assert.deepEqual(
        result.rejected.map((entry) => [
          entry.kind,
          entry.name,
          entry.plugin,
          entry.replicas?.desired ?? -1,
          entry.replicas?.created ?? -1,
        ]),
        row.refused,
      );
    });
  }
});
