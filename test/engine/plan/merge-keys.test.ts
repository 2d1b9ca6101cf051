/**
 * How kubectl apply merges each list (server/src/engine/plan/merge-keys.ts), against the OpenAPI v3 documents of
 * Kubernetes 1.35 (../shared/kubernetes-openapi): every list field of a built-in kind's spec that has a patch
 * merge key is known here with that key, and a field name that also names lists without that key elsewhere is
 * narrowed by place; and the groups kubectl merges strategically are the groups those documents serve, less the
 * two kubectl's scheme does not register.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  CONTEXT_DEPENDENT,
  MERGE_KEYS,
  SCALAR_SET,
  isStrategicMerge,
  listMergeOf,
} from '../../../server/src/engine/plan/merge-keys';

const OPENAPI = join(__dirname, '..', '..', '..', '..', 'shared', 'kubernetes-openapi', 'v3', '1.35');
const NO_SHARED = existsSync(OPENAPI) ? false : 'skipped: ../shared is absent';

/** Groups whose kinds kubectl's scheme does not register: kubectl apply sends them a JSON merge patch. */
const NOT_IN_KUBECTL_SCHEME = new Set(['apiextensions.k8s.io', 'apiregistration.k8s.io']);

interface Property {
  readonly type?: string;
  readonly 'x-kubernetes-patch-merge-key'?: string;
}

/** Every array property of the definitions of the documents of groups kubectl merges strategically. */
function arrayProperties(): { definition: string; field: string; key: string | undefined }[] {
  const files = [join(OPENAPI, 'api', 'v1.json')];
  for (const group of readdirSync(join(OPENAPI, 'apis'))) {
    if (!NOT_IN_KUBECTL_SCHEME.has(group)) {
      for (const version of readdirSync(join(OPENAPI, 'apis', group))) {
        files.push(join(OPENAPI, 'apis', group, version));
      }
    }
  }
  const found: { definition: string; field: string; key: string | undefined }[] = [];
  for (const file of files) {
    const schemas = (
      JSON.parse(readFileSync(file, 'utf8')) as {
        components?: { schemas?: Record<string, { properties?: Record<string, Property> }> };
      }
    ).components?.schemas;
    for (const [definition, schema] of Object.entries(schemas ?? {})) {
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        if (property.type === 'array') {
          found.push({ definition, field, key: property['x-kubernetes-patch-merge-key'] });
        }
      }
    }
  }
  return found;
}

describe('merge keys: the OpenAPI of Kubernetes 1.35', { skip: NO_SHARED }, () => {
  test('every keyed list field of a spec is known with its key; a name also used unkeyed is narrowed by place', () => {
    const properties = arrayProperties().filter(({ definition }) => !definition.endsWith('Status'));
    const keyed = new Map<string, Set<string>>();
    for (const { field, key } of properties) {
      if (key !== undefined) {
        keyed.set(field, (keyed.get(field) ?? new Set()).add(key));
      }
    }
    for (const [field, keys] of keyed) {
      const known = field === 'ports' ? new Set(['containerPort', 'port']) : new Set([MERGE_KEYS[field]]);
      assert.deepEqual(keys, known, `${field}: the OpenAPI's merge keys are ${[...keys].join(', ')}`);
    }
    const unkeyedToo = new Set(
      properties.filter(({ field, key }) => key === undefined && keyed.has(field)).map(({ field }) => field),
    );
    for (const field of unkeyedToo) {
      assert.ok(
        CONTEXT_DEPENDENT.has(field),
        `${field} also names lists without a merge key: narrow it by place`,
      );
    }
  });

  test('the groups merged strategically are the groups served, less the two kubectl does not register', () => {
    const groups = readdirSync(join(OPENAPI, 'apis'));
    for (const group of groups) {
      assert.equal(isStrategicMerge(`${group}/v1`), !NOT_IN_KUBECTL_SCHEME.has(group), group);
    }
    assert.equal(isStrategicMerge('v1'), true);
  });
});

// Rows: the field's place decides its merge, as the struct tags behind the OpenAPI say.
describe('listMergeOf: how kubectl apply merges the list at a path', () => {
  const rows: readonly {
    readonly path: readonly (string | number)[];
    readonly kind: string;
    readonly apiVersion: string;
    readonly merge: string | typeof SCALAR_SET | undefined;
  }[] = [
    // Container.Ports: patchMergeKey containerPort.
    {
      path: ['spec', 'template', 'spec', 'containers', 0, 'ports'],
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      merge: 'containerPort',
    },
    // ServiceSpec.Ports: patchMergeKey port.
    { path: ['spec', 'ports'], kind: 'Service', apiVersion: 'v1', merge: 'port' },
    // NetworkPolicyIngressRule.Ports: no patch strategy, replaced whole.
    {
      path: ['spec', 'ingress', 0, 'ports'],
      kind: 'NetworkPolicy',
      apiVersion: 'networking.k8s.io/v1',
      merge: undefined,
    },
    // Container.VolumeMounts: patchMergeKey mountPath, not the volume's name.
    { path: ['spec', 'containers', 0, 'volumeMounts'], kind: 'Pod', apiVersion: 'v1', merge: 'mountPath' },
    // ServiceAccount.ImagePullSecrets has no strategy; PodSpec.ImagePullSecrets merges by name.
    { path: ['imagePullSecrets'], kind: 'ServiceAccount', apiVersion: 'v1', merge: undefined },
    { path: ['spec', 'imagePullSecrets'], kind: 'Pod', apiVersion: 'v1', merge: 'name' },
    // ObjectMeta.Finalizers: patchStrategy merge of scalars; NamespaceSpec.Finalizers: none.
    { path: ['metadata', 'finalizers'], kind: 'ConfigMap', apiVersion: 'v1', merge: SCALAR_SET },
    { path: ['spec', 'finalizers'], kind: 'Namespace', apiVersion: 'v1', merge: undefined },
    // RoleBinding.Subjects: items with names, but no patch strategy: replaced whole.
    { path: ['subjects'], kind: 'RoleBinding', apiVersion: 'rbac.authorization.k8s.io/v1', merge: undefined },
    // A custom resource gets a JSON merge patch: every list is replaced, containers too.
    {
      path: ['spec', 'template', 'spec', 'containers'],
      kind: 'Rollout',
      apiVersion: 'argoproj.io/v1alpha1',
      merge: undefined,
    },
    // So does a CustomResourceDefinition, whose group kubectl's scheme does not register.
    {
      path: ['metadata', 'finalizers'],
      kind: 'CustomResourceDefinition',
      apiVersion: 'apiextensions.k8s.io/v1',
      merge: undefined,
    },
  ];
  for (const row of rows) {
    test(`${row.kind} ${row.path.join('.')}: ${String(row.merge === SCALAR_SET ? 'a set' : (row.merge ?? 'replaced'))}`, () => {
      assert.equal(listMergeOf(row.path, row.kind, isStrategicMerge(row.apiVersion)), row.merge);
    });
  }
});
