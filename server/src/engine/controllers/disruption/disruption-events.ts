/**
 * The disruption controller's events on a PodDisruptionBudget (trySync in pkg/controller/disruption/disruption.go,
 * recorded as "controllermanager"): NoPods "No matching pods found" when the selector matches no pod, UnmanagedPods
 * (Warning) when selected pods have no controller and the budget needs their controllers' scale (maxUnavailable or
 * a percentage), CalculateExpectedPodCountFailed (Warning) when a controller's scale cannot be found. Upstream
 * records them on every sync and aggregates repeats into one event's count; here each is recorded when it starts
 * to hold.
 */
import { EVENT_COMPONENT } from '../../model/kubernetes-events';
import type { ClusterState } from '../../apiserver/cluster-state';
import type { BudgetStatus } from './disruption-budget';
import type { SimDisruptionBudget } from '../../apiserver/workload-objects';

/** Records the events a sync's new status calls for that the previous status did not. */
export function recordBudgetEvents(
  state: ClusterState,
  budget: SimDisruptionBudget,
  previous: BudgetStatus | null,
  status: BudgetStatus,
): void {
  const involvedObject = { kind: 'PodDisruptionBudget', namespace: budget.namespace, name: budget.name };
  const component = EVENT_COMPONENT.disruption;
  if (status.matchedPods === 0 && (previous === null || previous.matchedPods !== 0)) {
    state.recordEvent({ reason: 'NoPods', component, involvedObject }, 'No matching pods found', null);
  }
  if (status.syncError !== null && previous?.syncError !== status.syncError) {
    state.recordEvent(
      { reason: 'CalculateExpectedPodCountFailed', component, warning: true, involvedObject },
      `Failed to calculate the number of expected pods: ${status.syncError}`,
      null,
    );
  }
  if (status.unmanagedPods.length > 0 && (previous === null || previous.unmanagedPods.length === 0)) {
    state.recordEvent(
      { reason: 'UnmanagedPods', component, warning: true, involvedObject },
      unmanagedPodsMessage(budget.selectorText),
      null,
    );
  }
}

/** The UnmanagedPods message, with the selector as Go's %v prints it. */
export function unmanagedPodsMessage(selector: string): string {
  return (
    `Pods selected by this PodDisruptionBudget (selector: ${selector}) were found to be unmanaged. As a result, ` +
    'the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for ' +
    'these pods please set ".spec.minAvailable" field of the PDB to an integer value.'
  );
}

/**
 * A label selector as `%v` prints a *metav1.LabelSelector (its generated String method): matchLabels sorted by key,
 * then matchExpressions in order, each without its leading "&"; "nil" when there is none.
 */
export function labelSelectorString(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return 'nil';
  }
  const selector = raw as Record<string, unknown>;
  const labels = isPlainObject(selector['matchLabels']) ? selector['matchLabels'] : {};
  const labelText = Object.keys(labels)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => `${key}: ${typeof labels[key] === 'string' ? labels[key] : JSON.stringify(labels[key])},`)
    .join('');
  const expressions = Array.isArray(selector['matchExpressions']) ? selector['matchExpressions'] : [];
  const expressionText = expressions
    .map((entry) => {
      const expression = isPlainObject(entry) ? entry : {};
      const values = Array.isArray(expression['values']) ? expression['values'].map(String) : [];
      const key = typeof expression['key'] === 'string' ? expression['key'] : '';
      const operator = typeof expression['operator'] === 'string' ? expression['operator'] : '';
      return `LabelSelectorRequirement{Key:${key},Operator:${operator},Values:[${values.join(' ')}],},`;
    })
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labelText}},MatchExpressions:[]LabelSelectorRequirement{${expressionText}},}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
