/**
 * Profiles of the three major managed clouds: each a general pool of 4-vCPU, 16 GiB machines (3 to 10 nodes, as a
 * small production cluster starts in three zones) and a pool of 16-vCPU, 64 GiB machines the cluster autoscaler
 * adds from none (0 to 5), with the machine types, labels and default StorageClass the provider gives them.
 * Allocatable: allocatable.ts, after each provider's published formula.
 */
import type { ClusterProfile, ProfileNodeGroup } from './cluster-profile';
import { AKS_FORMULA, EKS_FORMULA, GKE_FORMULA } from './allocatable';
import type { MachineType } from './allocatable';

/** The sizes of the general pool and of the large pool. */
const GENERAL_SIZES = { minSize: 3, maxSize: 10 } as const;
const LARGE_SIZES = { minSize: 0, maxSize: 5 } as const;

/** A pool of a machine type, labelled with the provider's pool label and the instance type. */
function pool(
  name: string,
  machine: MachineType,
  sizes: { minSize: number; maxSize: number },
  poolLabels: Readonly<Record<string, string>>,
): ProfileNodeGroup {
  return {
    name,
    machine,
    ...sizes,
    labels: { ...poolLabels, 'node.kubernetes.io/instance-type': machine.name },
  };
}

/**
 * GKE Standard: e2-standard-4 and e2-standard-16 (https://cloud.google.com/compute/docs/general-purpose-machines),
 * 110 pods per node (GKE's default maximum), a 100 GB boot disk; StorageClass standard-rwo (Persistent Disk CSI,
 * WaitForFirstConsumer), the default.
 */
export const GKE_PROFILE: ClusterProfile = {
  name: 'gke',
  title: 'GKE Standard: pool e2-standard-4 (3–10 nodes) and pool e2-standard-16 (0–5), us-central1',
  formula: GKE_FORMULA,
  region: 'us-central1',
  zones: ['us-central1-a', 'us-central1-b', 'us-central1-c'],
  groups: [
    pool(
      'default-pool',
      { name: 'e2-standard-4', cpu: 4, memoryMiB: 16 * 1024, maxPods: 110, diskGiB: 100 },
      GENERAL_SIZES,
      { 'cloud.google.com/gke-nodepool': 'default-pool', 'cloud.google.com/machine-family': 'e2' },
    ),
    pool(
      'large-pool',
      { name: 'e2-standard-16', cpu: 16, memoryMiB: 64 * 1024, maxPods: 110, diskGiB: 100 },
      LARGE_SIZES,
      { 'cloud.google.com/gke-nodepool': 'large-pool', 'cloud.google.com/machine-family': 'e2' },
    ),
  ],
  storageClass: storageClass('standard-rwo', 'pd.csi.storage.gke.io', true, 'WaitForFirstConsumer'),
};

/**
 * EKS managed node groups on Amazon Linux 2023: m5.xlarge (4 vCPU, 16 GiB, 58 pods) and m5.4xlarge (16 vCPU,
 * 64 GiB, 234 pods; eni-max-pods.txt), a 20 GiB disk (the managed node group's default). StorageClass gp2 (EBS),
 * which EKS no longer marks default from Kubernetes 1.30: a claim without a class stays Pending, as on a new EKS
 * cluster without a default class of your own.
 */
export const EKS_PROFILE: ClusterProfile = {
  name: 'eks',
  title: 'EKS managed node groups: m5.xlarge (3–10 nodes) and m5.4xlarge (0–5), us-east-1',
  formula: EKS_FORMULA,
  region: 'us-east-1',
  zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'],
  groups: [
    pool(
      'general',
      { name: 'm5.xlarge', cpu: 4, memoryMiB: 16 * 1024, maxPods: 58, diskGiB: 20 },
      GENERAL_SIZES,
      { 'eks.amazonaws.com/nodegroup': 'general', 'eks.amazonaws.com/capacityType': 'ON_DEMAND' },
    ),
    pool(
      'large',
      { name: 'm5.4xlarge', cpu: 16, memoryMiB: 64 * 1024, maxPods: 234, diskGiB: 20 },
      LARGE_SIZES,
      { 'eks.amazonaws.com/nodegroup': 'large', 'eks.amazonaws.com/capacityType': 'ON_DEMAND' },
    ),
  ],
  storageClass: storageClass('gp2', 'kubernetes.io/aws-ebs', false, 'WaitForFirstConsumer'),
};

/**
 * AKS with Azure CNI Overlay (250 pods per node, its default maximum): Standard_D4s_v5 (4 vCPU, 16 GiB) and
 * Standard_D16s_v5 (16 vCPU, 64 GiB), a 128 GB OS disk; StorageClass managed-csi (Azure Disk CSI), the default.
 */
export const AKS_PROFILE: ClusterProfile = {
  name: 'aks',
  title: 'AKS node pools: Standard_D4s_v5 (3–10 nodes) and Standard_D16s_v5 (0–5), eastus',
  formula: AKS_FORMULA,
  region: 'eastus',
  zones: ['eastus-1', 'eastus-2', 'eastus-3'],
  groups: [
    pool(
      'nodepool1',
      { name: 'Standard_D4s_v5', cpu: 4, memoryMiB: 16 * 1024, maxPods: 250, diskGiB: 128 },
      GENERAL_SIZES,
      { 'kubernetes.azure.com/agentpool': 'nodepool1', agentpool: 'nodepool1' },
    ),
    pool(
      'largepool',
      { name: 'Standard_D16s_v5', cpu: 16, memoryMiB: 64 * 1024, maxPods: 250, diskGiB: 128 },
      LARGE_SIZES,
      { 'kubernetes.azure.com/agentpool': 'largepool', agentpool: 'largepool' },
    ),
  ],
  storageClass: storageClass('managed-csi', 'disk.csi.azure.com', true, 'WaitForFirstConsumer'),
};

/** A StorageClass as the provider installs it. */
export function storageClass(
  name: string,
  provisioner: string,
  isDefault: boolean,
  volumeBindingMode: 'WaitForFirstConsumer' | 'Immediate',
): Readonly<Record<string, unknown>> {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name,
      ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}),
    },
    provisioner,
    reclaimPolicy: 'Delete',
    volumeBindingMode,
    allowVolumeExpansion: true,
  };
}
