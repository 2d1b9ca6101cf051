/**
 * A node's allocatable resources as each provider computes them from the machine's capacity (the kubelet's Node
 * Allocatable: capacity − kube-reserved − system-reserved − the hard eviction threshold; the scheduler only sees
 * allocatable). Each formula follows the provider's published text and the source it names:
 *
 * - GKE: https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes#memory_and_cpu_reservations
 *   memory: 255 MiB below 1 GiB, else 25% of the first 4 GiB, 20% of the next 4, 10% of the next 8, 6% of the
 *   next 112 and 2% above 128 GiB; cpu: 6% of the first core, 1% of the second, 0.5% of the next two, 0.25%
 *   above four; eviction threshold memory.available 100 MiB. (A 4-cpu node shows cpu 3920m there.)
 * - EKS: awslabs/amazon-eks-ami nodeadm/internal/kubelet/config.go (withDefaultReservedResources): kube-reserved
 *   memory 11 MiB × max pods + 255 MiB, cpu the GKE ranges in integer millicores (getCPUMillicoresToReserve),
 *   evictionHard memory.available 100Mi, nodefs.available 10%; max pods from the instance type's ENIs
 *   (eni-max-pods.txt: ENIs × (IPv4 addresses per ENI − 1) + 2; m5.xlarge 58).
 * - AKS: https://learn.microsoft.com/azure/aks/node-resource-reservations (AKS 1.29 and later): kube-reserved
 *   cpu by core count (1: 60m, 2: 100m, 4: 140m, 8: 180m, 16: 260m, 32: 420m, 64: 740m), memory the lesser of
 *   20 MB × max pods + 50 MB and 25% of the machine's memory, eviction memory.available 100 Mi (MB read as MiB).
 * - kind, k3d (k3s) and minikube reserve nothing and set a hard eviction threshold without memory.available;
 *   the kubelet then keeps no memory threshold (MergeDefaultEvictionSettings is false by default,
 *   pkg/kubelet/apis/config/v1beta1/defaults.go), so allocatable cpu and memory are the capacity:
 *   kind's kubeadm config (kubernetes-sigs/kind pkg/cluster/internal/kubeadm/config.go: evictionHard nodefs,
 *   imagefs 0%), k3s (k3s-io/k3s pkg/daemons/agent: eviction-hard imagefs.available<5%,nodefs.available<5%),
 *   minikube's kubeadm template (evictionHard nodefs, imagefs 0%).
 *
 * Capacity here is the machine type's nominal memory; a real node reports a little less (what the kernel keeps),
 * so a real node's allocatable memory is lower by that (about 1–2%). Ephemeral storage: the boot disk less the
 * nodefs.available eviction threshold; GKE's own ephemeral-storage reservation is left out.
 */

/** A machine type: what the kubelet reads as capacity, and how many pods it may run. */
export interface MachineType {
  /** The provider's name ("e2-standard-4"). */
  readonly name: string;
  readonly cpu: number;
  readonly memoryMiB: number;
  readonly maxPods: number;
  /** The boot disk, for ephemeral-storage. */
  readonly diskGiB: number;
}

/** What a formula reserves on a machine. */
export interface Reservation {
  /** kube-reserved plus system-reserved cpu, in millicores. */
  readonly cpuMilli: number;
  /** kube-reserved plus system-reserved memory, in MiB. */
  readonly memoryMiB: number;
  /** The hard eviction threshold memory.available, in MiB. */
  readonly evictionMiB: number;
  /** The nodefs.available eviction threshold, in percent of the disk. */
  readonly nodefsPercent: number;
}

/** A provider's allocatable formula. */
export interface AllocatableFormula {
  /** Who computes it this way ("GKE"). */
  readonly provider: string;
  /** The published text or source it follows. */
  readonly source: string;
  /** The formula in one line, for `foresight profiles`. */
  readonly summary: string;
  reserve(machine: MachineType): Reservation;
}

/** Allocatable cpu (millicores), memory (KiB), pods and ephemeral storage (KiB) of a machine under a formula. */
export interface Allocatable {
  readonly cpuMilli: number;
  readonly memoryKiB: number;
  readonly pods: number;
  readonly ephemeralKiB: number;
}

/** Computes a machine's allocatable under a formula. */
export function allocatableOf(machine: MachineType, formula: AllocatableFormula): Allocatable {
  const reserved = formula.reserve(machine);
  const disk = machine.diskGiB * 1024 * 1024;
  return {
    cpuMilli: machine.cpu * 1000 - reserved.cpuMilli,
    memoryKiB: Math.floor((machine.memoryMiB - reserved.memoryMiB - reserved.evictionMiB) * 1024),
    pods: machine.maxPods,
    ephemeralKiB: Math.floor((disk * (100 - reserved.nodefsPercent)) / 100),
  };
}

/** The cpu ranges GKE publishes and EKS's nodeadm copies: [up to millicores, hundredths of a percent]. */
const CPU_RANGES: readonly (readonly [number, number])[] = [
  [1000, 600],
  [2000, 100],
  [4000, 50],
  [Number.POSITIVE_INFINITY, 25],
];

/** The cpu GKE and EKS reserve, in millicores: each range's share, as nodeadm computes it (integer division). */
export function rangedCpuReservation(cpuMilli: number): number {
  let start = 0;
  let reserved = 0;
  for (const [end, hundredthsOfPercent] of CPU_RANGES) {
    if (cpuMilli > start) {
      reserved += Math.floor(((Math.min(cpuMilli, end) - start) * hundredthsOfPercent) / 10000);
    }
    start = end;
  }
  return reserved;
}

/** GKE's memory ranges: [up to MiB, percent]. */
const GKE_MEMORY_RANGES: readonly (readonly [number, number])[] = [
  [4 * 1024, 25],
  [8 * 1024, 20],
  [16 * 1024, 10],
  [128 * 1024, 6],
  [Number.POSITIVE_INFINITY, 2],
];

/** The memory GKE reserves, in MiB. */
export function gkeMemoryReservation(memoryMiB: number): number {
  if (memoryMiB < 1024) {
    return 255;
  }
  let start = 0;
  let reserved = 0;
  for (const [end, percent] of GKE_MEMORY_RANGES) {
    if (memoryMiB > start) {
      reserved += ((Math.min(memoryMiB, end) - start) * percent) / 100;
    }
    start = end;
  }
  return reserved;
}

/** GKE Standard node pools. */
export const GKE_FORMULA: AllocatableFormula = {
  provider: 'GKE',
  source:
    'https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes#memory_and_cpu_reservations',
  summary:
    'memory: 25% of the first 4 GiB, 20% of the next 4, 10% of the next 8, 6% to 128 GiB, 2% above (255 MiB below 1 GiB), plus 100 MiB eviction; cpu: 6% of the first core, 1% of the second, 0.5% of the next two, 0.25% above',
  reserve: (machine) => ({
    cpuMilli: rangedCpuReservation(machine.cpu * 1000),
    memoryMiB: gkeMemoryReservation(machine.memoryMiB),
    evictionMiB: 100,
    nodefsPercent: 10,
  }),
};

/** The memory EKS's nodeadm reserves for the kubelet, in MiB (GetMemoryMebibytesToReserve). */
export function eksMemoryReservation(maxPods: number): number {
  return 11 * maxPods + 255;
}

/** EKS managed node groups (Amazon Linux 2023, nodeadm). */
export const EKS_FORMULA: AllocatableFormula = {
  provider: 'EKS',
  source:
    'https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/internal/kubelet/config.go (withDefaultReservedResources)',
  summary:
    'memory: 11 MiB × max pods + 255 MiB, plus 100 MiB eviction; cpu: the GKE ranges (6% of the first core, 1%, 0.5% of the next two, 0.25% above); max pods from the ENIs',
  reserve: (machine) => ({
    cpuMilli: rangedCpuReservation(machine.cpu * 1000),
    memoryMiB: eksMemoryReservation(machine.maxPods),
    evictionMiB: 100,
    nodefsPercent: 10,
  }),
};

/** AKS's published cpu reservations by core count (millicores). */
const AKS_CPU_RESERVED: ReadonlyMap<number, number> = new Map([
  [1, 60],
  [2, 100],
  [4, 140],
  [8, 180],
  [16, 260],
  [32, 420],
  [64, 740],
]);

/** The cpu AKS reserves for a core count of its table, in millicores (undefined for another count). */
export function aksCpuReservation(cores: number): number | undefined {
  return AKS_CPU_RESERVED.get(cores);
}

/** The cpu AKS reserves for a profiled machine: only machines of the published table are profiled. */
function requireAksCpuReservation(machine: MachineType): number {
  const reserved = aksCpuReservation(machine.cpu);
  if (reserved === undefined) {
    throw new Error(
      `AKS publishes no cpu reservation for ${machine.cpu} cores (machine type ${machine.name})`,
    );
  }
  return reserved;
}

/** The memory AKS 1.29+ reserves, in the unit of `memory`: the lesser of 20 × max pods + 50 and 25% of memory. */
export function aksMemoryReservation(memory: number, maxPods: number): number {
  return Math.min(20 * maxPods + 50, memory * 0.25);
}

/** AKS node pools, Kubernetes 1.29 and later. */
export const AKS_FORMULA: AllocatableFormula = {
  provider: 'AKS',
  source: 'https://learn.microsoft.com/azure/aks/node-resource-reservations',
  summary:
    'memory: the lesser of 20 MiB × max pods + 50 MiB and 25% of the memory, plus 100 MiB eviction; cpu by cores: 1: 60m, 2: 100m, 4: 140m, 8: 180m, 16: 260m, 32: 420m, 64: 740m',
  reserve: (machine) => ({
    cpuMilli: requireAksCpuReservation(machine),
    memoryMiB: aksMemoryReservation(machine.memoryMiB, machine.maxPods),
    evictionMiB: 100,
    nodefsPercent: 10,
  }),
};

/** kind, k3d (k3s) and minikube: nothing reserved, no memory eviction threshold. */
export function localFormula(provider: string, source: string, nodefsPercent: number): AllocatableFormula {
  return {
    provider,
    source,
    summary:
      'nothing reserved and no memory.available eviction threshold: allocatable cpu and memory are the capacity',
    reserve: () => ({ cpuMilli: 0, memoryMiB: 0, evictionMiB: 0, nodefsPercent }),
  };
}
