/**
 * The built-in kinds that live outside any namespace (their REST mapping's scope is "root"), so that two
 * definitions of one object compare equal whatever `metadata.namespace` they carry, and a namespaced object with
 * none is read in `default` as kubectl reads it. Custom kinds' scope is their CRD's: unknown here, they are read as
 * written.
 */

/** Group/kind of every built-in cluster-scoped kind served by Kubernetes 1.33–1.35 (group '' is core). */
const CLUSTER_SCOPED = new Set([
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  '/ComponentStatus',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/VolumeAttachment',
  'storage.k8s.io/VolumeAttributesClass',
  'scheduling.k8s.io/PriorityClass',
  'node.k8s.io/RuntimeClass',
  'networking.k8s.io/IngressClass',
  'networking.k8s.io/IPAddress',
  'networking.k8s.io/ServiceCIDR',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding',
  'certificates.k8s.io/CertificateSigningRequest',
  'certificates.k8s.io/ClusterTrustBundle',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'resource.k8s.io/DeviceClass',
  'resource.k8s.io/ResourceSlice',
]);

/** The API group of an apiVersion ('' for the core group's `v1`). */
export function apiGroupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Whether a built-in kind is cluster-scoped. */
export function isClusterScoped(apiVersion: string, kind: string): boolean {
  return CLUSTER_SCOPED.has(`${apiGroupOf(apiVersion)}/${kind}`);
}
