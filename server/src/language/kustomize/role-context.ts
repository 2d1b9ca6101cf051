/**
 * The analysis context of a file that a kustomization names: the shared context plus the file's role. Derived
 * contexts are kept per shared context and role, so that a file analysed again with the same role gets the same
 * context (the host compares contexts by identity) and the analyzer's cache key changes only with the role.
 */
import type { AnalysisContext } from '../analyzer';
import type { TextFinding } from '../findings';
import type { KustomizeRole } from './kustomization';

const derived = new WeakMap<AnalysisContext, Map<string, AnalysisContext>>();

/** The context to analyse a file with, given the role kustomize gives it (none: the shared context). */
export function withKustomizeRole(
  context: AnalysisContext,
  role: KustomizeRole | undefined,
): AnalysisContext {
  if (role === undefined || (role.kind === 'resource' && !role.selectorSupplied)) {
    return context;
  }
  const roleKey = `${role.kind}${role.selectorSupplied ? '+selector' : ''}`;
  let byRole = derived.get(context);
  if (byRole === undefined) {
    byRole = new Map();
    derived.set(context, byRole);
  }
  let result = byRole.get(roleKey);
  if (result === undefined) {
    result = { ...context, key: `${context.key}|kustomize:${roleKey}`, kustomizeRole: role };
    byRole.set(roleKey, result);
  }
  return result;
}

/**
 * Findings of the predictions on a file less those about fields its kustomization supplies: a base's workload
 * simulated as written has no selector until kustomize adds it. Filtered by code, as the schema's are by path.
 */
export function withoutSuppliedFieldFindings(
  findings: readonly TextFinding[],
  role: KustomizeRole | undefined,
): readonly TextFinding[] {
  return role?.selectorSupplied === true
    ? findings.filter((finding) => finding.code !== 'workload-missing-selector')
    : findings;
}
