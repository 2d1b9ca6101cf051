/**
 * PodSecurity (staging/src/k8s.io/pod-security-admission, v0.35): a pod in a namespace whose enforce label is
 * baseline or restricted is refused when a check of that level and version fails, with the checks' reasons and
 * details in the registry's order: `violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false
 * (container "web" must set securityContext.allowPrivilegeEscalation=false), …`. Every check of the policy
 * package and each of its versions is modelled (baseline-checks.ts, restricted-checks.ts, profile-checks.ts,
 * check-registry.ts). The warnings of the apply itself (warn mode for Pods; the warn policy, which follows a
 * stricter enforce, for workload templates) are made at apply by admit-manifests.ts with podSecurityWarning.
 * Left out (admission/README.md): audit (its verdict goes to the audit log only) and the exemptions of an
 * AdmissionConfiguration (usernames, runtime classes, namespaces), which a capture cannot show.
 */
import { isRecord } from '../../../model/objects';
import { ADMISSION_PLUGIN } from '../../names';
import type { PodAdmissionPlugin } from '../../pod-admission-plugin';
import { asJson, type Json } from './check-helpers';
import { evaluatePod } from './check-registry';
import { namespacePolicy, type LevelVersion } from './namespace-policy';

/** The labels of a namespace the cluster does not list (one object, so that its policy is read once). */
const NO_LABELS: Readonly<Record<string, string>> = {};

/** The failing checks of a pod at a level and version, as the message joins them ("reason (detail), …"), or null. */
export function podSecurityViolations(policy: LevelVersion, metadata: Json, spec: Json): string | null {
  if (policy.level === 'privileged') {
    return null;
  }
  const failures = evaluatePod(policy.level, policy.minor, metadata, spec);
  return failures.length === 0
    ? null
    : failures
        .map((failure) => (failure.detail === '' ? failure.reason : `${failure.reason} (${failure.detail})`))
        .join(', ');
}

/**
 * The API server's warning for an object with a pod spec, or null: a Pod is checked against the warn policy unless
 * enforce refuses it (`isEnforced`: the object is a Pod; the refusal is then its only answer); a workload's
 * template against the warn policy too (EvaluatePodController), so a Deployment in an enforce=restricted namespace
 * without a warn label is warned about at restricted.
 */
export function podSecurityWarning(
  labels: Readonly<Record<string, string>>,
  metadata: Json,
  spec: Json,
  isEnforced: boolean,
): string | null {
  const { enforce, warn: policy } = namespacePolicy(labels);
  // EvaluatePod: "avoid adding warnings to a request we're already going to reject with an error" — a Pod that
  // enforce refuses gets the refusal only. Enforce runs for Pods, never for the objects that make them.
  if (isEnforced && podSecurityViolations(enforce, metadata, spec) !== null) {
    return null;
  }
  const violations = podSecurityViolations(policy, metadata, spec);
  return violations === null ? null : `would violate PodSecurity "${policy.name}": ${violations}`;
}

/** The PodSecurity plugin over the namespaces' labels. */
export function podSecurityPlugin(
  namespaceLabels: ReadonlyMap<string, Readonly<Record<string, string>>>,
): PodAdmissionPlugin {
  // Every pod a controller creates is validated: the enforce policy is read once per namespace and labels object
  // (a rollout of 10,000 pods read the same labels 10,000 times).
  const enforced = new Map<string, { labels: Readonly<Record<string, string>>; policy: LevelVersion }>();
  const enforcePolicy = (namespace: string): LevelVersion => {
    const labels = namespaceLabels.get(namespace) ?? NO_LABELS;
    const known = enforced.get(namespace);
    if (known !== undefined && known.labels === labels) {
      return known.policy;
    }
    const policy = namespacePolicy(labels).enforce;
    enforced.set(namespace, { labels, policy });
    return policy;
  };
  return {
    name: ADMISSION_PLUGIN.PodSecurity,
    validate(pod) {
      const metadata = asJson(pod['metadata']);
      const namespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : 'default';
      const policy = enforcePolicy(namespace);
      const violations = podSecurityViolations(policy, metadata, isRecord(pod['spec']) ? pod['spec'] : {});
      return violations === null
        ? null
        : { reason: `violates PodSecurity "${policy.name}": ${violations}`, path: ['spec'] };
    },
  };
}
