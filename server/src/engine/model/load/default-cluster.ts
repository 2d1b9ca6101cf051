/**
 * The embedded default cluster, used when no cluster file is given: a small kubeadm-style cluster that grows, the
 * profile `default` (profiles/cluster-profile.ts).
 *   control-plane  2 cpu, 8Gi,  110 pods, tainted node-role.kubernetes.io/control-plane:NoSchedule, zone-a
 *   worker-1..3    4 cpu, 16Gi, 110 pods, zones zone-a, zone-b, zone-c
 *   large-N        16 cpu, 64Gi, 110 pods: none at first; the cluster autoscaler adds up to 3 for pods that fit
 *                  no worker (node group `large`, 90 s from the scale-up to Ready)
 * Every node has the well-known labels (kubernetes.io/hostname, kubernetes.io/os, kubernetes.io/arch,
 * topology.kubernetes.io/zone and region). Allocatable is given directly, in round figures equal to the capacity
 * (a real node reports less after system reservations: the cloud profiles compute it). The kube-system pods of
 * such a cluster run on it: the control plane's static pods with kubeadm's requests, two CoreDNS replicas on the
 * first two workers and kube-proxy on every first node. One default StorageClass, `standard` (WaitForFirstConsumer,
 * zonal volumes provisioned where the pod lands).
 */
import type { SourcedObject } from './cluster-load';
import { localFormula } from './profiles/allocatable';
import type { ClusterProfile } from './profiles/cluster-profile';
import { profileObjects } from './profiles/cluster-profile';

/** The description reports use for this cluster. */
export const DEFAULT_CLUSTER_DESCRIPTION = 'embedded default cluster';

const FILE = '<embedded default cluster>';

/** The control-plane node, outside any node group. */
const CONTROL_PLANE = { name: 'control-plane', zone: 'zone-a', cpu: '2', memory: '8Gi' } as const;

/** The workers' names, for the system pods placed on them. */
const WORKERS = ['worker-1', 'worker-2', 'worker-3'] as const;

/** kubeadm's static pods and their requests. */
const CONTROL_PLANE_PODS: readonly { name: string; cpu: string; memory?: string }[] = [
  { name: 'etcd', cpu: '100m', memory: '100Mi' },
  { name: 'kube-apiserver', cpu: '250m' },
  { name: 'kube-controller-manager', cpu: '200m' },
  { name: 'kube-scheduler', cpu: '100m' },
];

/**
 * The default StorageClass: a claim without class gets it (DefaultStorageClass admission); its volumes are made
 * for the pod's node when the pod is scheduled (WaitForFirstConsumer) and pinned to that node's zone, as a
 * cloud's zonal disks are. Its provisioner is the simulation's own.
 */
export const DEFAULT_STORAGE_CLASS = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
  provisioner: 'disk.csi.foresight.local',
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'WaitForFirstConsumer',
  allowVolumeExpansion: true,
};

/**
 * The embedded default as a profile: the workers a fixed group, the large nodes a group the cluster autoscaler
 * grows from none, the control plane and the kube-system pods besides.
 */
export const DEFAULT_CLUSTER_PROFILE: ClusterProfile = {
  name: 'default',
  title:
    'Embedded default: a tainted control plane, 3 workers of 4 cpu and 16Gi, and up to 3 nodes of 16 cpu and 64Gi that the cluster autoscaler adds',
  formula: localFormula('Kube Foresight', 'round figures: allocatable equal to the capacity', 0),
  region: 'region-1',
  zones: ['zone-a', 'zone-b', 'zone-c'],
  groups: [
    {
      name: 'workers',
      machine: { name: 'worker', cpu: 4, memoryMiB: 16 * 1024, maxPods: 110, diskGiB: 100 },
      minSize: 3,
      maxSize: 3,
      labels: {},
      nodeNames: WORKERS,
    },
    {
      name: 'large',
      machine: { name: 'large', cpu: 16, memoryMiB: 64 * 1024, maxPods: 110, diskGiB: 100 },
      minSize: 0,
      maxSize: 3,
      labels: {},
    },
  ],
  storageClass: DEFAULT_STORAGE_CLASS,
  extraObjects: () => [controlPlaneNode(), ...systemPods()],
  sourceName: FILE,
};

/** The objects of the default cluster (the profile's nodes and groups, kube-system Pods), each with its own source. */
export function defaultClusterObjects(): SourcedObject[] {
  return profileObjects(DEFAULT_CLUSTER_PROFILE);
}

/** The kube-system pods: the control plane's static pods, CoreDNS, kube-proxy on the first four nodes. */
function systemPods(): unknown[] {
  const objects: unknown[] = [];
  for (const pod of CONTROL_PLANE_PODS) {
    const requests: Record<string, string> = { cpu: pod.cpu };
    if (pod.memory !== undefined) {
      requests['memory'] = pod.memory;
    }
    // Static pods: the kubelet runs them from manifests on disk and the API server shows mirror pods, owned by
    // their Node and annotated kubernetes.io/config.mirror; kubectl drain skips them.
    objects.push(
      systemPod(`${pod.name}-control-plane`, 'control-plane', pod.name, requests, 'system-node-critical', {
        owner: { apiVersion: 'v1', kind: 'Node', name: 'control-plane', controller: true },
        annotations: {
          'kubernetes.io/config.mirror': `${pod.name}-mirror`,
          'kubernetes.io/config.source': 'file',
        },
      }),
    );
  }
  ['worker-1', 'worker-2'].forEach((node, index) => {
    const name = `coredns-668d6bf9bc-${index === 0 ? 'k2x7p' : 'q9v4m'}`;
    objects.push(
      systemPod(name, node, 'coredns', { cpu: '100m', memory: '70Mi' }, 'system-cluster-critical', {
        owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'coredns-668d6bf9bc', controller: true },
      }),
    );
  });
  [CONTROL_PLANE.name, ...WORKERS].forEach((node, index) => {
    objects.push(
      systemPod(`kube-proxy-${'abcd'[index] ?? 'x'}7k2m`, node, 'kube-proxy', {}, 'system-node-critical', {
        owner: { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'kube-proxy', controller: true },
      }),
    );
  });
  return objects;
}

/** The control-plane node, tainted as kubeadm taints it. */
function controlPlaneNode(): unknown {
  const resources = {
    cpu: CONTROL_PLANE.cpu,
    memory: CONTROL_PLANE.memory,
    pods: '110',
    'ephemeral-storage': '100Gi',
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: CONTROL_PLANE.name,
      labels: {
        'kubernetes.io/hostname': CONTROL_PLANE.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/region': 'region-1',
        'topology.kubernetes.io/zone': CONTROL_PLANE.zone,
        'node-role.kubernetes.io/control-plane': '',
      },
    },
    spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
    status: { capacity: resources, allocatable: resources },
  };
}

function systemPod(
  name: string,
  nodeName: string,
  container: string,
  requests: Record<string, string>,
  priorityClassName: string,
  management: {
    owner: { apiVersion: string; kind: string; name: string; controller: boolean };
    annotations?: Record<string, string>;
  },
): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'kube-system',
      labels: { component: container },
      ...(management.annotations === undefined ? {} : { annotations: management.annotations }),
      ownerReferences: [
        { ...management.owner, uid: `${management.owner.kind.toLowerCase()}-${management.owner.name}` },
      ],
    },
    spec: {
      nodeName,
      priorityClassName,
      containers: [
        { name: container, image: `registry.k8s.io/${container}:v1.35.0`, resources: { requests } },
      ],
    },
    status: { phase: 'Running' },
  };
}
