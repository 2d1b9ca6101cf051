/**
 * Taints and tolerations, matched as component-helpers/scheduling/corev1 does (Toleration.ToleratesTaint,
 * TolerationsTolerateTaint, FindMatchingUntoleratedTaint).
 * https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/component-helpers/scheduling/corev1/helpers.go
 * https://github.com/kubernetes/api/blob/master/core/v1/toleration.go
 * Left out: the alpha numeric comparison operators for tolerations (Gt/Lt, TaintTolerationComparisonOperators,
 * off by default up to 1.35); a toleration with such an operator tolerates nothing, as with the gate off.
 */
import type { TaintObject, TolerationObject } from './objects';

/** The taint whose toleration also lets a pod onto a node with spec.unschedulable (NodeUnschedulable). */
export const TAINT_NODE_UNSCHEDULABLE: TaintObject = {
  key: 'node.kubernetes.io/unschedulable',
  effect: 'NoSchedule',
};

/**
 * Whether one toleration tolerates one taint: the effect matches (or the toleration names none), the key matches
 * (or the toleration names none), and with operator Equal (or none) the values are equal; Exists ignores values.
 */
export function toleratesTaint(toleration: TolerationObject, taint: TaintObject): boolean {
  if (toleration.effect !== undefined && toleration.effect !== '' && toleration.effect !== taint.effect) {
    return false;
  }
  if (toleration.key !== undefined && toleration.key !== '' && toleration.key !== taint.key) {
    return false;
  }
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Whether any of the tolerations tolerates the taint. */
export function tolerationsTolerateTaint(
  tolerations: readonly TolerationObject[],
  taint: TaintObject,
): boolean {
  return tolerations.some((toleration) => toleratesTaint(toleration, taint));
}

/** Whether a taint stops scheduling: NoSchedule or NoExecute (DoNotScheduleTaintsFilterFunc). */
export function isDoNotScheduleTaint(taint: TaintObject): boolean {
  return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}

/** The first taint (in node order) that passes `filter` and that no toleration tolerates, if any. */
export function findMatchingUntoleratedTaint(
  taints: readonly TaintObject[],
  tolerations: readonly TolerationObject[],
  filter: (taint: TaintObject) => boolean,
): TaintObject | undefined {
  return taints.find((taint) => filter(taint) && !tolerationsTolerateTaint(tolerations, taint));
}
