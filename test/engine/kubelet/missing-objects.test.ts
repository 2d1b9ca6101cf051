/**
 * A claim, ConfigMap or Secret the captured cluster shows missing (it lists that namespace's objects of the kind):
 * the findings and events carry the scheduler's and the kubelet's own words. Rows name the upstream function that
 * words each: VolumeBinding's PreFilter (podHasPVCs), the kubelet volume manager's getPVCExtractPV and
 * WaitForAttachAndMount, the configmap and secret volume plugins' SetUpAt, makeEnvironmentVariables.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nodes, run, workload } from '../../support/timeline-builders';

const CLAIM = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'other', namespace: 'default' },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: '1Gi' } },
    storageClassName: 'standard',
  },
  status: { phase: 'Bound' },
};
const CONFIG_MAP = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'default' },
  data: { mode: 'fast' },
};
const SECRET = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'other', namespace: 'default' },
  data: {},
};

const claimVolume = (claimName: string) => ({
  volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
});
const pinnedPod = (spec: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'pinned', namespace: 'default' },
  spec: { nodeName: 'worker-1', containers: [{ name: 'app', image: 'postgres:17' }], ...spec },
});
const MOUNT_DATA =
  'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[], failed to process volumes=[data]';

const rows: {
  name: string;
  cluster: unknown[];
  manifest: Record<string, unknown>;
  /** The Kubernetes event that says it, and its message. */
  event: [string, string];
  /** The finding's message ends with it (null: no finding expected). */
  finding: string | null;
}[] = [
  {
    name: 'VolumeBinding PreFilter (podHasPVCs): a scheduled pod whose claim is missing stays Pending',
    cluster: [...nodes(1), CLAIM],
    manifest: workload('Deployment', 'db', 'postgres:17', { replicas: 1 }, claimVolume('data')),
    event: ['FailedScheduling', '0/1 nodes are available: persistentvolumeclaim "data" not found.'],
    finding: null,
  },
  {
    name: 'getPVCExtractPV: a pod naming its node skips the scheduler, and its missing claim never mounts',
    cluster: [...nodes(1), CLAIM],
    manifest: pinnedPod(claimVolume('data')),
    event: [
      'FailedMount',
      `${MOUNT_DATA}: error processing PVC default/data: failed to fetch PVC from API server: persistentvolumeclaims "data" not found`,
    ],
    finding: `${MOUNT_DATA}: error processing PVC default/data: failed to fetch PVC from API server: persistentvolumeclaims "data" not found`,
  },
  {
    name: 'getPVCExtractPV: a claim no scheduler bound (WaitForFirstConsumer) is "PVC is not bound"',
    cluster: [
      ...nodes(1),
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'late' },
        provisioner: 'ebs.csi.aws.com',
        volumeBindingMode: 'WaitForFirstConsumer',
      },
      {
        ...CLAIM,
        metadata: { name: 'data', namespace: 'default' },
        spec: { ...CLAIM.spec, storageClassName: 'late' },
        status: { phase: 'Pending' },
      },
    ],
    manifest: pinnedPod(claimVolume('data')),
    event: ['FailedMount', `${MOUNT_DATA}: error processing PVC default/data: PVC is not bound`],
    finding: `${MOUNT_DATA}: error processing PVC default/data: PVC is not bound`,
  },
  {
    name: 'configmap volume SetUpAt: MountVolume.SetUp failed … configmap "missing" not found',
    cluster: [...nodes(1), CONFIG_MAP],
    manifest: pinnedPod({ volumes: [{ name: 'config', configMap: { name: 'missing' } }] }),
    event: ['FailedMount', 'MountVolume.SetUp failed for volume "config" : configmap "missing" not found'],
    finding: 'MountVolume.SetUp failed for volume "config" : configmap "missing" not found',
  },
  {
    name: 'secret volume SetUpAt: MountVolume.SetUp failed … secret "creds" not found',
    cluster: [...nodes(1), SECRET],
    manifest: pinnedPod({ volumes: [{ name: 'creds', secret: { secretName: 'creds' } }] }),
    event: ['FailedMount', 'MountVolume.SetUp failed for volume "creds" : secret "creds" not found'],
    finding: 'MountVolume.SetUp failed for volume "creds" : secret "creds" not found',
  },
  {
    name: 'makeEnvironmentVariables: a missing key of a ConfigMap is CreateContainerConfigError, "Error: …" on the event',
    cluster: [...nodes(1), CONFIG_MAP],
    manifest: pinnedPod({
      containers: [
        {
          name: 'app',
          image: 'postgres:17',
          env: [{ name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'level' } } }],
        },
      ],
    }),
    event: ['Failed', "Error: couldn't find key level in ConfigMap default/settings"],
    finding: "couldn't find key level in ConfigMap default/settings",
  },
];

describe('objects the capture shows missing, in the scheduler’s and the kubelet’s words', () => {
  for (const row of rows) {
    test(row.name, () => {
      const result = run({ cluster: row.cluster, manifests: [row.manifest], until: 300 });
      const [reason, message] = row.event;
      const event = result.events.find((candidate) => candidate.reason === reason);
      assert.ok(event !== undefined, `no ${reason} event`);
      assert.ok(event.message.startsWith(message), event.message);
      assert.equal(event.eventType, 'Warning');
      const finding = result.findings.find((candidate) => candidate.code === 'container-cannot-start');
      if (row.finding === null) {
        assert.equal(finding, undefined);
      } else {
        assert.ok(finding?.message.endsWith(`: ${row.finding}`), finding?.message);
      }
    });
  }

  test('a claim in a namespace the capture lists no claims of is assumed: the pod starts', () => {
    const result = run({ cluster: nodes(1), manifests: [pinnedPod(claimVolume('data'))], until: 300 });
    assert.equal(
      result.events.some((event) => event.reason === 'FailedMount'),
      false,
    );
    assert.ok(result.events.some((event) => event.reason === 'Started'));
  });
});
