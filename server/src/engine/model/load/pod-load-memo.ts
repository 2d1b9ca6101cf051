/**
 * The cluster file's pods loaded once for the two loads of one simulation. simulate() loads the cluster for its
 * own checks (findings, profiles, the pod limit) and the timeline loads it again for its run; a capture of the
 * largest cluster Kubernetes supports holds 150,000 pods, and turning each into a PodInfo twice cost about a
 * second. A second load of the same pod object reuses the first one's PodInfo (a copy: the timeline's run sets
 * nodeName and startTime on its own) and repeats its findings, when the version and the PriorityClasses, the
 * only other inputs of loadPod, are the same. Anything else is loaded afresh, so the result cannot differ.
 */
import type { PriorityClassInfo } from '../snapshot/cluster';
import type { PodInfo } from '../snapshot/pod-info';
import type { ObjectSource } from '../source';
import type { KubernetesMinor } from '../../version';
import { loadPod } from './pod-load';
import type { Finding } from '../../../../../protocol/finding';

/** What one load of a cluster-file pod gave. */
interface LoadedPod {
  readonly source: ObjectSource;
  readonly info: PodInfo | null;
  readonly findings: readonly Finding[];
}

/** What loading a cluster-file pod reads besides the pod (pod-load.ts's context). */
interface MemoContext {
  readonly version: KubernetesMinor;
  readonly priorityClasses: ReadonlyMap<string, PriorityClassInfo>;
  readonly findings: Finding[];
}

/** Pod loads of the cluster file shared by the loads of one simulation. */
export class PodLoadMemo {
  private readonly loaded = new WeakMap<object, LoadedPod>();
  /** The inputs of the first load: a later load with other inputs does not read the memo. */
  private first: { version: KubernetesMinor; classes: ReadonlyMap<string, PriorityClassInfo> } | null = null;
  /** Whether each PriorityClass map a load used resolves priorities as the first load's did. */
  private readonly sameClasses = new WeakMap<ReadonlyMap<string, PriorityClassInfo>, boolean>();

  /**
   * Loads a running pod of the cluster file (loadPod without an owner and without strict priority), or repeats
   * the first load of the same object when the inputs are the same.
   */
  loadClusterPod(
    object: Record<string, unknown>,
    source: ObjectSource,
    context: MemoContext,
  ): PodInfo | null {
    const isReusable = this.isSameInputs(context);
    const earlier = isReusable ? this.loaded.get(object) : undefined;
    if (earlier !== undefined && sameSource(earlier.source, source)) {
      for (const finding of earlier.findings) {
        context.findings.push(finding);
      }
      return earlier.info === null ? null : { ...earlier.info };
    }
    const start = context.findings.length;
    const info = loadPod(object, source, null, context, false);
    if (isReusable) {
      // A pristine copy: the caller's PodInfo is its cluster's, and a run changes its nodeName and startTime.
      this.loaded.set(object, {
        source,
        info: info === null ? null : { ...info },
        findings: context.findings.slice(start),
      });
    }
    return info;
  }

  private isSameInputs(context: MemoContext): boolean {
    if (this.first === null) {
      this.first = { version: context.version, classes: context.priorityClasses };
    }
    if (this.first.version !== context.version) {
      return false;
    }
    let same = this.sameClasses.get(context.priorityClasses);
    if (same === undefined) {
      same = samePriorityClasses(this.first.classes, context.priorityClasses);
      this.sameClasses.set(context.priorityClasses, same);
    }
    return same;
  }
}

/** Whether two sources name the same place (file, document and path). */
function sameSource(a: ObjectSource, b: ObjectSource): boolean {
  if (a === b) {
    return true;
  }
  if (a.file !== b.file || a.documentIndex !== b.documentIndex || a.path.length !== b.path.length) {
    return false;
  }
  for (let i = 0; i < a.path.length; i++) {
    if (a.path[i] !== b.path[i]) {
      return false;
    }
  }
  return true;
}

/**
 * Whether two PriorityClass maps resolve every pod's priority alike: the same classes with the same values, in the
 * same order (the first globalDefault class in map order is the default, priority.ts).
 */
function samePriorityClasses(
  a: ReadonlyMap<string, PriorityClassInfo>,
  b: ReadonlyMap<string, PriorityClassInfo>,
): boolean {
  if (a === b) {
    return true;
  }
  if (a.size !== b.size) {
    return false;
  }
  const others = [...b.values()];
  let index = 0;
  for (const [name, one] of a) {
    const other = others[index++];
    if (
      other === undefined ||
      other.name !== name ||
      other.value !== one.value ||
      other.globalDefault !== one.globalDefault ||
      other.preemptionPolicy !== one.preemptionPolicy
    ) {
      return false;
    }
  }
  return true;
}
