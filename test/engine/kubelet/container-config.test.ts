import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkPodConfig } from '../../../server/src/engine/kubelet/container-config';
import { lookUpConfig, readConfigObjects } from '../../../server/src/engine/model/load/config-objects';
import { sourced } from '../../support/timeline-builders';

const configMap = (name: string, data: Record<string, string>, namespace = 'test') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data,
});
const secret = (name: string, data: Record<string, string>, namespace = 'test') => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace },
  data,
});

/** A cluster file that lists namespace test's ConfigMaps and Secrets, so a missing one is certain. */
const listed = readConfigObjects(
  sourced(
    [configMap('test-config-map', { REPLICAS: '1', DUPE: 'x' }), secret('test-secret', { PASSWORD: 'cA==' })],
    'cluster.yaml',
  ),
  [],
);

const pod = (containers: unknown[], extra: Record<string, unknown> = {}) => ({ containers, ...extra });

describe('checkPodConfig: env and envFrom (after kubelet_pods_test.go TestMakeEnvironmentVariables)', () => {
  const cases: {
    name: string;
    spec: unknown;
    expected: { reason: string; message: string; path: unknown[] } | null;
  }[] = [
    {
      name: "configmap_missing: envFrom of a ConfigMap that does not exist fails with the cache's NotFound",
      spec: pod([{ name: 'app', envFrom: [{ configMapRef: { name: 'missing-config-map' } }] }]),
      expected: {
        reason: 'CreateContainerConfigError',
        message: 'configmap "missing-config-map" not found',
        path: ['containers', 0, 'envFrom', 0, 'configMapRef', 'name'],
      },
    },
    {
      name: 'configmap_missing_optional: an optional envFrom ConfigMap that does not exist is skipped',
      spec: pod([
        { name: 'app', envFrom: [{ configMapRef: { name: 'missing-config-map', optional: true } }] },
      ]),
      expected: null,
    },
    {
      name: 'configmap: envFrom of an existing ConfigMap starts',
      spec: pod([{ name: 'app', envFrom: [{ configMapRef: { name: 'test-config-map' } }] }]),
      expected: null,
    },
    {
      name: 'secret_missing: envFrom of a Secret that does not exist',
      spec: pod([{ name: 'app', envFrom: [{ secretRef: { name: 'missing-secret' } }] }]),
      expected: {
        reason: 'CreateContainerConfigError',
        message: 'secret "missing-secret" not found',
        path: ['containers', 0, 'envFrom', 0, 'secretRef', 'name'],
      },
    },
    {
      name: 'secret_missing_optional: an optional envFrom Secret is skipped',
      spec: pod([{ name: 'app', envFrom: [{ secretRef: { name: 'missing-secret', optional: true } }] }]),
      expected: null,
    },
    {
      name: 'configMapKeyRef to a key the ConfigMap lacks: "couldn\'t find key" with namespace/name',
      spec: pod([
        {
          name: 'app',
          env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'test-config-map', key: 'mode' } } }],
        },
      ]),
      expected: {
        reason: 'CreateContainerConfigError',
        message: "couldn't find key mode in ConfigMap test/test-config-map",
        path: ['containers', 0, 'env', 0, 'valueFrom', 'configMapKeyRef', 'key'],
      },
    },
    {
      name: 'secretKeyRef to a missing key of an existing Secret',
      spec: pod([
        {
          name: 'app',
          env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'test-secret', key: 'TOKEN' } } }],
        },
      ]),
      expected: {
        reason: 'CreateContainerConfigError',
        message: "couldn't find key TOKEN in Secret test/test-secret",
        path: ['containers', 0, 'env', 0, 'valueFrom', 'secretKeyRef', 'key'],
      },
    },
    {
      name: 'an optional key ref whose key is missing is skipped',
      spec: pod([
        {
          name: 'app',
          env: [
            {
              name: 'M',
              valueFrom: { configMapKeyRef: { name: 'test-config-map', key: 'mode', optional: true } },
            },
          ],
        },
      ]),
      expected: null,
    },
    {
      name: 'envFrom is read before env: the envFrom error is reported even when env also fails',
      spec: pod([
        {
          name: 'app',
          env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }],
          envFrom: [{ configMapRef: { name: 'missing-config-map' } }],
        },
      ]),
      expected: {
        reason: 'CreateContainerConfigError',
        message: 'configmap "missing-config-map" not found',
        path: ['containers', 0, 'envFrom', 0, 'configMapRef', 'name'],
      },
    },
    {
      name: "init containers are created before app containers: the init container's error comes first",
      spec: pod([{ name: 'app', envFrom: [{ secretRef: { name: 'missing-secret' } }] }], {
        initContainers: [{ name: 'migrate', envFrom: [{ configMapRef: { name: 'missing-config-map' } }] }],
      }),
      expected: {
        reason: 'CreateContainerConfigError',
        message: 'configmap "missing-config-map" not found',
        path: ['initContainers', 0, 'envFrom', 0, 'configMapRef', 'name'],
      },
    },
    {
      name: 'kube-root-ca.crt exists in every namespace (the root CA publisher)',
      spec: pod([
        {
          name: 'app',
          env: [{ name: 'CA', valueFrom: { configMapKeyRef: { name: 'kube-root-ca.crt', key: 'ca.crt' } } }],
        },
      ]),
      expected: null,
    },
  ];
  for (const { name, spec, expected } of cases) {
    test(name, () => {
      const check = checkPodConfig(spec, 'test', listed);
      const failure = check.failure;
      assert.deepEqual(
        failure === null
          ? null
          : { reason: failure.reason, message: failure.message, path: [...failure.path] },
        expected,
      );
    });
  }
});

describe('checkPodConfig: volumes (after pkg/volume/configmap, secret and projected tests)', () => {
  const cases: { name: string; volumes: unknown[]; expected: { message: string; path: unknown[] } | null }[] =
    [
      {
        name: 'a configMap volume whose ConfigMap does not exist fails SetUp: NotFound as the cache of the kubelet words it',
        volumes: [{ name: 'config', configMap: { name: 'settings' } }],
        expected: {
          message: 'MountVolume.SetUp failed for volume "config" : configmap "settings" not found',
          path: ['volumes', 0, 'configMap', 'name'],
        },
      },
      {
        name: 'TestPluginOptional: an optional configMap volume mounts empty',
        volumes: [{ name: 'config', configMap: { name: 'settings', optional: true } }],
        expected: null,
      },
      {
        name: 'TestMakePayload "non existent key": an item naming a key the ConfigMap lacks',
        volumes: [
          { name: 'config', configMap: { name: 'test-config-map', items: [{ key: 'missing', path: 'm' }] } },
        ],
        expected: {
          message:
            'MountVolume.SetUp failed for volume "config" : configmap references non-existent config key: missing',
          path: ['volumes', 0, 'configMap', 'items', 0, 'key'],
        },
      },
      {
        name: 'TestMakePayload (secret) "non existent key": the wording of the secret plugin',
        volumes: [
          { name: 'creds', secret: { secretName: 'test-secret', items: [{ key: 'TOKEN', path: 't' }] } },
        ],
        expected: {
          message: 'MountVolume.SetUp failed for volume "creds" : references non-existent secret key: TOKEN',
          path: ['volumes', 0, 'secret', 'items', 0, 'key'],
        },
      },
      {
        name: 'TestPluginKeysOptional / "optional non existent key": an optional volume skips a missing key',
        volumes: [
          {
            name: 'config',
            configMap: { name: 'test-config-map', optional: true, items: [{ key: 'missing', path: 'm' }] },
          },
        ],
        expected: null,
      },
      {
        name: 'a secret volume whose Secret does not exist',
        volumes: [{ name: 'creds', secret: { secretName: 'db' } }],
        expected: {
          message: 'MountVolume.SetUp failed for volume "creds" : secret "db" not found',
          path: ['volumes', 0, 'secret', 'secretName'],
        },
      },
      {
        name: "a projected volume reads each source: the second source's missing Secret fails it",
        volumes: [
          {
            name: 'all',
            projected: { sources: [{ configMap: { name: 'test-config-map' } }, { secret: { name: 'db' } }] },
          },
        ],
        expected: {
          message: 'MountVolume.SetUp failed for volume "all" : secret "db" not found',
          path: ['volumes', 0, 'projected', 'sources', 1, 'secret', 'name'],
        },
      },
      {
        name: 'downwardAPI and emptyDir volumes read no object',
        volumes: [
          { name: 'info', downwardAPI: { items: [] } },
          { name: 'scratch', emptyDir: {} },
        ],
        expected: null,
      },
    ];
  for (const { name, volumes, expected } of cases) {
    test(name, () => {
      const check = checkPodConfig(pod([{ name: 'app' }], { volumes }), 'test', listed);
      const failure = check.failure;
      assert.deepEqual(
        failure === null ? null : { message: failure.message, path: [...failure.path] },
        expected,
      );
      if (failure !== null) {
        assert.equal(failure.reason, 'ContainerCreating');
        assert.equal(failure.event.reason, 'FailedMount');
        assert.equal(failure.container, null);
      }
    });
  }

  test("a volume fails before any container: the mount error wins over a container's env error", () => {
    const spec = pod([{ name: 'app', envFrom: [{ secretRef: { name: 'missing-secret' } }] }], {
      volumes: [{ name: 'config', configMap: { name: 'settings' } }],
    });
    assert.equal(checkPodConfig(spec, 'test', listed).failure?.reason, 'ContainerCreating');
  });
});

describe('what the cluster file can confirm', () => {
  test('a namespace whose ConfigMaps the cluster file does not list: the reference is assumed, not an error', () => {
    const spec = pod([{ name: 'app', envFrom: [{ configMapRef: { name: 'settings' } }] }]);
    const check = checkPodConfig(spec, 'other', listed);
    assert.equal(check.failure, null);
    assert.deepEqual(
      check.assumptions.map((a) => [a.kind, a.namespace, a.name, a.without]),
      [['ConfigMap', 'other', 'settings', 'configmap "settings" not found']],
    );
  });

  test('listing ConfigMaps says nothing of Secrets: a missing Secret in the same namespace is assumed', () => {
    const onlyConfigMaps = readConfigObjects(sourced([configMap('a', {})], 'cluster.yaml'), []);
    assert.deepEqual(lookUpConfig(onlyConfigMaps, 'ConfigMap', 'test', 'b'), { found: false, certain: true });
    assert.deepEqual(lookUpConfig(onlyConfigMaps, 'Secret', 'test', 'b'), { found: false, certain: false });
  });

  test('the embedded default cluster (no cluster file) confirms only what the manifests hold', () => {
    const objects = readConfigObjects(null, sourced([secret('db', { url: 'eA==' })], 'app.yaml'));
    assert.deepEqual(lookUpConfig(objects, 'Secret', 'test', 'db'), { found: true, keys: new Set(['url']) });
    assert.deepEqual(lookUpConfig(objects, 'Secret', 'test', 'other'), { found: false, certain: false });
  });

  test("a Secret's stringData keys count as keys, as the API server merges them into data", () => {
    const objects = readConfigObjects(
      null,
      sourced(
        [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { token: 'x' } }],
        'app.yaml',
      ),
    );
    assert.deepEqual(lookUpConfig(objects, 'Secret', 'default', 's'), {
      found: true,
      keys: new Set(['token']),
    });
  });
});
