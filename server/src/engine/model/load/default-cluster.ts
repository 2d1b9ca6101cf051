/**
 * The embedded default cluster, used when no cluster file is given: a small kubeadm-style cluster.
 *   control-plane  2 cpu, 8Gi,  110 pods, tainted node-role.kubernetes.io/control-plane:NoSchedule, zone-a
 *   worker-1..3    4 cpu, 16Gi, 110 pods, zones zone-a, zone-b, zone-c
 * Every node has the well-known labels (kubernetes.io/hostname, kubernetes.io/os, kubernetes.io/arch,
 * topology.kubernetes.io/zone and region). Allocatable is given directly (as a real node reports it after
 * system reservations). The kube-system pods of such a cluster run on it: the control plane's static pods with
 * kubeadm's requests, two CoreDNS replicas on the first two workers and kube-proxy on every node. One default
 * StorageClass, `standard` (WaitForFirstConsumer, zonal volumes provisioned where the pod lands).
 */
import type { SourcedObject } from './cluster-load';

/** The description reports use for this cluster. */
export const DEFAULT_CLUSTER_DESCRIPTION = 'embedded default cluster';

const FILE = '<embedded default cluster>';

interface NodeShape {
  readonly name: string;
  readonly zone: string;
  readonly cpu: string;
  readonly memory: string;
  readonly isControlPlane: boolean;
}

const NODES: readonly NodeShape[] = [
  { name: 'control-plane', zone: 'zone-a', cpu: '2', memory: '8Gi', isControlPlane: true },
  { name: 'worker-1', zone: 'zone-a', cpu: '4', memory: '16Gi', isControlPlane: false },
  { name: 'worker-2', zone: 'zone-b', cpu: '4', memory: '16Gi', isControlPlane: false },
  { name: 'worker-3', zone: 'zone-c', cpu: '4', memory: '16Gi', isControlPlane: false },
];

/** kubeadm's static pods and their requests. */
const CONTROL_PLANE_PODS: readonly { name: string; cpu: string; memory?: string }[] = [
  { name: 'etcd', cpu: '100m', memory: '100Mi' },
  { name: 'kube-apiserver', cpu: '250m' },
  { name: 'kube-controller-manager', cpu: '200m' },
  { name: 'kube-scheduler', cpu: '100m' },
];

/** The objects of the default cluster (Nodes, then kube-system Pods), each with its own source. */
export function defaultClusterObjects(): SourcedObject[] {
  const objects: unknown[] = [...NODES.map(nodeObject)];
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
  NODES.forEach((node, index) => {
    objects.push(
      systemPod(
        `kube-proxy-${'abcd'[index] ?? 'x'}7k2m`,
        node.name,
        'kube-proxy',
        {},
        'system-node-critical',
        { owner: { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'kube-proxy', controller: true } },
      ),
    );
  });
  objects.push(DEFAULT_STORAGE_CLASS);
  return objects.map((object, index) => ({ object, source: { file: FILE, documentIndex: index, path: [] } }));
}

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

function nodeObject(shape: NodeShape): unknown {
  const labels: Record<string, string> = {
    'kubernetes.io/hostname': shape.name,
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'topology.kubernetes.io/region': 'region-1',
    'topology.kubernetes.io/zone': shape.zone,
  };
  if (shape.isControlPlane) {
    labels['node-role.kubernetes.io/control-plane'] = '';
  }
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: shape.name, labels },
    spec: shape.isControlPlane
      ? { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }
      : {},
    status: {
      capacity: { cpu: shape.cpu, memory: shape.memory, pods: '110', 'ephemeral-storage': '100Gi' },
      allocatable: { cpu: shape.cpu, memory: shape.memory, pods: '110', 'ephemeral-storage': '100Gi' },
    },
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
