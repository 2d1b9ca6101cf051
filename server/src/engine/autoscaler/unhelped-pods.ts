/**
 * FilterOutSchedulable of cluster-autoscaler's RunOnce: of the pods the scheduler marked unschedulable, those that
 * neither an existing node nor an upcoming one would take, tried in order on a snapshot where each pod that fits
 * is placed (a later pod sees it). A pod that fits nowhere changes nothing, so the next pods of its class
 * (../scheduler/equivalence-cache.ts) fit nowhere either until a pod is placed; and a scan whose inputs are those
 * of the last scan (scan-inputs.ts) gets the last answer. Without the equivalence cache, everything is computed.
 * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/core/podlistprocessor/filter_out_schedulable.go
 */
import type { SimPod } from '../apiserver/sim-pod';
import { EquivalenceCache } from '../scheduler/equivalence-cache';
import { ScanInputKeys } from './scan-inputs';
import type { SchedulingSnapshot, SnapshotSetup } from './scheduling-snapshot';

/** What a scan reads, as scan-inputs.ts keys it. */
type ScanInputs = Parameters<ScanInputKeys['keyOf']>[0];

/** The unhelped pods of each scan, remembered for the next. */
export class UnhelpedPods {
  private readonly failures: EquivalenceCache<true> | null;
  private readonly inputKeys: ScanInputKeys | null;
  private last: { readonly key: string | null; readonly pending: readonly SimPod[] } | null = null;
  private scans = 0;

  constructor(setup: SnapshotSetup) {
    const equivalence = EquivalenceCache.settingsFor(setup);
    this.failures =
      equivalence === null ? null : new EquivalenceCache(equivalence.labelsAlwaysRead, equivalence.podKeys);
    this.inputKeys = equivalence === null ? null : new ScanInputKeys();
  }

  /**
   * The waiting pods (in the scan's order) no node would take, and the key of the scan's inputs (null when they
   * cannot be named, or the cache is off). `inputs` and `fork` are asked only when needed.
   */
  find(
    waiting: readonly SimPod[],
    inputs: () => ScanInputs,
    fork: () => SchedulingSnapshot,
  ): { readonly pending: readonly SimPod[]; readonly key: string | null } {
    if (waiting.length === 0) {
      return { pending: [], key: null };
    }
    const key = this.inputKeys === null ? null : this.inputKeys.keyOf(inputs());
    if (key !== null && this.last?.key === key) {
      // The very list of the last scan (read-only for every caller), not a copy of its hundreds of pods.
      return { pending: this.last.pending, key };
    }
    const pending = this.filterOut(waiting, fork());
    this.last = { key, pending };
    return { pending, key };
  }

  private filterOut(waiting: readonly SimPod[], snapshot: SchedulingSnapshot): SimPod[] {
    const failures = this.failures;
    const scan = ++this.scans;
    let placed = 0;
    // The cache's generation changes only when a pod is placed: named once per placement, not once per pod.
    let generation = `${scan}/${placed}`;
    return waiting.filter((pod) => {
      if (failures?.lookup(pod.info, generation, snapshot.nodeInfos()) === true) {
        return true;
      }
      const fit = snapshot.firstFit(pod.info);
      if (fit === null) {
        failures?.store(pod.info, generation, snapshot.nodeInfos(), true);
        return true;
      }
      snapshot.addPod(pod.info, fit);
      placed++;
      generation = `${scan}/${placed}`;
      return false;
    });
  }
}
