import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FieldChange } from '../../../protocol/plan';
import { fieldChanges, formatChangePath, lastAppliedOf } from '../../../server/src/engine/plan/field-changes';
import type { JsonObject } from '../../../server/src/engine/model/json';

// The fields kubectl apply changes, as kubectl diff shows them after the API server's merge and defaults.
// Rows follow the merge rules of kubectl's apply (staging/src/k8s.io/kubectl/pkg/cmd/apply/patcher.go, a three-way
// strategic merge patch) and the declarative-config task page's "merge patch calculation".

/** A live Deployment as the API server returns it: defaulted fields the manifest never writes. */
function liveDeployment(container: JsonObject, extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', resourceVersion: '42', uid: 'u-1', ...extra },
    spec: {
      replicas: 2,
      progressDeadlineSeconds: 600,
      revisionHistoryLimit: 10,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        spec: {
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          containers: [
            { imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', ...container },
          ],
        },
      },
    },
    status: { replicas: 2, readyReplicas: 2 },
  };
}

/** A live object with some of its spec's fields replaced. */
function withSpec(live: JsonObject, fields: JsonObject): JsonObject {
  return { ...live, spec: { ...(live['spec'] as JsonObject), ...fields } };
}

/** A live Deployment with some of its pod template spec's fields replaced. */
function withTemplateSpec(live: JsonObject, fields: JsonObject): JsonObject {
  const spec = live['spec'] as JsonObject;
  const template = spec['template'] as JsonObject;
  return withSpec(live, {
    template: { ...template, spec: { ...(template['spec'] as JsonObject), ...fields } },
  });
}

function manifest(container: JsonObject, spec: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { replicas: 2, template: { spec: { containers: [container] } }, ...spec },
  };
}

const CONTAINER = {
  name: 'app',
  image: 'nginx:1.27.3',
  resources: { requests: { cpu: '500m', memory: '256Mi' } },
};

const CASES: readonly {
  readonly name: string;
  readonly live: JsonObject;
  readonly manifest: JsonObject;
  readonly expected: readonly FieldChange[];
}[] = [
  {
    name: 'fields the API server defaulted and the manifest omits are kept: no change (kubectl diff shows none)',
    live: liveDeployment(CONTAINER),
    manifest: manifest(CONTAINER),
    expected: [],
  },
  {
    name: 'quantities compare by value: cpu "0.5" is the live 500m',
    live: liveDeployment(CONTAINER),
    manifest: manifest({ ...CONTAINER, resources: { requests: { cpu: '0.5', memory: '256Mi' } } }),
    expected: [],
  },
  {
    name: 'a changed image is one field, at its path',
    live: liveDeployment(CONTAINER),
    manifest: manifest({ ...CONTAINER, image: 'nginx:1.27.4' }),
    expected: [{ path: 'spec.template.spec.containers[0].image', old: 'nginx:1.27.3', new: 'nginx:1.27.4' }],
  },
  {
    name: 'containers are matched by name, as a strategic merge patch matches them: a new one is added whole',
    live: liveDeployment(CONTAINER),
    manifest: {
      ...manifest(CONTAINER),
      spec: {
        replicas: 2,
        template: { spec: { containers: [{ name: 'sidecar', image: 'envoy:1.32' }, CONTAINER] } },
      },
    },
    expected: [
      { path: 'spec.template.spec.containers[0]', old: null, new: '{"name":"sidecar","image":"envoy:1.32"}' },
    ],
  },
  {
    name: 'a list without names (args) is replaced whole when any item differs',
    live: liveDeployment({ ...CONTAINER, args: ['--port', '80'] }),
    manifest: manifest({ ...CONTAINER, args: ['--port', '8080'] }),
    expected: [
      { path: 'spec.template.spec.containers[0].args', old: '["--port","80"]', new: '["--port","8080"]' },
    ],
  },
  {
    name: 'a field the last applied configuration set and the manifest dropped is removed',
    live: liveDeployment(CONTAINER, {
      labels: { tier: 'web' },
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
          metadata: { labels: { tier: 'web' } },
        }),
      },
    }),
    manifest: manifest(CONTAINER),
    expected: [{ path: 'metadata.labels', old: '{"tier":"web"}', new: null }],
  },
  {
    // pkg/apis/apps/v1/defaults_test.go TestSetDefaultDeployment: an unset strategy is RollingUpdate 25%/25%.
    name: 'a dropped field whose live value is the default is no change (TestSetDefaultDeployment)',
    live: liveDeployment(CONTAINER, {
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
          spec: { strategy: { type: 'RollingUpdate' }, progressDeadlineSeconds: 600 },
        }),
      },
    }),
    manifest: manifest(CONTAINER),
    expected: [],
  },
  {
    // The live Deployment had Recreate and 3 revisions kept; dropping both from the manifest defaults them.
    name: 'dropped fields that had other values change to their defaults (TestSetDefaultDeployment)',
    live: withSpec(
      liveDeployment(CONTAINER, {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            spec: { strategy: { type: 'Recreate' }, revisionHistoryLimit: 3 },
          }),
        },
      }),
      { strategy: { type: 'Recreate' }, revisionHistoryLimit: 3 },
    ),
    manifest: manifest(CONTAINER),
    expected: [
      {
        path: 'spec.strategy',
        old: '{"type":"Recreate"}',
        // Cut at 80 characters, as every long value is.
        new: '{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%…',
      },
      { path: 'spec.revisionHistoryLimit', old: '3', new: '10' },
    ],
  },
  {
    // pkg/apis/core/v1/defaults_test.go TestSetDefaultPodSpec... rows: terminationGracePeriodSeconds 30,
    // dnsPolicy ClusterFirst.
    name: 'a dropped pod template field takes SetDefaults_PodSpec’s default; one already at it is no change',
    live: withTemplateSpec(
      liveDeployment(CONTAINER, {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            spec: { template: { spec: { terminationGracePeriodSeconds: 5, dnsPolicy: 'ClusterFirst' } } },
          }),
        },
      }),
      { terminationGracePeriodSeconds: 5 },
    ),
    manifest: manifest(CONTAINER),
    expected: [{ path: 'spec.template.spec.terminationGracePeriodSeconds', old: '5', new: '30' }],
  },
  {
    // TestWorkloadDefaults: a container's imagePullPolicy defaults to IfNotPresent for a tagged image; the named
    // list is matched by name, so the dropped field is found inside its container.
    name: 'a field dropped from a container takes SetDefaults_Container’s default (TestWorkloadDefaults)',
    live: liveDeployment(
      { ...CONTAINER, imagePullPolicy: 'Always', terminationMessagePolicy: 'File' },
      {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            spec: {
              template: {
                spec: {
                  containers: [{ name: 'app', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }],
                },
              },
            },
          }),
        },
      },
    ),
    manifest: manifest(CONTAINER),
    expected: [
      { path: 'spec.template.spec.containers[0].imagePullPolicy', old: 'Always', new: 'IfNotPresent' },
    ],
  },
  {
    // A strategic merge patch deletes a list item the last applied configuration had and the manifest dropped.
    name: 'a container the last applied configuration had and the manifest dropped is removed',
    live: withTemplateSpec(
      liveDeployment(CONTAINER, {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            spec: { template: { spec: { containers: [{ name: 'sidecar' }, { name: 'app' }] } } },
          }),
        },
      }),
      { containers: [{ name: 'sidecar', image: 'envoy:1.32' }, CONTAINER] },
    ),
    manifest: manifest(CONTAINER),
    expected: [
      { path: 'spec.template.spec.containers[0]', old: '{"name":"sidecar","image":"envoy:1.32"}', new: null },
    ],
  },
  ...[420, 256].map((liveMode) => ({
    // TestSetDefaultConfigMapVolumeSource: a defaultMode the manifest drops is defaulted again to 0644 (420).
    name: `a volume's defaultMode the manifest dropped goes to 0644, not away (live ${liveMode})`,
    live: withTemplateSpec(
      liveDeployment(CONTAINER, {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            spec: {
              template: {
                spec: {
                  containers: [{ name: 'app' }],
                  volumes: [{ name: 'config', configMap: { name: 'web', defaultMode: liveMode } }],
                },
              },
            },
          }),
        },
      }),
      { volumes: [{ name: 'config', configMap: { name: 'web', defaultMode: liveMode } }] },
    ),
    manifest: manifest(CONTAINER, {
      template: {
        spec: { containers: [CONTAINER], volumes: [{ name: 'config', configMap: { name: 'web' } }] },
      },
    }),
    expected:
      liveMode === 420
        ? []
        : [{ path: 'spec.template.spec.volumes[0].configMap.defaultMode', old: '256', new: '420' }],
  })),
  {
    // Container.VolumeMounts merge by mountPath (x-kubernetes-patch-merge-key): one volume mounted at two paths
    // is two items, and a change to the second is found in the second.
    name: 'volumeMounts are matched by mountPath, not by the volume name two mounts share',
    live: liveDeployment({
      ...CONTAINER,
      volumeMounts: [
        { name: 'config', mountPath: '/etc/a', subPath: 'a' },
        { name: 'config', mountPath: '/etc/b', subPath: 'b' },
      ],
    }),
    manifest: manifest({
      ...CONTAINER,
      volumeMounts: [
        { name: 'config', mountPath: '/etc/a', subPath: 'a' },
        { name: 'config', mountPath: '/etc/b', subPath: 'b2' },
      ],
    }),
    expected: [{ path: 'spec.template.spec.containers[0].volumeMounts[1].subPath', old: 'b', new: 'b2' }],
  },
  {
    // patch_test.go "merge lists of maps": an item the current object has and neither the last applied nor the
    // new configuration names is kept. Container.Ports merge by containerPort, with or without names.
    name: 'a container port added live by someone else is kept: the ports merge by containerPort',
    live: liveDeployment({
      ...CONTAINER,
      ports: [
        { containerPort: 80, protocol: 'TCP' },
        { containerPort: 9090, protocol: 'TCP' },
      ],
    }),
    manifest: manifest({ ...CONTAINER, ports: [{ containerPort: 80 }] }),
    expected: [],
  },
  {
    // patch_test.go "delete map from merging list": ServiceSpec.Ports merge by port, so a port the last applied
    // configuration had and the manifest dropped is deleted, alone.
    name: 'a Service port the manifest dropped is removed by its port, the others untouched',
    live: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'web',
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            spec: {
              ports: [
                { port: 80, targetPort: 8080 },
                { port: 443, targetPort: 8443 },
              ],
            },
          }),
        },
      },
      spec: {
        type: 'ClusterIP',
        ports: [
          { port: 80, targetPort: 8080, protocol: 'TCP' },
          { port: 443, targetPort: 8443, protocol: 'TCP' },
        ],
      },
    },
    manifest: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { ports: [{ port: 80, targetPort: 8080 }] },
    },
    expected: [{ path: 'spec.ports[1]', old: '{"port":443,"targetPort":8443,"protocol":"TCP"}', new: null }],
  },
  {
    // RoleBinding.Subjects has no patch strategy: the apply replaces the list, so a subject added live goes,
    // though every subject has a name.
    name: 'a list of named items without a merge key (RoleBinding subjects) is replaced whole',
    live: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'readers' },
      subjects: [
        { kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' },
      ],
    },
    manifest: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'readers' },
      subjects: [{ kind: 'User', name: 'alice' }],
    },
    expected: [
      {
        path: 'subjects',
        old: '[{"kind":"User","name":"alice","apiGroup":"rbac.authorization.k8s.io"},{"kind":…',
        new: '[{"kind":"User","name":"alice"}]',
      },
    ],
  },
  {
    // patch_test.go's $deleteFromPrimitiveList rows: ObjectMeta.Finalizers merge as a set, so a finalizer a
    // controller added stays and the one the manifest dropped goes.
    name: 'finalizers merge as a set: a dropped one is removed, one a controller added is kept',
    live: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'settings',
        finalizers: ['example.com/controller', 'example.com/mine', 'example.com/old'],
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            metadata: { finalizers: ['example.com/mine', 'example.com/old'] },
          }),
        },
      },
    },
    manifest: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', finalizers: ['example.com/mine'] },
    },
    expected: [{ path: 'metadata.finalizers[2]', old: 'example.com/old', new: null }],
  },
  {
    // patcher.go: a kind outside kubectl's scheme gets a JSON merge patch, which replaces lists whole.
    name: 'a custom resource’s list of named items is replaced whole (JSON merge patch)',
    live: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web' },
      spec: {
        containers: [
          { name: 'sidecar', image: 'envoy:1.32' },
          { name: 'app', image: 'web:1' },
        ],
      },
    },
    manifest: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'app', image: 'web:2' }] },
    },
    expected: [
      {
        path: 'spec.containers',
        old: '[{"name":"sidecar","image":"envoy:1.32"},{"name":"app","image":"web:1"}]',
        new: '[{"name":"app","image":"web:2"}]',
      },
    ],
  },
  ...[7200, 3600].map((liveSeconds) => ({
    // pkg/apis/core/v1/defaults.go SetDefaults_ServiceAccountTokenProjection: an unset expirationSeconds is an
    // hour. A projected volume's sources have no merge key: the list is replaced, and the dropped field defaulted.
    name: `a projected token's expirationSeconds the manifest dropped goes to 3600 (live ${liveSeconds})`,
    live: withTemplateSpec(
      liveDeployment(CONTAINER, {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            spec: {
              template: {
                spec: {
                  containers: [{ name: 'app' }],
                  volumes: [
                    {
                      name: 'token',
                      projected: {
                        sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: liveSeconds } }],
                      },
                    },
                  ],
                },
              },
            },
          }),
        },
      }),
      {
        volumes: [
          {
            name: 'token',
            projected: {
              sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: liveSeconds } }],
              defaultMode: 420,
            },
          },
        ],
      },
    ),
    manifest: manifest(CONTAINER, {
      template: {
        spec: {
          containers: [CONTAINER],
          volumes: [{ name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }],
        },
      },
    }),
    expected:
      liveSeconds === 3600
        ? []
        : [
            {
              path: 'spec.template.spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds',
              old: '7200',
              new: '3600',
            },
          ],
  })),
  {
    // PodSpec.Tolerations has no patch strategy: the list is replaced, so a field the last applied configuration
    // set in a toleration and the manifest dropped is gone after the apply (it has no default).
    name: 'a field dropped from an item of a list replaced whole (tolerations) is removed',
    live: withTemplateSpec(
      liveDeployment(CONTAINER, {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            spec: {
              template: {
                spec: {
                  containers: [{ name: 'app' }],
                  tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
                },
              },
            },
          }),
        },
      }),
      { tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] },
    ),
    manifest: manifest(CONTAINER, {
      template: { spec: { containers: [CONTAINER], tolerations: [{ key: 'gpu', operator: 'Exists' }] } },
    }),
    expected: [{ path: 'spec.template.spec.tolerations[0].effect', old: 'NoSchedule', new: null }],
  },
  {
    name: 'a field set live by someone else (no last applied) is kept: the three-way merge leaves it',
    live: liveDeployment(CONTAINER, { labels: { team: 'payments' } }),
    manifest: manifest(CONTAINER),
    expected: [],
  },
  {
    name: 'a label key with dots and slashes is quoted in the path, and status is never compared',
    live: liveDeployment(CONTAINER),
    manifest: {
      ...manifest(CONTAINER),
      metadata: { name: 'web', namespace: 'shop', labels: { 'app.kubernetes.io/name': 'web' } },
      status: { replicas: 9 },
    },
    expected: [{ path: 'metadata.labels', old: null, new: '{"app.kubernetes.io/name":"web"}' }],
  },
  {
    name: 'a long value is cut at 80 characters with …',
    live: liveDeployment(CONTAINER),
    manifest: manifest({ ...CONTAINER, image: `registry.example.com/${'a'.repeat(100)}:1` }),
    expected: [
      {
        path: 'spec.template.spec.containers[0].image',
        old: 'nginx:1.27.3',
        new: `registry.example.com/${'a'.repeat(58)}…`,
      },
    ],
  },
];

describe('fieldChanges: what kubectl apply changes on a live object', () => {
  for (const row of CASES) {
    test(row.name, () => {
      assert.deepEqual(fieldChanges(row.live, row.manifest, lastAppliedOf(row.live)), row.expected);
    });
  }

  test('paths are written as kubectl explain writes fields, with quoted keys that are not plain words', () => {
    assert.equal(formatChangePath(['spec', 'containers', 0, 'image']), 'spec.containers[0].image');
    assert.equal(
      formatChangePath(['metadata', 'annotations', 'example.com/team']),
      'metadata.annotations["example.com/team"]',
    );
  });

  test('a last applied configuration that is not JSON is no configuration (nothing is removed)', () => {
    const live = liveDeployment(CONTAINER, {
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{not json' },
    });
    assert.equal(lastAppliedOf(live), undefined);
    assert.deepEqual(fieldChanges(live, manifest(CONTAINER), lastAppliedOf(live)), []);
  });
});
