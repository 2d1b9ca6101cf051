/**
 * A Job's podFailurePolicy against a failed pod (matchPodFailurePolicy): the first rule whose exit codes or pod
 * conditions match decides. FailJob fails the Job with a message naming the container and exit code (or the
 * condition), Ignore does not count the failure toward backoffLimit, Count counts it, FailIndex fails the pod's
 * index (backoffLimitPerIndex). A rule with an unknown action or operator is skipped. Containers that exited 0,
 * or have not terminated, never match onExitCodes.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/pod_failure_policy.go
 */

/** What a rule does. */
export type PodFailurePolicyAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

/** A rule as written (action and operator are checked when matching, as the controller does). */
export interface PodFailurePolicyRule {
  readonly action: string;
  readonly onExitCodes?: {
    readonly containerName?: string;
    readonly operator: string;
    readonly values: readonly number[];
  };
  readonly onPodConditions?: readonly { readonly type: string; readonly status: string }[];
}

/** spec.podFailurePolicy. */
export interface PodFailurePolicy {
  readonly rules: readonly PodFailurePolicyRule[];
}

/** A container's state as the policy reads it: its exit code once terminated, else null. */
export interface ContainerExit {
  readonly name: string;
  readonly exitCode: number | null;
}

/** The parts of a failed pod's status the policy reads. */
export interface FailedPodView {
  readonly namespace: string;
  readonly name: string;
  readonly containers: readonly ContainerExit[];
  readonly initContainers: readonly ContainerExit[];
  readonly conditions: readonly { readonly type: string; readonly status: string }[];
}

/** The outcome: the Job's failure message (FailJob), whether the failure counts, the matched action. */
export interface PolicyMatch {
  readonly jobFailureMessage: string | null;
  readonly countFailed: boolean;
  readonly action: PodFailurePolicyAction | null;
}

const NO_MATCH: PolicyMatch = { jobFailureMessage: null, countFailed: true, action: null };

/** matchPodFailurePolicy. */
export function matchPodFailurePolicy(policy: PodFailurePolicy | null, pod: FailedPodView): PolicyMatch {
  if (policy === null) {
    return NO_MATCH;
  }
  for (const [index, rule] of policy.rules.entries()) {
    if (rule.onExitCodes !== undefined) {
      const requirement = rule.onExitCodes;
      const container =
        matchingContainer(pod.containers, requirement) ?? matchingContainer(pod.initContainers, requirement);
      if (container !== undefined) {
        const message = `Container ${container.name} for pod ${pod.namespace}/${pod.name} failed with exit code ${container.exitCode ?? 0} matching FailJob rule at index ${index}`;
        const match = actionMatch(rule.action, message);
        if (match !== null) {
          return match;
        }
      }
    } else if (rule.onPodConditions !== undefined) {
      const patterns = rule.onPodConditions;
      const condition = pod.conditions.find((entry) =>
        patterns.some((pattern) => pattern.type === entry.type && pattern.status === entry.status),
      );
      if (condition !== undefined) {
        const message = `Pod ${pod.namespace}/${pod.name} has condition ${condition.type} matching FailJob rule at index ${index}`;
        const match = actionMatch(rule.action, message);
        if (match !== null) {
          return match;
        }
      }
    }
  }
  return NO_MATCH;
}

function actionMatch(action: string, failJobMessage: string): PolicyMatch | null {
  switch (action) {
    case 'Ignore':
      return { jobFailureMessage: null, countFailed: false, action: 'Ignore' };
    case 'FailIndex':
      return { jobFailureMessage: null, countFailed: true, action: 'FailIndex' };
    case 'Count':
      return { jobFailureMessage: null, countFailed: true, action: 'Count' };
    case 'FailJob':
      return { jobFailureMessage: failJobMessage, countFailed: true, action: 'FailJob' };
    default:
      return null;
  }
}

function matchingContainer(
  containers: readonly ContainerExit[],
  requirement: NonNullable<PodFailurePolicyRule['onExitCodes']>,
): ContainerExit | undefined {
  return containers.find(
    (container) =>
      container.exitCode !== null &&
      container.exitCode !== 0 &&
      (requirement.containerName === undefined || requirement.containerName === container.name) &&
      isOperatorMatching(container.exitCode, requirement.operator, requirement.values),
  );
}

function isOperatorMatching(exitCode: number, operator: string, values: readonly number[]): boolean {
  switch (operator) {
    case 'In':
      return values.includes(exitCode);
    case 'NotIn':
      return !values.includes(exitCode);
    default:
      return false;
  }
}
