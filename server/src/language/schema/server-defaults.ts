/**
 * Fields the OpenAPI schemas call required that the API server fills in before it validates the object, so an
 * object without them is accepted (`kubectl apply` succeeds): the defaulting functions of
 * pkg/apis/<group>/<version>/defaults.go. One table, each row naming the function it follows.
 */

/** A required field the API server defaults. */
interface ServerDefault {
  /** API group ('' for the core group). */
  readonly group: string;
  readonly kinds: readonly string[];
  /** The JSON pointer of the object holding the field, as ajv reports it ('/roleRef'). */
  readonly pointer: string;
  readonly field: string;
  /** What the API server sets, and where upstream does it. */
  readonly value: string;
  readonly source: string;
}

export const SERVER_DEFAULTED_REQUIRED: readonly ServerDefault[] = [
  {
    group: 'rbac.authorization.k8s.io',
    kinds: ['RoleBinding', 'ClusterRoleBinding'],
    pointer: '/roleRef',
    field: 'apiGroup',
    value: 'rbac.authorization.k8s.io',
    source: 'pkg/apis/rbac/v1/defaults.go: SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding',
  },
];

/** Whether a missing required field of this object is one the API server defaults. */
export function isServerDefaulted(apiVersion: string, kind: string, pointer: string, field: string): boolean {
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return SERVER_DEFAULTED_REQUIRED.some(
    (row) =>
      row.group === group && row.kinds.includes(kind) && row.pointer === pointer && row.field === field,
  );
}
