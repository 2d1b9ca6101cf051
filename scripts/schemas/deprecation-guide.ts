/**
 * The removals listed in the official Deprecated API Migration Guide
 * (https://kubernetes.io/docs/reference/using-api/deprecation-guide/), written down by hand, in our own words.
 *
 * The OpenAPI documents start at 1.23, so removals before that (1.16, 1.22) exist only here: they become the
 * "removedBefore" entries of api-versions.json. For every entry, the "notable changes" of the guide say whether
 * moving a manifest to the new apiVersion is a plain rewrite: `changes` lists what a rewrite alone would get
 * wrong (empty: mechanical); `notes` are behaviour differences worth telling that need no edit. The generator
 * checks each entry from 1.23 on against the documents (the last version serving it must precede `removedIn`).
 */

/** One removal of the guide: some kinds of some apiVersions, no longer served from `removedIn`. */
export interface GuideRemoval {
  readonly removedIn: string;
  readonly apiVersions: readonly string[];
  readonly kinds: readonly string[];
  /** The apiVersion the guide migrates to; absent when there is none (PodSecurityPolicy in 1.25). */
  readonly migrateTo?: string;
  readonly changes: readonly string[];
  readonly notes?: readonly string[];
}

const SELECTOR_REQUIRED = 'spec.selector is required (use the labels of the pod template)';

/** The guide's removals, newest release last. */
export const GUIDE_REMOVALS: readonly GuideRemoval[] = [
  // v1.16. apps/v1beta1 and apps/v1beta2 stopped being served as whole group/versions (CHANGELOG-1.16), which
  // also took ControllerRevision, a kind the guide does not list.
  { removedIn: '1.16', apiVersions: ['extensions/v1beta1'], kinds: ['NetworkPolicy'], migrateTo: 'networking.k8s.io/v1', changes: [] },
  {
    removedIn: '1.16',
    apiVersions: ['extensions/v1beta1', 'apps/v1beta2'],
    kinds: ['DaemonSet'],
    migrateTo: 'apps/v1',
    changes: [
      SELECTOR_REQUIRED,
      'spec.templateGeneration no longer exists',
      'spec.updateStrategy.type defaults to RollingUpdate (extensions/v1beta1 defaulted to OnDelete)',
    ],
  },
  {
    removedIn: '1.16',
    apiVersions: ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'],
    kinds: ['Deployment'],
    migrateTo: 'apps/v1',
    changes: [
      SELECTOR_REQUIRED,
      'spec.rollbackTo no longer exists',
      'spec.progressDeadlineSeconds defaults to 600',
      'spec.revisionHistoryLimit defaults to 10',
      'maxSurge and maxUnavailable default to 25%',
    ],
  },
  {
    removedIn: '1.16',
    apiVersions: ['apps/v1beta1', 'apps/v1beta2'],
    kinds: ['StatefulSet'],
    migrateTo: 'apps/v1',
    changes: [SELECTOR_REQUIRED, 'spec.updateStrategy.type defaults to RollingUpdate (apps/v1beta1 defaulted to OnDelete)'],
  },
  {
    removedIn: '1.16',
    apiVersions: ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'],
    kinds: ['ReplicaSet'],
    migrateTo: 'apps/v1',
    changes: [SELECTOR_REQUIRED],
  },
  { removedIn: '1.16', apiVersions: ['apps/v1beta1', 'apps/v1beta2'], kinds: ['ControllerRevision'], migrateTo: 'apps/v1', changes: [] },
  { removedIn: '1.16', apiVersions: ['extensions/v1beta1'], kinds: ['PodSecurityPolicy'], migrateTo: 'policy/v1beta1', changes: [] },
  // v1.22
  {
    removedIn: '1.22',
    apiVersions: ['admissionregistration.k8s.io/v1beta1'],
    kinds: ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
    migrateTo: 'admissionregistration.k8s.io/v1',
    changes: [
      'webhooks[].sideEffects is required (None or NoneOnDryRun)',
      'webhooks[].admissionReviewVersions is required',
      'webhooks[].name must be unique',
    ],
    notes: ['defaults changed: failurePolicy Fail, matchPolicy Equivalent, timeoutSeconds 10'],
  },
  {
    removedIn: '1.22',
    apiVersions: ['apiextensions.k8s.io/v1beta1'],
    kinds: ['CustomResourceDefinition'],
    migrateTo: 'apiextensions.k8s.io/v1',
    changes: [
      'spec.scope is required',
      'spec.version, spec.validation, spec.subresources and spec.additionalPrinterColumns move into spec.versions[]',
      'spec.versions[].schema.openAPIV3Schema is required and must be a structural schema',
      'spec.conversion.webhookClientConfig and conversionReviewVersions move into spec.conversion.webhook',
      'spec.preserveUnknownFields: true is not allowed (use x-kubernetes-preserve-unknown-fields in the schema)',
      'additionalPrinterColumns[].JSONPath is renamed jsonPath',
    ],
  },
  { removedIn: '1.22', apiVersions: ['apiregistration.k8s.io/v1beta1'], kinds: ['APIService'], migrateTo: 'apiregistration.k8s.io/v1', changes: [] },
  { removedIn: '1.22', apiVersions: ['authentication.k8s.io/v1beta1'], kinds: ['TokenReview'], migrateTo: 'authentication.k8s.io/v1', changes: [] },
  {
    removedIn: '1.22',
    apiVersions: ['authorization.k8s.io/v1beta1'],
    kinds: ['LocalSubjectAccessReview', 'SubjectAccessReview'],
    migrateTo: 'authorization.k8s.io/v1',
    changes: ['spec.group is renamed spec.groups'],
  },
  {
    removedIn: '1.22',
    apiVersions: ['authorization.k8s.io/v1beta1'],
    kinds: ['SelfSubjectAccessReview', 'SelfSubjectRulesReview'],
    migrateTo: 'authorization.k8s.io/v1',
    changes: [],
  },
  {
    removedIn: '1.22',
    apiVersions: ['certificates.k8s.io/v1beta1'],
    kinds: ['CertificateSigningRequest'],
    migrateTo: 'certificates.k8s.io/v1',
    changes: ['spec.signerName is required (kubernetes.io/legacy-unknown is not allowed)', 'spec.usages is required'],
  },
  { removedIn: '1.22', apiVersions: ['coordination.k8s.io/v1beta1'], kinds: ['Lease'], migrateTo: 'coordination.k8s.io/v1', changes: [] },
  {
    removedIn: '1.22',
    apiVersions: ['extensions/v1beta1', 'networking.k8s.io/v1beta1'],
    kinds: ['Ingress'],
    migrateTo: 'networking.k8s.io/v1',
    changes: [
      'spec.backend is renamed spec.defaultBackend',
      'backend serviceName becomes service.name',
      'backend servicePort becomes service.port.number (a number) or service.port.name (a name)',
      'paths[].pathType is required (ImplementationSpecific keeps the v1beta1 behaviour)',
    ],
  },
  { removedIn: '1.22', apiVersions: ['networking.k8s.io/v1beta1'], kinds: ['IngressClass'], migrateTo: 'networking.k8s.io/v1', changes: [] },
  {
    removedIn: '1.22',
    apiVersions: ['rbac.authorization.k8s.io/v1beta1'],
    kinds: ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'],
    migrateTo: 'rbac.authorization.k8s.io/v1',
    changes: [],
  },
  { removedIn: '1.22', apiVersions: ['scheduling.k8s.io/v1beta1'], kinds: ['PriorityClass'], migrateTo: 'scheduling.k8s.io/v1', changes: [] },
  {
    removedIn: '1.22',
    apiVersions: ['storage.k8s.io/v1beta1'],
    kinds: ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'],
    migrateTo: 'storage.k8s.io/v1',
    changes: [],
  },
  // v1.25
  { removedIn: '1.25', apiVersions: ['batch/v1beta1'], kinds: ['CronJob'], migrateTo: 'batch/v1', changes: [] },
  {
    removedIn: '1.25',
    apiVersions: ['discovery.k8s.io/v1beta1'],
    kinds: ['EndpointSlice'],
    migrateTo: 'discovery.k8s.io/v1',
    changes: ['endpoints[].topology is replaced by endpoints[].nodeName and endpoints[].zone'],
  },
  {
    removedIn: '1.25',
    apiVersions: ['events.k8s.io/v1beta1'],
    kinds: ['Event'],
    migrateTo: 'events.k8s.io/v1',
    changes: [
      'action, reason, reportingController and reportingInstance are required',
      'type must be Normal or Warning',
      'new Events may not set the deprecated* fields (use eventTime, series and reportingController)',
    ],
  },
  {
    removedIn: '1.25',
    apiVersions: ['autoscaling/v2beta1'],
    kinds: ['HorizontalPodAutoscaler'],
    migrateTo: 'autoscaling/v2',
    changes: ['metric targets (targetAverageUtilization, targetAverageValue, targetValue) move into target with a type'],
  },
  {
    removedIn: '1.25',
    apiVersions: ['policy/v1beta1'],
    kinds: ['PodDisruptionBudget'],
    migrateTo: 'policy/v1',
    changes: [],
    notes: ['an empty spec.selector ({}) selects every pod of the namespace in policy/v1, none in policy/v1beta1'],
  },
  { removedIn: '1.25', apiVersions: ['policy/v1beta1'], kinds: ['PodSecurityPolicy'], changes: [] },
  { removedIn: '1.25', apiVersions: ['node.k8s.io/v1beta1'], kinds: ['RuntimeClass'], migrateTo: 'node.k8s.io/v1', changes: [] },
  // v1.26, v1.27, v1.29, v1.32
  {
    removedIn: '1.26',
    apiVersions: ['flowcontrol.apiserver.k8s.io/v1beta1'],
    kinds: ['FlowSchema', 'PriorityLevelConfiguration'],
    migrateTo: 'flowcontrol.apiserver.k8s.io/v1beta2',
    changes: [],
  },
  { removedIn: '1.26', apiVersions: ['autoscaling/v2beta2'], kinds: ['HorizontalPodAutoscaler'], migrateTo: 'autoscaling/v2', changes: [] },
  { removedIn: '1.27', apiVersions: ['storage.k8s.io/v1beta1'], kinds: ['CSIStorageCapacity'], migrateTo: 'storage.k8s.io/v1', changes: [] },
  {
    removedIn: '1.29',
    apiVersions: ['flowcontrol.apiserver.k8s.io/v1beta2'],
    kinds: ['FlowSchema'],
    migrateTo: 'flowcontrol.apiserver.k8s.io/v1',
    changes: [],
  },
  {
    removedIn: '1.29',
    apiVersions: ['flowcontrol.apiserver.k8s.io/v1beta2'],
    kinds: ['PriorityLevelConfiguration'],
    migrateTo: 'flowcontrol.apiserver.k8s.io/v1',
    changes: ['spec.limited.assuredConcurrencyShares is renamed spec.limited.nominalConcurrencyShares'],
  },
  {
    removedIn: '1.32',
    apiVersions: ['flowcontrol.apiserver.k8s.io/v1beta3'],
    kinds: ['FlowSchema'],
    migrateTo: 'flowcontrol.apiserver.k8s.io/v1',
    changes: [],
  },
  {
    removedIn: '1.32',
    apiVersions: ['flowcontrol.apiserver.k8s.io/v1beta3'],
    kinds: ['PriorityLevelConfiguration'],
    migrateTo: 'flowcontrol.apiserver.k8s.io/v1',
    changes: [],
    notes: ['spec.limited.nominalConcurrencyShares defaults to 30 only when unset; an explicit 0 stays 0'],
  },
];
