/**
 * The plan of an apply (`foresight plan`, schemas/plan.schema.json): what `kubectl apply` changes on the captured
 * cluster, object by object, then what follows over simulated time, and a one-line verdict. Plain, stable JSON:
 * every list is in input order or sorted, so a plan re-run on the same input is the same text. In protocol/: the
 * CLI prints it, the language server answers it to the editor's Preview Apply panel (PLAN_REQUEST), the panel shows it.
 */

/** One changed field: its path (`spec.template.spec.containers[0].image`), old and new values as short text. */
export interface FieldChange {
  readonly path: string;
  /** The live value, or null when the field is new. */
  readonly old: string | null;
  /** The applied value, or null when the apply removes the field. */
  readonly new: string | null;
}

/** What the apply does to one object of the input. */
export type PlanAction = 'created' | 'configured' | 'unchanged';

/** One object of the input. */
export interface PlanObject {
  readonly kind: string;
  readonly namespace: string | null;
  readonly name: string;
  readonly action: PlanAction;
  /** The file it is read from, and its line (1-based), when known. */
  readonly file: string;
  readonly line: number | null;
  /** The fields that change (configured objects only). */
  readonly changes: readonly FieldChange[];
  /** Why the action is not certain (a kind the cluster file holds none of), or null. */
  readonly note: string | null;
}

/** A workload's rollout and what it costs. */
export interface PlanRollout {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly strategy: string;
  readonly replicas: number;
  /** Whether the workload is new (its pods are created, none replaced). */
  readonly isNew: boolean;
  readonly podsReplaced: number;
  /** The waves of new pods (the times the new revision grows). */
  readonly waves: number;
  readonly startedAt: number;
  /** Seconds from its start to its completion, or null when it never completes (its outcome and message say why). */
  readonly duration: number | null;
  readonly outcome: string;
  /** The most of the desired replicas not available at once. */
  readonly peakUnavailable: number;
  /** The budgets over its pods and the fewest disruptions each allowed during the rollout. */
  readonly budgets: readonly { readonly name: string; readonly minDisruptionsAllowed: number }[];
  readonly message: string;
}

/** Something that fails or needs a look, with its finding and place. */
export interface PlanProblem {
  /** failure: an error or predicted failure (--fail-on prediction); warning; note: an outcome that is no failure. */
  readonly severity: 'failure' | 'warning' | 'note';
  readonly code: string;
  readonly message: string;
  readonly file: string | null;
  readonly line: number | null;
  /** Whether the cluster already has it without the apply (a finding of the plan without the input). */
  readonly isPreexisting: boolean;
}

/** Requested resources of one node group or zone, before and after. */
export interface PlanCapacityGroup {
  readonly group: string;
  readonly nodesBefore: number;
  readonly nodesAfter: number;
  readonly cpuBefore: string;
  readonly cpuAfter: string;
  readonly cpuAllocatable: string;
  readonly memoryBefore: string;
  readonly memoryAfter: string;
  readonly memoryAllocatable: string;
}

/** Capacity before and after the apply. */
export interface PlanCapacity {
  readonly groups: readonly PlanCapacityGroup[];
  readonly nodesAdded: readonly { readonly node: string; readonly group: string; readonly readyAt: number }[];
  readonly nodesRemoved: readonly { readonly node: string; readonly group: string; readonly time: number }[];
  /** Pods of the cluster that end on another node, or on none. */
  readonly podsMoved: readonly { readonly pod: string; readonly from: string; readonly to: string | null }[];
}

/** The one-line verdict. */
export interface PlanVerdict {
  readonly outcome: 'safe' | 'needs attention' | 'will fail';
  readonly failures: number;
  readonly warnings: number;
  readonly created: number;
  readonly configured: number;
  readonly unchanged: number;
  readonly leftAlone: number;
  readonly rollouts: number;
  readonly summary: string;
}

/** The whole plan. */
export interface Plan {
  readonly apiVersion: 'foresight/v1';
  readonly kind: 'Plan';
  readonly kubernetesVersion: string;
  readonly cluster: { readonly source: string; readonly kind: string; readonly nodes: number };
  readonly verdict: PlanVerdict;
  readonly objects: readonly PlanObject[];
  /** Objects of the cluster file not in the input ("Kind namespace/name"), sorted: the apply leaves them. */
  readonly leftAlone: readonly string[];
  readonly rollouts: readonly PlanRollout[];
  readonly problems: readonly PlanProblem[];
  readonly capacity: PlanCapacity;
  /** What the plan cannot know, in sentences. */
  readonly scope: readonly string[];
  /** When the timeline ends and whether the cluster settled by then. */
  readonly timeline: { readonly endTime: number; readonly settled: boolean };
}
