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
}

/** Turns one workload of a given kind into pods (pushed to context.pods); problems go to workload.findings. */
export type WorkloadExpander = (workload: Workload, context: ExpandContext) => void;
