/**
 * Allowed values of the string fields that Kubernetes declares as enums (`// +enum` types in k8s.io/api), for
 * hover and completion. The OpenAPI documents we generate the schemas from carry no `enum` keyword, so the
 * schemas cannot tell that imagePullPolicy takes Always, Never or IfNotPresent; this table fills that gap.
 *
 * Derived from the `+enum` types and their constants in k8s.io/api at v0.35.7 (Kubernetes 1.35), e.g.
 * https://github.com/kubernetes/api/blob/v0.35.7/core/v1/types.go (PullPolicy, RestartPolicy, Protocol, …),
 * keeping only fields of definitions present in the 1.35 OpenAPI. Left out: status-only fields (phases, QoS
 * class), which users do not write, and the empty string values ("" for hostPath.type and ipFamilies).
 * Completion only suggests these values; validation does not enforce them (the API server's validation of
 * some of them depends on feature gates).
 */

/** The stop signals of core/v1 Signal, in upstream order. */
const STOP_SIGNALS: readonly string[] = [
  ...(
    'SIGABRT SIGALRM SIGBUS SIGCHLD SIGCLD SIGCONT SIGFPE SIGHUP SIGILL SIGINT SIGIO SIGIOT SIGKILL SIGPIPE SIGPOLL ' +
    'SIGPROF SIGPWR SIGQUIT SIGSEGV SIGSTKFLT SIGSTOP SIGSYS SIGTERM SIGTRAP SIGTSTP SIGTTIN SIGTTOU SIGURG SIGUSR1 ' +
    'SIGUSR2 SIGVTALRM SIGWINCH SIGXCPU SIGXFSZ SIGRTMIN'
  ).split(' '),
  ...Array.from({ length: 15 }, (_unused, index) => `SIGRTMIN+${index + 1}`),
  ...Array.from({ length: 14 }, (_unused, index) => `SIGRTMAX-${14 - index}`),
  'SIGRTMAX',
];

/** Definition name without the "io.k8s.api." prefix → property → allowed values. */
const ENUM_VALUES: Record<string, Record<string, readonly string[]>> = {
  'admissionregistration.v1.MatchResources': { matchPolicy: ['Exact', 'Equivalent'] },
  'admissionregistration.v1.MutatingWebhook': {
    failurePolicy: ['Ignore', 'Fail'],
    matchPolicy: ['Exact', 'Equivalent'],
    reinvocationPolicy: ['Never', 'IfNeeded'],
    sideEffects: ['Unknown', 'None', 'Some', 'NoneOnDryRun'],
  },
  'admissionregistration.v1.RuleWithOperations': {
    operations: ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'],
  },
  'admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec': {
    validationActions: ['Deny', 'Warn', 'Audit'],
  },
  'admissionregistration.v1.ValidatingAdmissionPolicySpec': { failurePolicy: ['Ignore', 'Fail'] },
  'admissionregistration.v1.ValidatingWebhook': {
    failurePolicy: ['Ignore', 'Fail'],
    matchPolicy: ['Exact', 'Equivalent'],
    sideEffects: ['Unknown', 'None', 'Some', 'NoneOnDryRun'],
  },
  'admissionregistration.v1alpha1.MatchResources': { matchPolicy: ['Exact', 'Equivalent'] },
  'admissionregistration.v1alpha1.MutatingAdmissionPolicySpec': { failurePolicy: ['Ignore', 'Fail'] },
  'admissionregistration.v1alpha1.Mutation': { patchType: ['ApplyConfiguration', 'JSONPatch'] },
  'admissionregistration.v1alpha1.ParamRef': { parameterNotFoundAction: ['Allow', 'Deny'] },
  'admissionregistration.v1beta1.Mutation': { patchType: ['ApplyConfiguration', 'JSONPatch'] },
  'apps.v1.DaemonSetUpdateStrategy': { type: ['RollingUpdate', 'OnDelete'] },
  'apps.v1.DeploymentStrategy': { type: ['Recreate', 'RollingUpdate'] },
  'apps.v1.StatefulSetSpec': { podManagementPolicy: ['OrderedReady', 'Parallel'] },
  'apps.v1.StatefulSetUpdateStrategy': { type: ['RollingUpdate', 'OnDelete'] },
  'batch.v1.CronJobSpec': { concurrencyPolicy: ['Allow', 'Forbid', 'Replace'] },
  'batch.v1.JobSpec': {
    completionMode: ['NonIndexed', 'Indexed'],
    podReplacementPolicy: ['TerminatingOrFailed', 'Failed'],
  },
  'batch.v1.PodFailurePolicyOnExitCodesRequirement': { operator: ['In', 'NotIn'] },
  'batch.v1.PodFailurePolicyRule': { action: ['FailJob', 'FailIndex', 'Ignore', 'Count'] },
  'certificates.v1.CertificateSigningRequestSpec': {
    usages: [
      'signing',
      'digital signature',
      'content commitment',
      'key encipherment',
      'key agreement',
      'data encipherment',
      'cert sign',
      'crl sign',
      'encipher only',
      'decipher only',
      'any',
      'server auth',
      'client auth',
      'code signing',
      'email protection',
      's/mime',
      'ipsec end system',
      'ipsec tunnel',
      'ipsec user',
      'timestamping',
      'ocsp signing',
      'microsoft sgc',
      'netscape sgc',
    ],
  },
  'core.v1.AppArmorProfile': { type: ['Unconfined', 'RuntimeDefault', 'Localhost'] },
  'core.v1.AzureDiskVolumeSource': {
    cachingMode: ['None', 'ReadOnly', 'ReadWrite'],
    kind: ['Shared', 'Dedicated', 'Managed'],
  },
  'core.v1.Container': {
    imagePullPolicy: ['Always', 'Never', 'IfNotPresent'],
    terminationMessagePolicy: ['File', 'FallbackToLogsOnError'],
  },
  'core.v1.ContainerPort': { protocol: ['TCP', 'UDP', 'SCTP'] },
  'core.v1.EndpointPort': { protocol: ['TCP', 'UDP', 'SCTP'] },
  'core.v1.EphemeralContainer': {
    imagePullPolicy: ['Always', 'Never', 'IfNotPresent'],
    terminationMessagePolicy: ['File', 'FallbackToLogsOnError'],
  },
  'core.v1.HTTPGetAction': { scheme: ['HTTP', 'HTTPS'] },
  'core.v1.HostPathVolumeSource': {
    type: ['DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'],
  },
  'core.v1.ImageVolumeSource': { pullPolicy: ['Always', 'Never', 'IfNotPresent'] },
  'core.v1.Lifecycle': { stopSignal: STOP_SIGNALS },
  'core.v1.NodeSelectorRequirement': { operator: ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] },
  'core.v1.PersistentVolumeClaimSpec': {
    accessModes: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'],
    volumeMode: ['Block', 'Filesystem'],
  },
  'core.v1.PersistentVolumeSpec': {
    accessModes: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'],
    persistentVolumeReclaimPolicy: ['Recycle', 'Delete', 'Retain'],
    volumeMode: ['Block', 'Filesystem'],
  },
  'core.v1.PodSecurityContext': {
    fsGroupChangePolicy: ['OnRootMismatch', 'Always'],
    supplementalGroupsPolicy: ['Merge', 'Strict'],
  },
  'core.v1.PodSpec': {
    dnsPolicy: ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'],
    preemptionPolicy: ['PreemptLowerPriority', 'Never'],
    restartPolicy: ['Always', 'OnFailure', 'Never'],
  },
  'core.v1.ResourceQuotaSpec': {
    scopes: [
      'Terminating',
      'NotTerminating',
      'BestEffort',
      'NotBestEffort',
      'PriorityClass',
      'CrossNamespacePodAffinity',
      'VolumeAttributesClass',
    ],
  },
  'core.v1.ScopedResourceSelectorRequirement': {
    operator: ['In', 'NotIn', 'Exists', 'DoesNotExist'],
    scopeName: [
      'Terminating',
      'NotTerminating',
      'BestEffort',
      'NotBestEffort',
      'PriorityClass',
      'CrossNamespacePodAffinity',
      'VolumeAttributesClass',
    ],
  },
  'core.v1.SeccompProfile': { type: ['Unconfined', 'RuntimeDefault', 'Localhost'] },
  'core.v1.SecurityContext': { procMount: ['Default', 'Unmasked'] },
  'core.v1.ServicePort': { protocol: ['TCP', 'UDP', 'SCTP'] },
  'core.v1.ServiceSpec': {
    externalTrafficPolicy: ['Cluster', 'Local'],
    internalTrafficPolicy: ['Cluster', 'Local'],
    ipFamilies: ['IPv4', 'IPv6'],
    ipFamilyPolicy: ['SingleStack', 'PreferDualStack', 'RequireDualStack'],
    sessionAffinity: ['ClientIP', 'None'],
    type: ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'],
  },
  'core.v1.Taint': { effect: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] },
  'core.v1.Toleration': {
    effect: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
    operator: ['Exists', 'Equal', 'Lt', 'Gt'],
  },
  'core.v1.TopologySpreadConstraint': {
    nodeAffinityPolicy: ['Ignore', 'Honor'],
    nodeTaintsPolicy: ['Ignore', 'Honor'],
    whenUnsatisfiable: ['DoNotSchedule', 'ScheduleAnyway'],
  },
  'core.v1.VolumeMount': { mountPropagation: ['None', 'HostToContainer', 'Bidirectional'] },
  'discovery.v1.EndpointPort': { protocol: ['TCP', 'UDP', 'SCTP'] },
  'networking.v1.NetworkPolicyPort': { protocol: ['TCP', 'UDP', 'SCTP'] },
  'networking.v1.NetworkPolicySpec': { policyTypes: ['Ingress', 'Egress'] },
  'policy.v1.PodDisruptionBudgetSpec': { unhealthyPodEvictionPolicy: ['IfHealthyBudget', 'AlwaysAllow'] },
  'resource.v1.DeviceTaint': { effect: ['None', 'NoSchedule', 'NoExecute'] },
  'resource.v1.DeviceToleration': {
    effect: ['None', 'NoSchedule', 'NoExecute'],
    operator: ['Exists', 'Equal'],
  },
  'resource.v1alpha3.DeviceTaint': { effect: ['None', 'NoSchedule', 'NoExecute'] },
  'resource.v1beta1.DeviceTaint': { effect: ['None', 'NoSchedule', 'NoExecute'] },
  'resource.v1beta1.DeviceToleration': {
    effect: ['None', 'NoSchedule', 'NoExecute'],
    operator: ['Exists', 'Equal'],
  },
  'resource.v1beta2.DeviceTaint': { effect: ['None', 'NoSchedule', 'NoExecute'] },
  'resource.v1beta2.DeviceToleration': {
    effect: ['None', 'NoSchedule', 'NoExecute'],
    operator: ['Exists', 'Equal'],
  },
  'scheduling.v1.PriorityClass': { preemptionPolicy: ['PreemptLowerPriority', 'Never'] },
  'storage.v1.StorageClass': {
    reclaimPolicy: ['Recycle', 'Delete', 'Retain'],
    volumeBindingMode: ['Immediate', 'WaitForFirstConsumer'],
  },
};

const DEFINITION_PREFIX = 'io.k8s.api.';

/**
 * The allowed values of a property of a definition ("io.k8s.api.core.v1.Container", "imagePullPolicy"), or
 * undefined when the property is not an enum.
 */
export function knownEnumValues(definitionName: string, property: string): readonly string[] | undefined {
  if (!definitionName.startsWith(DEFINITION_PREFIX)) {
    return undefined;
  }
  const properties = ENUM_VALUES[definitionName.slice(DEFINITION_PREFIX.length)];
  return properties !== undefined && Object.hasOwn(properties, property) ? properties[property] : undefined;
}
