/**
 * What the expanders of the different kinds share during one expansion.
 */
import type { AutoscalerIndex } from './autoscalers';
import type { NameAllocator } from './names';
import type { ExpandedPod } from './types';
import type { Workload } from './workload';

/** Shared state of one expansion. */
export interface ExpandContext {
  readonly names: NameAllocator;
  readonly autoscalers: AutoscalerIndex;
  /** The cluster's Node objects, in order. */
  readonly nodes: readonly unknown[];
  /** Pods created so far, in order. */
  readonly pods: ExpandedPod[];
  /** The most pods one expansion creates (see ExpandOptions.maxPods). */
  readonly maxPods: number;
}

/** Thrown by addPod when the expansion would create more than maxPods pods; expandWorkloads catches it. */
export class PodLimitReached extends Error {
  constructor(readonly maxPods: number) {
    super(`more than ${maxPods} pods`);
  }
}

/** Adds a created pod, or stops the expansion when that would make more than maxPods. */
export function addPod(context: ExpandContext, pod: ExpandedPod): void {
  if (context.pods.length >= context.maxPods) {
    throw new PodLimitReached(context.maxPods);
  }
  context.pods.push(pod);
}

/** Turns one workload of a given kind into pods (pushed to context.pods); problems go to workload.findings. */
export type WorkloadExpander = (workload: Workload, context: ExpandContext) => void;
