/**
 * The objects of `kubectl apply` on their way in: each must first be served (api-discovery.ts), else kubectl
 * refuses it; then its namespace must exist and, for a new object, not be terminating (NamespaceLifecycle), and its namespace's quotas must have room for it
 * (ResourceQuota's object counts, plugins/object-count-quota.ts). What passes is admitted for the cluster; pods
 * are admitted again, one by one, as their controllers create them (admit-pod.ts through
 * apiserver/pod-factory.ts). Where the cluster cannot say (the embedded default cluster, a capture without
 * Namespaces or ServiceAccounts), the object is admitted and a finding says what a real cluster may refuse.
 */
import type { SourcedObject } from '../model/load/cluster-load';
import { isJsonObject, readString, asObject } from '../model/json';
import type { ApiServing } from './api-discovery';
import { discoveryRefusal } from './api-discovery';
import type { RejectedObject, Refusal } from './rejected';
import { rejectedObject } from './rejected';
import { ADMISSION_PLUGIN } from './names';
import { engineFinding } from '../model/findings';
import { hasServiceAccount, stringLabelsOf } from './known-objects';
import type { KnownObjects } from './known-objects';
import { isNamespaceAssumed, namespaceRefusal, terminatingRefusal } from './plugins/namespace-lifecycle';
import { groupResource } from './plugins/object-count-quota';
import type { ObjectQuotaLedger } from './plugins/object-count-quota';
import { claimLimitRefusal } from './admit-claim';
import { withDefaultStorageClass } from './plugins/default-storage-class';
import { isClusterScoped } from '../model/cluster-scoped-kinds';
import { podSecurityWarning } from './plugins/pod-security/pod-security';
import { podSecurityLabelErrors } from './plugins/pod-security/namespace-policy';
import type { Finding } from '../../../../protocol/finding';

/** The objects admitted, in order, and those refused. */
interface ManifestAdmission {
  readonly admitted: readonly SourcedObject[];
  readonly rejected: readonly RejectedObject[];
  /** What a real cluster may refuse that this one cannot tell (a namespace, a service account it may lack). */
  readonly findings: readonly Finding[];
}

/** Admits the apply's objects (lists already unwrapped). */
export function admitManifests(
  manifests: readonly SourcedObject[],
  serving: ApiServing | undefined,
  known: KnownObjects,
  quotas: ObjectQuotaLedger,
): ManifestAdmission {
  const admitted: SourcedObject[] = [];
  const rejected: RejectedObject[] = [];
  const findings: Finding[] = [];
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
      (identity.namespace === undefined ? null : namespaceRefusal(known, identity.namespace)) ??
      (identity.namespace === undefined || quotas.exists(object)
        ? null
        : terminatingRefusal(known, identity.namespace, {
            kind: identity.kind,
            resource: groupResource(identity.apiVersion, identity.kind),
            name: identity.name,
          }));
    if (refusal !== null) {
      const field = refusal.stage === 'discovery' ? ['apiVersion'] : ['metadata', 'namespace'];
      rejected.push(rejectedObject(identity, refusal, source, undefined, field));
      continue;
    }
    const labelErrors = identity.kind === 'Namespace' ? namespaceLabelErrors(metadata) : null;
    if (labelErrors !== null) {
      rejected.push(rejectedObject(identity, labelErrors.refusal, source, undefined, labelErrors.field));
      continue;
    }
    // DefaultStorageClass (mutating) gives a claim without class the default one, before LimitRanger checks it.
    const isClaim = identity.kind === 'PersistentVolumeClaim' && identity.apiVersion === 'v1';
    const admittedObject = isClaim ? withDefaultStorageClass(object, known.defaultStorageClass) : object;
    const claimLimits = isClaim
      ? claimLimitRefusal(known, admittedObject, identity.namespace ?? 'default', identity.name)
      : null;
    if (claimLimits !== null) {
      rejected.push(
        rejectedObject(identity, claimLimits, source, undefined, ['spec', 'resources', 'requests']),
      );
      continue;
    }
    const quotaRefusal = isClusterScoped(identity.apiVersion, identity.kind)
      ? null
      : quotas.admit(admittedObject, identity.namespace ?? 'default');
    if (quotaRefusal !== null) {
      rejected.push(rejectedObject(identity, quotaRefusal, source, undefined, ['kind']));
      continue;
    }
    admitted.push(admittedObject === object ? entry : { ...entry, object: admittedObject });
    noteAssumptions(object, identity, source, known, assumed, findings);
  }
  return { admitted, rejected, findings };
}

/**
 * PodSecurity's ValidateNamespace: a Namespace whose pod-security labels are invalid is refused as Invalid, with
 * every field error (one plainly, several in brackets), on the first bad label.
 */
function namespaceLabelErrors(
  metadata: Record<string, unknown>,
): { refusal: Refusal; field: readonly string[] } | null {
  const labels = stringLabelsOf(metadata);
  const errors = podSecurityLabelErrors(labels);
  if (errors.length === 0) {
    return null;
  }
  const name = readString(metadata['name']) ?? '';
  const firstKey = /^metadata\.labels\[([^\]]+)\]/.exec(errors[0] ?? '')?.[1] ?? '';
  return {
    refusal: {
      stage: 'admission',
      plugin: ADMISSION_PLUGIN.PodSecurity,
      message: `Namespace "${name}" is invalid: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`,
    },
    field: ['metadata', 'labels', firstKey],
  };
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
  findings: Finding[],
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
    identity.kind === 'Pod',
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
 * The API server's warning on the apply itself (pod-security-admission's admission.go): an object with a pod spec
 * that violates the namespace's warn policy (which follows a stricter enforce level when no warn label is set) gets
 * "would violate PodSecurity …"; the pods themselves are refused later, one by one, in enforce mode. A Pod that
 * enforce refuses gets no warning (admission.go returns the refusal alone).
 */
function notePodSecurity(
  object: Record<string, unknown>,
  isPod: boolean,
  specPath: readonly string[],
  labels: Readonly<Record<string, string>>,
  source: SourcedObject['source'],
  findings: Finding[],
): void {
  let spec: unknown = object;
  let metadata: unknown = object;
  specPath.forEach((key, index) => {
    spec = asObject(spec)[key];
    metadata = index === specPath.length - 1 ? asObject(metadata)['metadata'] : asObject(metadata)[key];
  });
  const warning = podSecurityWarning(labels, asObject(metadata), asObject(spec), isPod);
  if (warning !== null) {
    const message = `the API server warns on the apply: ${warning}`;
    findings.push(engineFinding('pod-security-warning', source, [...specPath], message));
  }
}
