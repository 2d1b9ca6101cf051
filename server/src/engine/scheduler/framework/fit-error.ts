/**
 * FitError: why a pod fits no node, worded exactly as kube-scheduler's FitError.Error():
 *   "0/<N> nodes are available: <PreFilterMsg>. <counted reasons>. <PostFilterMsg>"
 * The counted reasons are "<count> <reason>" over every node's status (a node rejected by a plugin counts each of
 * that plugin's reasons), sorted byte-wise and joined by ", ". When PreFilter rejected the pod, its message
 * replaces the counts. https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/types.go
 */
import type { Status } from './status';

/** Everything known about a failed scheduling attempt (framework.Diagnosis). */
export interface Diagnosis {
  /** Nodes that were evaluated and rejected, with their status, in evaluation order. */
  readonly nodeStatuses: ReadonlyMap<string, Status>;
  /** The status of every node absent from nodeStatuses (PreFilter rejection or narrowing), if any. */
  readonly absentNodesStatus: Status | null;
  /** Plugins that rejected the pod somewhere. */
  readonly unschedulablePlugins: ReadonlySet<string>;
  /** The PreFilter rejection message ('' when PreFilter passed). */
  readonly preFilterMessage: string;
  /** The PostFilter (preemption) message ('' when none ran). */
  readonly postFilterMessage: string;
}

/** A pod that fits no node. */
export interface FitError {
  /** Nodes in the cluster. */
  readonly numAllNodes: number;
  readonly diagnosis: Diagnosis;
}

/** The message kube-scheduler puts in the PodScheduled condition and the FailedScheduling event. */
export function formatFitError(fitError: FitError): string {
  const { diagnosis } = fitError;
  let message = `0/${fitError.numAllNodes} nodes are available:`;
  if (diagnosis.preFilterMessage !== '') {
    message += ` ${diagnosis.preFilterMessage}.`;
  } else {
    const parts = [...countFilterReasons(fitError)].map(([reason, count]) => `${count} ${reason}`);
    parts.sort(compareBytewise);
    if (parts.length > 0) {
      message += ` ${parts.join(', ')}.`;
    }
  }
  if (diagnosis.postFilterMessage !== '') {
    message += ` ${diagnosis.postFilterMessage}`;
  }
  return message;
}

/**
 * How many nodes gave each reason: explicit node statuses, plus the absent-nodes status for every node not
 * evaluated. When PreFilter rejected the pod every node counts its reasons.
 */
export function countFilterReasons(fitError: FitError): Map<string, number> {
  const { diagnosis } = fitError;
  const counts = new Map<string, number>();
  for (const status of diagnosis.nodeStatuses.values()) {
    for (const reason of status.reasons) {
      counts.set(reason.message, (counts.get(reason.message) ?? 0) + 1);
    }
  }
  const absent = fitError.numAllNodes - diagnosis.nodeStatuses.size;
  if (absent > 0 && diagnosis.absentNodesStatus !== null) {
    for (const reason of diagnosis.absentNodesStatus.reasons) {
      counts.set(reason.message, (counts.get(reason.message) ?? 0) + absent);
    }
  }
  return counts;
}

/** Each node's reasons (messages), for nodes in `nodeNames` order; absent nodes get the absent status. */
export function reasonsPerNode(fitError: FitError, nodeNames: readonly string[]): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const name of nodeNames) {
    const status = fitError.diagnosis.nodeStatuses.get(name) ?? fitError.diagnosis.absentNodesStatus;
    if (status !== null) {
      result.set(
        name,
        status.reasons.map((reason) => reason.message),
      );
    }
  }
  return result;
}

/**
 * Compares strings by their UTF-8 bytes, as Go's sort.Strings does. UTF-8 byte order equals code point order,
 * which differs from JavaScript's UTF-16 order only around surrogate pairs.
 */
export function compareBytewise(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) {
      return x < y ? -1 : 1;
    }
    if (x > 0xffff) {
      i++;
    }
  }
  return a.length - b.length;
}
