/**
 * Reads PodDisruptionBudgets (policy/v1) as the API server validates them: minAvailable or maxUnavailable (not
 * both), each an integer or a percentage up to 100%; an absent selector selects nothing; unhealthyPodEvictionPolicy
 * defaults to IfHealthyBudget.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/policy/validation/validation.go
 */
import type { ObjectSource } from '../../model/source';
import { emptyBudgetStatus } from '../../controllers/disruption/disruption-budget';
import type { IntOrPercent } from '../../model/int-or-percent';
import { parseIntOrPercent } from '../../model/int-or-percent';
import type { SimDisruptionBudget } from '../../apiserver/workload-objects';
import type { JsonObject } from '../../model/json';
import { asObject, readString } from '../../model/json';
import { parseLabelSelector } from '../../workloads/label-selector';
import type { LabelSelector } from '../../workloads/label-selector';
import type { Finding } from '../../../../../protocol/finding';
import { engineFinding } from '../../model/findings';
import { labelSelectorString } from '../../controllers/disruption/disruption-events';

/** A PodDisruptionBudget, or null after an error finding. */
export function readDisruptionBudget(
  object: JsonObject,
  source: ObjectSource,
  findings: Finding[],
): SimDisruptionBudget | null {
  const metadata = asObject(object['metadata']);
  const name = readString(metadata['name']);
  if (name === undefined) {
    return null;
  }
  const namespace = readString(metadata['namespace']) ?? 'default';
  const spec = asObject(object['spec']);
  const label = `PodDisruptionBudget "${name}"`;
  if (spec['minAvailable'] !== undefined && spec['maxUnavailable'] !== undefined) {
    findings.push(
      engineFinding(
        'pdb-invalid',
        source,
        ['spec'],
        `${label}: spec: Invalid value: minAvailable and maxUnavailable cannot be both set`,
      ),
    );
    return null;
  }
  const minAvailable = readBudgetValue(
    spec['minAvailable'],
    source,
    ['spec', 'minAvailable'],
    label,
    findings,
  );
  const maxUnavailable = readBudgetValue(
    spec['maxUnavailable'],
    source,
    ['spec', 'maxUnavailable'],
    label,
    findings,
  );
  if (minAvailable === null || maxUnavailable === null) {
    return null;
  }
  let selector: LabelSelector | null = null;
  if (spec['selector'] !== undefined && spec['selector'] !== null) {
    const parsed = parseLabelSelector(spec['selector']);
    if (!parsed.ok) {
      findings.push(
        engineFinding(
          'pdb-invalid',
          source,
          ['spec', 'selector', ...parsed.path],
          `${label}: ${parsed.message}`,
        ),
      );
      return null;
    }
    selector = parsed.selector;
  }
  return {
    key: `${namespace}/${name}`,
    namespace,
    name,
    source,
    selector,
    selectorText: labelSelectorString(spec['selector']),
    minAvailable,
    maxUnavailable,
    unhealthyPodEvictionPolicy:
      spec['unhealthyPodEvictionPolicy'] === 'AlwaysAllow' ? 'AlwaysAllow' : 'IfHealthyBudget',
    status: emptyBudgetStatus(),
    allowedChanges: [],
  };
}

function readBudgetValue(
  value: unknown,
  source: ObjectSource,
  path: readonly string[],
  label: string,
  findings: Finding[],
): IntOrPercent | undefined | null {
  if (value === undefined || value === null) {
    return undefined;
  }
  const parsed = parseIntOrPercent(value);
  if (!parsed.ok) {
    findings.push(
      engineFinding('pdb-invalid', source, path, `${label}: ${path.join('.')} ${parsed.message}`),
    );
    return null;
  }
  if (parsed.value.kind === 'percent' && parsed.value.value > 100) {
    findings.push(
      engineFinding('pdb-invalid', source, path, `${label}: ${path.join('.')} must not be greater than 100%`),
    );
    return null;
  }
  return parsed.value;
}
