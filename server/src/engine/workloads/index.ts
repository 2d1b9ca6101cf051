/**
 * Workloads → pods: the public surface of this folder (see README.md).
 */
export { expandWorkloads, EXPANDED_KINDS } from './expand';
export type { ExpandOptions, ExpandedPod, ExpansionResult, WorkloadInput, WorkloadOwner } from './types';
export { CRONJOB_PLACEHOLDER_TIME } from './job';
export { nodeShouldRunDaemonPod } from './node-eligibility';
