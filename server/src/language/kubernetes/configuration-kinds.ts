/**
 * Files that carry apiVersion and kind but are not objects applied to a cluster: kubeconfig (v1 Config),
 * kustomize's Kustomization and Component, component configuration (KubeSchedulerConfiguration,
 * KubeletConfiguration, kubeadm), kustomize's `apiVersion: builtin` plugin configurations, and strategic-merge
 * patch fragments (`$patch: delete`) that kustomization files refer to. They are not ours to validate, so they get
 * no diagnostic.
 */

/** API groups of configuration files read by tools, not served by the API server. */
const CONFIGURATION_GROUPS = new Set([
  'kustomize.config.k8s.io',
  'kubescheduler.config.k8s.io',
  'kubelet.config.k8s.io',
  'kubeproxy.config.k8s.io',
  'kubecontrollermanager.config.k8s.io',
  'apiserver.config.k8s.io',
  'apiserver.k8s.io',
  'audit.k8s.io',
  'kubeadm.k8s.io',
  'client.authentication.k8s.io',
]);

/** Whether an object is a tool's configuration or a patch fragment rather than an API object. */
export function isNotAnApiObject(apiVersion: string, kind: string, value: Record<string, unknown>): boolean {
  // kustomize's builtin transformer and generator configurations (LabelTransformer, ConfigMapGenerator, …).
  if ((apiVersion === 'v1' && kind === 'Config') || apiVersion === 'builtin') {
    return true;
  }
  if (Object.keys(value).some((key) => key.startsWith('$patch') || key.startsWith('$setElementOrder'))) {
    return true;
  }
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return CONFIGURATION_GROUPS.has(group);
}
