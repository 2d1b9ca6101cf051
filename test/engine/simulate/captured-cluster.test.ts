/**
 * A cluster as `kubectl get … -A -o yaml` exports it (examples/captured/.foresight/cluster.yaml: defaults, status,
 * managedFields, ControllerRevisions, a terminating pod) with the manifests that made it: applying them unchanged
 * predicts nothing happening; a change rolls out, and returning to an earlier template reuses its revision.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { isUnchangedByApply } from '../../../server/src/engine/scenario/state/applied-template';
import { simulate } from '../../../server/src/engine/simulate/simulate';

const FOLDER = join(__dirname, '../../../examples/captured');

function read(file: string, edit: (text: string) => string = (text) => text): SourcedObject[] {
  const text = edit(readFileSync(join(FOLDER, file), 'utf8'));
  return parseAllDocuments(text).map((document, documentIndex) => ({
    object: document.toJS() as unknown,
    source: { file, documentIndex, path: [] },
  }));
}

function run(edit?: (text: string) => string, cluster = read('.foresight/cluster.yaml')) {
  return simulate({ manifests: read('web.yaml', edit), cluster, version: '1.35' }).report;
}

describe('a captured cluster re-applied', () => {
  test('unchanged: no rollout, no pod created or moved, every pod where the capture has it', () => {
    const report = run();
    assert.deepEqual(report.rollouts, []);
    const created = (report.events ?? []).filter((event) => event.type === 'PodCreated' && event.time > 0);
    assert.deepEqual(created, []);
    assert.deepEqual(
      report.pods.map((pod) => [pod.name, pod.owner?.kind, pod.nodeName]),
      [
        ['catalog-6c9f7d8b5d-x7k2p', 'Deployment', 'gke-shop-pool-1-a8c2'],
        ['catalog-6c9f7d8b5d-q9v4m', 'Deployment', 'gke-shop-pool-1-k3d9'],
        ['cart-db-0', 'StatefulSet', 'gke-shop-pool-1-a8c2'],
        ['cart-db-1', 'StatefulSet', 'gke-shop-pool-1-k3d9'],
        ['node-exporter-h4k7w', 'DaemonSet', 'gke-shop-pool-1-a8c2'],
        ['node-exporter-t8r2z', 'DaemonSet', 'gke-shop-pool-1-k3d9'],
      ],
    );
    assert.deepEqual(
      report.findings.filter((finding) => finding.severity !== 'information'),
      [],
    );
  });

  test('each pod running in the capture is one PodCreated at time 0 with its node and phase, not three changes', () => {
    // The first pod listed (catalog-6c9f7d8b5d-x7k2p) made not Ready: its phase is Running.
    const cluster = read('.foresight/cluster.yaml', (text) => {
      const at = text.indexOf(
        "      status: 'True'\n      type: Ready\n",
        text.indexOf('name: catalog-6c9f7d8b5d-x7k2p'),
      );
      return `${text.slice(0, at)}      status: 'False'${text.slice(at + "      status: 'True'".length)}`;
    });
    const report = run(undefined, cluster);
    const running = ['catalog-6c9f7d8b5d-x7k2p', 'cart-db-0', 'node-exporter-h4k7w'];
    const initial = (report.events ?? []).filter(
      (event) => event.time === 0 && running.includes(event.object.name),
    );
    assert.deepEqual(
      initial.map((event) => [
        event.object.name,
        event.type,
        event.node,
        event.details?.phase,
        event.message,
      ]),
      [
        [
          'catalog-6c9f7d8b5d-x7k2p',
          'PodCreated',
          'gke-shop-pool-1-a8c2',
          'Running',
          'Running but not Ready on gke-shop-pool-1-a8c2 before the simulation',
        ],
        [
          'cart-db-0',
          'PodCreated',
          'gke-shop-pool-1-a8c2',
          'Ready',
          'Ready on gke-shop-pool-1-a8c2 before the simulation',
        ],
        [
          'node-exporter-h4k7w',
          'PodCreated',
          'gke-shop-pool-1-a8c2',
          'Ready',
          'Ready on gke-shop-pool-1-a8c2 before the simulation',
        ],
      ],
    );
  });

  test('the terminating pod of the old ReplicaSet goes away; nothing replaces it', () => {
    const report = run();
    const gone = (report.events ?? []).filter((event) => event.object.name === 'catalog-7b4d9c6f88-m2n8r');
    assert.ok(gone.some((event) => event.type === 'PodDeleted'));
    assert.equal(
      report.pods.some((pod) => pod.name.startsWith('catalog-7b4d9c6f88')),
      false,
    );
  });

  test('a new image rolls the Deployment to a new ReplicaSet; the previous image returns to its own ReplicaSet', () => {
    const updated = run((text) => text.replace('nginx:1.27.3', 'nginx:1.27.4'));
    const rollout = updated.rollouts?.find((entry) => entry.kind === 'Deployment');
    assert.equal(rollout?.outcome, 'Complete');
    assert.ok(updated.pods.every((pod) => !pod.name.startsWith('catalog-6c9f7d8b5d')));
    // getNewReplicaSet: the old ReplicaSet whose template equals the applied one is scaled up again.
    const rolledBack = run((text) => text.replace('nginx:1.27.3', 'nginx:1.27.2'));
    const names = rolledBack.pods.filter((pod) => pod.owner?.kind === 'Deployment').map((pod) => pod.name);
    assert.equal(names.length, 2);
    assert.ok(
      names.every((name) => name.startsWith('catalog-7b4d9c6f88-')),
      names.join(', '),
    );
  });

  test('a StatefulSet whose template changes gets a new revision; its pods are recreated from the highest ordinal', () => {
    const report = run((text) => text.replace('redis:7.4', 'redis:7.4.1'));
    const rollout = report.rollouts?.find((entry) => entry.kind === 'StatefulSet');
    assert.equal(rollout?.outcome, 'Complete');
    assert.match(
      rollout?.message ?? '',
      /^statefulset rolling update complete 2 pods at revision cart-db-(?!7d9c5b8f6c)/,
    );
    const deleted = (report.events ?? [])
      .filter((event) => event.type === 'PodDeleted' && event.object.name.startsWith('cart-db-'))
      .map((event) => event.object.name);
    assert.deepEqual(deleted, ['cart-db-1', 'cart-db-0']);
  });

  test('a DaemonSet whose template changes rolls; unchanged (with a different replica count elsewhere) it does not', () => {
    const report = run((text) => text.replace('prom/node-exporter:v1.8.2', 'prom/node-exporter:v1.8.3'));
    assert.deepEqual(
      report.rollouts?.map((entry) => [entry.kind, entry.outcome]),
      [['DaemonSet', 'Complete']],
    );
    const scaled = run((text) =>
      text.replace(
        '  replicas: 2\n  selector:\n    matchLabels: {app: catalog}',
        '  replicas: 3\n  selector:\n    matchLabels: {app: catalog}',
      ),
    );
    assert.equal(scaled.pods.filter((pod) => pod.owner?.name === 'catalog').length, 3);
    assert.deepEqual(
      (scaled.rollouts ?? []).map((entry) => entry.kind),
      ['Deployment'],
    );
  });

  test('a field the last applied configuration had and the manifest drops is removed: the template changes', () => {
    const withEnv = (text: string): string =>
      text
        .replaceAll(
          '        - image: nginx:1.27.3\n',
          '        - env:\n          - name: MODE\n            value: fast\n          image: nginx:1.27.3\n',
        )
        .replace(
          "      deployment.kubernetes.io/revision: '3'\n",
          `      deployment.kubernetes.io/revision: '3'\n      kubectl.kubernetes.io/last-applied-configuration: '{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"MODE","value":"fast"}]}]}}}}'\n`,
        );
    // The live template has the env var the last apply set; the manifest no longer sets it: the apply removes it.
    const removed = run(undefined, read('.foresight/cluster.yaml', withEnv));
    assert.deepEqual(
      (removed.rollouts ?? []).map((entry) => entry.kind),
      ['Deployment'],
    );
    // Without the annotation the env var is not the manifest's to remove (another writer set it): no change.
    const kept = run(
      undefined,
      read('.foresight/cluster.yaml', (text) =>
        withEnv(text).replace(/ {6}kubectl\.kubernetes\.io\/last-applied-configuration: .*\n/, ''),
      ),
    );
    assert.deepEqual(kept.rollouts, []);
  });

  test('objects of the capture the simulation does not read are named once, with their counts', () => {
    const cluster = [
      ...read('.foresight/cluster.yaml'),
      ...['a', 'b'].map((name, index) => ({
        object: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: 'store' } },
        source: { file: 'extra.yaml', documentIndex: index, path: [] },
      })),
      {
        object: {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: { name: 'web', namespace: 'store' },
        },
        source: { file: 'extra.yaml', documentIndex: 2, path: [] },
      },
    ];
    const notes = run(undefined, cluster).findings.filter((finding) => finding.code === 'ignored-object');
    assert.deepEqual(
      notes.map((note) => note.message),
      ['not used by the simulation, in the cluster file: 2 Endpoints, 1 Ingress'],
    );
  });
});

describe('isUnchangedByApply (kubectl apply over a live, defaulted object)', () => {
  const live = {
    metadata: { creationTimestamp: null, labels: { app: 'web' } },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          imagePullPolicy: 'IfNotPresent',
          terminationMessagePath: '/dev/termination-log',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          resources: { requests: { cpu: '500m', memory: '1Gi' } },
        },
        { name: 'sidecar', image: 'envoy:1' },
      ],
      dnsPolicy: 'ClusterFirst',
    },
  };
  const cases: { name: string; manifest: unknown; lastApplied?: unknown; expected: boolean }[] = [
    {
      name: 'the manifest without the API server defaults',
      manifest: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.27',
              ports: [{ containerPort: 80 }],
              resources: { requests: { cpu: 0.5, memory: '1Gi' } },
            },
            { name: 'sidecar', image: 'envoy:1' },
          ],
        },
      },
      expected: true,
    },
    {
      name: 'containers matched by name, whatever their order',
      manifest: {
        spec: {
          containers: [
            { name: 'sidecar', image: 'envoy:1' },
            { name: 'web', image: 'nginx:1.27' },
          ],
        },
      },
      expected: true,
    },
    {
      name: 'a different image',
      manifest: {
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.28' },
            { name: 'sidecar', image: 'envoy:1' },
          ],
        },
      },
      expected: false,
    },
    {
      name: 'a quantity of another value ("600m")',
      manifest: {
        spec: {
          containers: [{ name: 'web', resources: { requests: { cpu: '600m' } } }, { name: 'sidecar' }],
        },
      },
      expected: false,
    },
    {
      name: 'a container fewer',
      manifest: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
      expected: false,
    },
    {
      name: 'a label added',
      manifest: { metadata: { labels: { app: 'web', tier: 'front' } } },
      expected: false,
    },
    {
      name: 'a field the last applied configuration set and the manifest no longer has',
      manifest: {
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.27' },
            { name: 'sidecar', image: 'envoy:1' },
          ],
        },
      },
      lastApplied: {
        spec: { dnsPolicy: 'ClusterFirst', containers: [{ name: 'web', image: 'nginx:1.27' }] },
      },
      expected: false,
    },
  ];
  for (const { name, manifest, lastApplied, expected } of cases) {
    test(name, () => {
      assert.equal(isUnchangedByApply(live, manifest, lastApplied), expected);
    });
  }
});

describe('what a captured cluster says about time and taints', () => {
  const node = (name: string, taints: unknown[] = []) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: { taints },
    status: { allocatable: { cpu: '1', memory: '4Gi', pods: '110' } },
  });
  const running = (
    name: string,
    nodeName: string,
    startTime: string,
    extra: Record<string, unknown> = {},
  ) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      nodeName,
      containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '500m' } } }],
      ...extra,
    },
    status: { phase: 'Running', startTime },
  });
  const sourced = (objects: unknown[], file: string): SourcedObject[] =>
    objects.map((object, documentIndex) => ({ object, source: { file, documentIndex, path: [] } }));

  test('preemption takes the later-started of two equal-priority pods (MoreImportantPod)', () => {
    const urgent = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'urgent', namespace: 'default' },
      spec: {
        priority: 1000,
        containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '500m' } } }],
      },
    };
    const cluster = sourced(
      [
        node('w1'),
        // Listed (and so placed) first, but started later: it is the less important of the two.
        running('young', 'w1', '2026-06-01T00:00:00Z'),
        running('old', 'w1', '2026-01-01T00:00:00Z'),
      ],
      'cluster.yaml',
    );
    const report = simulate({ manifests: sourced([urgent], 'app.yaml'), cluster, version: '1.35' }).report;
    assert.deepEqual(report.pods.find((pod) => pod.name === 'urgent')?.preempted, ['default/young']);
  });

  test('a NoExecute taint already on a captured node evicts what does not tolerate it, now or after tolerationSeconds', () => {
    const cluster = sourced(
      [
        node('w1'),
        node('w2', [{ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }]),
        running('intolerant', 'w2', '2026-01-01T00:00:00Z'),
        running('tolerant', 'w2', '2026-01-01T00:00:00Z', {
          tolerations: [
            {
              key: 'dedicated',
              operator: 'Equal',
              value: 'gpu',
              effect: 'NoExecute',
              tolerationSeconds: 120,
            },
          ],
        }),
        running('forever', 'w2', '2026-01-01T00:00:00Z', {
          tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }],
        }),
      ],
      'cluster.yaml',
    );
    const report = simulate({ manifests: [], cluster, version: '1.35' }).report;
    const evicted = (report.events ?? [])
      .filter((event) => event.type === 'PodEvicted')
      .map((event) => [event.object.name, event.time]);
    assert.deepEqual(evicted, [
      ['intolerant', 0],
      ['tolerant', 120],
    ]);
  });

  test('a pod scheduled to a not-ready node it tolerates for 300 s (DefaultTolerationSeconds) is evicted after them', () => {
    const cluster = sourced(
      [node('w1', [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }])],
      'cluster.yaml',
    );
    const manifest = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '100m' } } }] },
    };
    const report = simulate({ manifests: sourced([manifest], 'app.yaml'), cluster, version: '1.35' }).report;
    const events = (report.events ?? []).filter((event) => event.object.name === 'p');
    assert.equal(events.find((event) => event.type === 'PodScheduled')?.node, 'w1');
    assert.equal(events.find((event) => event.type === 'PodEvicted')?.time, 300);
  });

  test('a Failed StatefulSet pod of the capture is deleted, then its ordinal created again (processReplica)', () => {
    const cluster = read('.foresight/cluster.yaml', (text) => {
      const at = text.indexOf('    name: cart-db-1\n');
      const phase = text.indexOf('    phase: Running', at);
      return `${text.slice(0, phase)}    phase: Failed${text.slice(phase + '    phase: Running'.length)}`;
    });
    const report = run(undefined, cluster);
    const events = (report.events ?? [])
      .filter((event) => event.object.name === 'cart-db-1')
      .slice(0, 2)
      .map((event) => [event.type, event.message]);
    assert.deepEqual(events, [
      ['PodDeleted', 'delete Pod cart-db-1 in StatefulSet cart-db successful'],
      ['PodCreated', 'create Pod cart-db-1 in StatefulSet cart-db successful'],
    ]);
  });
});

describe('disruption budgets over what a cluster runs (disruption_test.go)', () => {
  const sourced = (objects: unknown[], file: string): SourcedObject[] =>
    objects.map((object, documentIndex) => ({ object, source: { file, documentIndex, path: [] } }));
  const nodes = ['w1', 'w2'].map((name) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
  }));
  const budget = (rule: Record<string, unknown>) => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'app', namespace: 'default' },
    spec: { ...rule, selector: { matchLabels: { app: 'app' } } },
  });
  const container = { name: 'c', image: 'busybox', resources: { requests: { cpu: '100m' } } };

  test("TestReplicationController: a ReplicationController's scale counts for a percentage budget", () => {
    const controller = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'app', namespace: 'default' },
      spec: {
        replicas: 3,
        selector: { app: 'app' },
        template: { metadata: { labels: { app: 'app' } }, spec: { containers: [container] } },
      },
    };
    const report = simulate({
      manifests: sourced([controller, budget({ minAvailable: '50%' })], 'app.yaml'),
      cluster: sourced(nodes, 'cluster.yaml'),
      version: '1.35',
    }).report;
    const status = report.disruptionBudgets?.[0];
    assert.deepEqual(
      [status?.expectedPods, status?.desiredHealthy, status?.currentHealthy, status?.disruptionsAllowed],
      [3, 2, 3, 1],
    );
  });

  test('TestUnmanagedPods: a pod without a controller is healthy but not part of the expected scale', () => {
    const bare = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bare', namespace: 'default', labels: { app: 'app' } },
      spec: { containers: [container] },
    };
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'app', namespace: 'default' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'app' } },
        template: { metadata: { labels: { app: 'app' } }, spec: { containers: [container] } },
      },
    };
    const report = simulate({
      manifests: sourced([deployment, bare, budget({ maxUnavailable: 1 })], 'app.yaml'),
      cluster: sourced(nodes, 'cluster.yaml'),
      version: '1.35',
    }).report;
    const status = report.disruptionBudgets?.[0];
    assert.deepEqual(
      [status?.expectedPods, status?.desiredHealthy, status?.currentHealthy, status?.disruptionsAllowed],
      [2, 1, 3, 2],
    );
  });
});
