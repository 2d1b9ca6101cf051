/**
 * The names of kube-apiserver's admission plugins, as registered (plugin/pkg/admission/*: `PluginName`), and the
 * order the API server runs the default-on ones that change a prediction (pkg/kubeapiserver/options/plugins.go,
 * AllOrderedPlugins): every mutating phase in this order, then every validating phase in the same order.
 * ResourceQuota is always last. Webhooks and admission policies are listed for completeness; they cannot be
 * simulated.
 */

/** Registered admission plugin names. */
export const ADMISSION_PLUGIN = {
  NamespaceLifecycle: 'NamespaceLifecycle',
  LimitRanger: 'LimitRanger',
  ServiceAccount: 'ServiceAccount',
  TaintNodesByCondition: 'TaintNodesByCondition',
  PodSecurity: 'PodSecurity',
  Priority: 'Priority',
  DefaultTolerationSeconds: 'DefaultTolerationSeconds',
  DefaultStorageClass: 'DefaultStorageClass',
  StorageObjectInUseProtection: 'StorageObjectInUseProtection',
  RuntimeClass: 'RuntimeClass',
  MutatingAdmissionWebhook: 'MutatingAdmissionWebhook',
  ValidatingAdmissionPolicy: 'ValidatingAdmissionPolicy',
  ValidatingAdmissionWebhook: 'ValidatingAdmissionWebhook',
  ResourceQuota: 'ResourceQuota',
} as const;

/** An admission plugin's registered name. */
export type AdmissionPluginName = (typeof ADMISSION_PLUGIN)[keyof typeof ADMISSION_PLUGIN];

/** The API server's order of the plugins above. */
export const ADMISSION_ORDER: readonly AdmissionPluginName[] = Object.values(ADMISSION_PLUGIN);
