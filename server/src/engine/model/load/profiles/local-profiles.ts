/**
 * Profiles of the local distributions, each in its default shape: one node that is its own control plane and runs
 * workloads (kind removes the control-plane taint from a cluster without workers; k3s and minikube never set it),
 * nothing reserved (allocatable.ts). kind and k3d run the node in a Docker container that sees the Docker host's
 * cpus and memory: the profiles assume a host of 4 cpus and 8 GiB. minikube starts a machine of 2 cpus and 25% of
 * the host's memory between 2200 and 6000 MB (minikube's suggestMemoryAllocation): 4000 MB on a 16 GiB host.
 * None of them autoscales.
 */
import type { ClusterProfile } from './cluster-profile';
import { localFormula } from './allocatable';
import { storageClass } from './cloud-profiles';

/** kind's default cluster: node kind-control-plane; StorageClass standard (local-path-provisioner), the default. */
export const KIND_PROFILE: ClusterProfile = {
  name: 'kind',
  title: 'kind: one node, kind-control-plane, on a Docker host of 4 cpus and 8 GiB',
  formula: localFormula(
    'kind',
    'https://github.com/kubernetes-sigs/kind/blob/main/pkg/cluster/internal/kubeadm/config.go (evictionHard: nodefs and imagefs 0%, no memory.available)',
    0,
  ),
  region: 'local',
  zones: ['local'],
  groups: [
    {
      name: 'kind',
      machine: { name: 'docker-4cpu-8gi', cpu: 4, memoryMiB: 8 * 1024, maxPods: 110, diskGiB: 100 },
      minSize: 1,
      maxSize: 1,
      labels: { 'node-role.kubernetes.io/control-plane': '' },
      nodeNames: ['kind-control-plane'],
    },
  ],
  storageClass: storageClass('standard', 'rancher.io/local-path', true, 'WaitForFirstConsumer'),
};

/** k3d's default cluster: one k3s server node; StorageClass local-path, the default. */
export const K3D_PROFILE: ClusterProfile = {
  name: 'k3d',
  title: 'k3d: one k3s server node, k3d-k3s-default-server-0, on a Docker host of 4 cpus and 8 GiB',
  formula: localFormula(
    'k3d (k3s)',
    'https://github.com/k3s-io/k3s/blob/master/pkg/daemons/agent/agent_linux.go (eviction-hard imagefs.available<5%,nodefs.available<5%)',
    5,
  ),
  region: 'local',
  zones: ['local'],
  groups: [
    {
      name: 'k3d',
      machine: { name: 'docker-4cpu-8gi', cpu: 4, memoryMiB: 8 * 1024, maxPods: 110, diskGiB: 100 },
      minSize: 1,
      maxSize: 1,
      labels: { 'node-role.kubernetes.io/control-plane': 'true', 'node-role.kubernetes.io/master': 'true' },
      nodeNames: ['k3d-k3s-default-server-0'],
    },
  ],
  storageClass: storageClass('local-path', 'rancher.io/local-path', true, 'WaitForFirstConsumer'),
};

/** minikube's default cluster: node minikube; StorageClass standard (its hostpath provisioner), the default. */
export const MINIKUBE_PROFILE: ClusterProfile = {
  name: 'minikube',
  title: 'minikube: one node, minikube, of 2 cpus and 4000 MiB (minikube start on a 16 GiB host)',
  formula: localFormula(
    'minikube',
    'https://github.com/kubernetes/minikube/blob/master/pkg/minikube/bootstrapper/bsutil/ktmpl/v1beta4.go (evictionHard: nodefs and imagefs 0%, no memory.available)',
    0,
  ),
  region: 'local',
  zones: ['local'],
  groups: [
    {
      name: 'minikube',
      machine: { name: 'minikube-2cpu-4000mi', cpu: 2, memoryMiB: 4000, maxPods: 110, diskGiB: 20 },
      minSize: 1,
      maxSize: 1,
      labels: { 'node-role.kubernetes.io/control-plane': '', 'minikube.k8s.io/primary': 'true' },
      nodeNames: ['minikube'],
    },
  ],
  storageClass: storageClass('standard', 'k8s.io/minikube-hostpath', true, 'Immediate'),
};
