/**
 * The objects of `kubectl apply` on their way in: each must first be served (api-discovery.ts), else kubectl
 * refuses it; then its namespace must exist (NamespaceLifecycle). What passes is admitted for the cluster; pods
 * are admitted again, one by one, as their controllers create them (admit-pod.ts through
 * controllers/pod-factory.ts). Where the cluster cannot say (the embedded default cluster, a capture without
 * Namespaces or ServiceAccounts), the object is admitted and a finding says what a real cluster may refuse.
 */
import type { SourcedObject } from '../model/cluster-load';
import { isJsonObject, readString, asObject } from '../workloads/json';
import type { ApiServing } from './api-discovery';
import { discoveryRefusal } from './api-discovery';
import type { RejectedObject } from './rejected';
import { rejectedObject } from './rejected';
import { engineFinding } from '../model/findings';
import type { EngineFinding } from '../model/findings';
import { hasServiceAccount } from './known-objects';
import type { KnownObjects } from './known-objects';
import { isNamespaceAssumed, namespaceRefusal } from './plugins/namespace-lifecycle';
import { namespacePolicy, podSecurityViolations } from './plugins/pod-security';

/** The objects admitted, in order, and those refused. */
interface ManifestAdmission {
  readonly admitted: readonly SourcedObject[];
  readonly rejected: readonly RejectedObject[];
  /** What a real cluster may refuse that this one cannot tell (a namespace, a service account it may lack). */
  readonly findings: readonly EngineFinding[];
}

/** Admits the apply's objects (lists already unwrapped). */
export function admitManifests(
  manifests: readonly SourcedObject[],
  serving: ApiServing | undefined,
  known: KnownObjects,
): ManifestAdmission {
  const admitted: SourcedObject[] = [];
  const rejected: RejectedObject[] = [];
  const findings: EngineFinding[] = [];
  const assumed = new Set<string>();
  for (const entry of manifests) {
    const { object, source } = entry;
    if (!isJsonObject(object)) {
      admitted.push(entry);
      continue;
    }
    const metadata = asObject(object['metadata']);
    const identity = {
      apiVersion: readString(object['apiVersion']) ?? '',
      kind: readString(object['kind']) ?? '',
      name: readString(metadata['name']) ?? '',
      namespace: readString(metadata['namespace']),
    };
    const refusal =
      discoveryRefusal(serving, identity, source.file) ??
      (identity.namespace === undefined ? null : namespaceRefusal(known, identity.namespace));
    if (refusal !== null) {
      const field = refusal.stage === 'discovery' ? ['apiVersion'] : ['metadata', 'namespace'];
      rejected.push(rejectedObject(identity, refusal, source, undefined, field));
      continue;
    }
    admitted.push(entry);
    noteAssumptions(object, identity, source, known, assumed, findings);
  }
  return { admitted, rejected, findings };
}

/** Where the pod spec of a kind sits inside the object. */
function podSpecPath(kind: string): readonly string[] | null {
  switch (kind) {
    case 'Pod':
      return ['spec'];
    case 'CronJob':
      return ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
    case 'ReplicationController':
      return ['spec', 'template', 'spec'];
    default:
      return null;
  }
}

/** One finding per namespace, and per service account, that this cluster cannot confirm and a real one may lack. */
function noteAssumptions(
  object: Record<string, unknown>,
  identity: { kind: string; name: string; namespace: string | undefined },
  source: SourcedObject['source'],
  known: KnownObjects,
  assumed: Set<string>,
  findings: EngineFinding[],
): void {
  const namespace = identity.namespace ?? 'default';
  if (isNamespaceAssumed(known, namespace) && !assumed.has(`ns/${namespace}`)) {
    assumed.add(`ns/${namespace}`);
    const message = `Namespace "${namespace}" is neither in the cluster nor in the manifests: a cluster without it refuses ${identity.kind} "${identity.name}" (namespaces "${namespace}" not found); here it is assumed to exist`;
    findings.push(engineFinding('namespace-not-found', source, ['metadata', 'namespace'], message));
  }
  const specPath = podSpecPath(identity.kind);
  if (specPath === null) {
    return;
  }
  notePodSecurity(
    object,
    identity.kind,
    specPath,
    known.namespaceLabels.get(namespace) ?? {},
    source,
    findings,
  );
  if (known.serviceAccountsListed) {
    return;
  }
  let spec: unknown = object;
  for (const key of specPath) {
    spec = asObject(spec)[key];
  }
  const account = readString(asObject(spec)['serviceAccountName']);
  if (
    account === undefined ||
    hasServiceAccount(known, namespace, account) ||
    assumed.has(`sa/${namespace}/${account}`)
  ) {
    return;
  }
  assumed.add(`sa/${namespace}/${account}`);
  const message = `ServiceAccount "${account}" is not in the manifests; the cluster is assumed to have it in namespace "${namespace}" (without it, every pod is refused: error looking up service account ${namespace}/${account}: serviceaccount "${account}" not found)`;
  findings.push(
    engineFinding('service-account-assumed', source, [...specPath, 'serviceAccountName'], message),
  );
}

/**
 * The API server's warnings on the apply itself (pod-security-admission's admission.go): a workload whose pod
 * template would violate the namespace's enforce or warn level, and a Pod that violates its warn level, get
 * "would violate PodSecurity …"; the pods themselves are refused later, one by one, in enforce mode.
 */
function notePodSecurity(
  object: Record<string, unknown>,
  kind: string,
  specPath: readonly string[],
  labels: Readonly<Record<string, string>>,
  source: SourcedObject['source'],
  findings: EngineFinding[],
): void {
  let spec: unknown = object;
  for (const key of specPath) {
    spec = asObject(spec)[key];
  }
  const modes: ('enforce' | 'warn')[] = kind === 'Pod' ? ['warn'] : ['enforce', 'warn'];
  const seen = new Set<string>();
  for (const mode of modes) {
    const policy = namespacePolicy(labels, mode);
    const violations = policy === null ? null : podSecurityViolations(policy.level, asObject(spec));
    if (policy === null || violations === null || seen.has(policy.name)) {
      continue;
    }
    seen.add(policy.name);
    const message = `the API server warns on the apply: would violate PodSecurity "${policy.name}": ${violations}`;
    findings.push(engineFinding('pod-security-warning', source, [...specPath], message));
  }
}
