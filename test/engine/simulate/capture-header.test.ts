/**
 * A capture's header (model/load/capture-header.ts) through simulate(): a covered kind is complete, so what it lacks is
 * missing and the kubelet's, the scheduler's or admission's failure follows; an uncovered kind stays assumed, and
 * the note says the capture lacks it; a file without a header keeps the older rule. The header's time starts the
 * clocks; its server version is compared with the one predicted.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { readCaptureHeader } from '../../../server/src/engine/model/load/capture-header';
import { versionForServer } from '../../../server/src/engine/simulate/capture-version';
import { simulate } from '../../../server/src/engine/simulate/simulate';
import type { SimulationResult } from '../../../server/src/engine/simulate/simulate';
import type { KubernetesMinor } from '../../../server/src/engine/version';

const node = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } },
  status: {
    capacity: { cpu: '4', memory: '16Gi', pods: '110' },
    allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
  },
};
const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

/** A Capture header covering these resources. */
function header(kinds: readonly string[], extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'foresight/v1',
    kind: 'Capture',
    spec: { context: 'prod', capturedAt: '2026-03-02T10:15:00Z', serverVersion: 'v1.35.1', kinds, ...extra },
  };
}

function sourced(objects: readonly unknown[], file: string): SourcedObject[] {
  return objects.map((object, documentIndex) => ({ object, source: { file, documentIndex, path: [] } }));
}

function run(
  cluster: readonly unknown[],
  pod: Record<string, unknown>,
  version: KubernetesMinor = '1.35',
): SimulationResult {
  return simulate({
    manifests: sourced(
      [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'app', namespace: 'shop' }, spec: pod }],
      'app.yaml',
    ),
    cluster: sourced(cluster, 'cluster.yaml'),
    version,
  });
}

const WITH_SECRET_ENV = {
  containers: [
    {
      name: 'app',
      image: 'shop:1',
      env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'api-token', key: 'token' } } }],
    },
  ],
};

const codes = (result: SimulationResult) => result.findings.map((finding) => finding.code);

describe('a capture header: what a covered kind lacks does not exist', () => {
  test("a Secret the capture's Secrets do not include: CreateContainerConfigError with the kubelet's message", () => {
    const result = run(
      [header(['nodes', 'namespaces', 'secrets']), node, namespace('shop')],
      WITH_SECRET_ENV,
    );
    const pod = result.report.pods.find((entry) => entry.name === 'app');
    assert.deepEqual(pod?.waiting, {
      reason: 'CreateContainerConfigError',
      message: 'secret "api-token" not found',
    });
    assert.ok(codes(result).includes('container-cannot-start'));
    assert.equal(result.report.cluster.kind, 'capture');
  });

  test('the same file without the header assumes the Secret exists, with a note', () => {
    const result = run([node, namespace('shop')], WITH_SECRET_ENV);
    assert.equal(result.report.pods.find((entry) => entry.name === 'app')?.waiting, undefined);
    const note = result.findings.find((finding) => finding.code === 'config-object-assumed');
    assert.equal(
      note?.message,
      'Secret "api-token" is not in the manifests; the cluster is assumed to have it in namespace "shop" (without it, the pods never start: secret "api-token" not found)',
    );
    assert.equal(result.report.cluster.kind, 'file');
  });

  test('a header that does not cover Secrets keeps the assumption, and the note says the capture lacks them', () => {
    const result = run(
      [header(['nodes', 'namespaces', 'configmaps']), node, namespace('shop')],
      WITH_SECRET_ENV,
    );
    const note = result.findings.find((finding) => finding.code === 'config-object-assumed');
    assert.match(note?.message ?? '', /\(the capture does not include secrets, so it cannot tell\)$/);
    assert.equal(result.report.pods.find((entry) => entry.name === 'app')?.waiting, undefined);
  });

  test("a claim the capture's claims do not include: the pod stays Pending (VolumeBinding)", () => {
    const spec = {
      containers: [{ name: 'app', image: 'shop:1' }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-app' } }],
    };
    const covered = run([header(['nodes', 'persistentvolumeclaims']), node], spec);
    const pod = covered.report.pods.find((entry) => entry.name === 'app');
    assert.equal(pod?.nodeName, null);
    assert.match(pod?.unschedulable?.message ?? '', /persistentvolumeclaim "data-app" not found/);
    const plain = run([node], spec);
    assert.equal(plain.report.pods.find((entry) => entry.name === 'app')?.nodeName, 'node-1');
    assert.ok(codes(plain).includes('claim-assumed'));
  });

  test('a service account the capture does not include: the pod is refused by the ServiceAccount admission plugin', () => {
    const spec = { serviceAccountName: 'deployer', containers: [{ name: 'app', image: 'shop:1' }] };
    const covered = run([header(['nodes', 'namespaces', 'serviceaccounts']), node, namespace('shop')], spec);
    assert.deepEqual(
      covered.report.rejected.map((entry) => [entry.plugin, entry.message]),
      [
        [
          'ServiceAccount',
          'pods "app" is forbidden: error looking up service account shop/deployer: serviceaccount "deployer" not found',
        ],
      ],
    );
    const plain = run([node, namespace('shop')], spec);
    assert.deepEqual(plain.report.rejected, []);
    assert.ok(codes(plain).includes('service-account-assumed'));
  });
});

describe("a capture header's time and version", () => {
  test('capturedAt starts the taint manager clock: a pod that has tolerated a NoExecute taint for 245 of its 300 s goes at t=55', () => {
    const tainted = {
      ...node,
      spec: { taints: [{ key: 'maintenance', effect: 'NoExecute', timeAdded: '2026-03-02T10:10:55Z' }] },
    };
    const running = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'old', namespace: 'shop', creationTimestamp: '2026-03-01T00:00:00Z' },
      spec: {
        nodeName: 'node-1',
        containers: [{ name: 'app', image: 'shop:1' }],
        tolerations: [
          { key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      },
      status: { phase: 'Running', startTime: '2026-03-01T00:00:00Z' },
    };
    const deletedAt = (cluster: readonly unknown[]): number | undefined =>
      run(cluster, {
        containers: [{ name: 'app', image: 'shop:1' }],
        nodeName: 'node-1',
      }).report.events?.find(
        (event) =>
          (event.type === 'PodEvicted' || event.type === 'PodDeleted') && event.object.name === 'old',
      )?.time;
    // Time 0 is capturedAt, 10:15:00; the taint was added at 10:10:55: 245 s of the 300 are spent. Without the
    // header nothing says when the clock started, and it starts at time 0.
    assert.equal(deletedAt([header(['nodes', 'pods']), tainted, running]), 55);
    assert.equal(deletedAt([tainted, running]), 300);
  });

  test('the server version differing from the one predicted is noted; the same one is not', () => {
    const cluster = [header(['nodes']), node];
    const pod = { containers: [{ name: 'app', image: 'shop:1' }] };
    const differs = run(cluster, pod, '1.34').findings.find(
      (finding) => finding.code === 'capture-version-differs',
    );
    assert.equal(
      differs?.message,
      'The captured API server runs v1.35.1; predictions use Kubernetes 1.34, as asked (--kubernetes-version, or the setting kubeForesight.kubernetesVersion).',
    );
    assert.ok(!codes(run(cluster, pod, '1.35')).includes('capture-version-differs'));
    const old = run([header(['nodes'], { serverVersion: 'v1.30.4' }), node], pod, '1.33');
    assert.match(
      old.findings.find((finding) => finding.code === 'capture-version-differs')?.message ?? '',
      /runs v1\.30\.4, which is not a version predicted here \(1\.33–1\.35\); predictions use Kubernetes 1\.33, the nearest/,
    );
  });
});

describe('versionForServer: the default version of a capture', () => {
  const cases: [string, string | null][] = [
    ['v1.34.2', '1.34'],
    ['v1.35.0-gke.1200000', '1.35'],
    ['v1.33.5-eks-3025e55', '1.33'],
    ['v1.30.4', '1.33'],
    ['v1.36.0', '1.35'],
    ['2.0.0', '1.35'],
    ['latest', null],
  ];
  for (const [served, expected] of cases) {
    test(`${served} → ${String(expected)}`, () => {
      assert.equal(versionForServer(served), expected);
    });
  }
});

describe('readCaptureHeader', () => {
  const read = (spec: unknown) =>
    readCaptureHeader(sourced([{ apiVersion: 'foresight/v1', kind: 'Capture', spec }], 'c.yaml'));

  test('reads the four fields', () => {
    const { header: read1, findings } = read({
      context: 'prod',
      capturedAt: '2026-03-02T10:15:00Z',
      serverVersion: 'v1.34.2',
      kinds: ['nodes', 'secrets'],
    });
    assert.deepEqual(findings, []);
    assert.equal(read1?.context, 'prod');
    assert.equal(read1?.capturedAtSeconds, Date.parse('2026-03-02T10:15:00Z') / 1000);
    assert.equal(read1?.serverVersion, 'v1.34.2');
    assert.deepEqual([...(read1?.kinds ?? [])], ['nodes', 'secrets']);
  });

  test('what it cannot read is reported and ignored', () => {
    const { header: read2, findings } = read({
      capturedAt: 'yesterday',
      serverVersion: 34,
      kinds: ['nodes', 'secret'],
    });
    assert.deepEqual(
      findings.map((finding) => [finding.code, (finding.path ?? []).join('.'), finding.message]),
      [
        [
          'capture-header-invalid',
          'spec.capturedAt',
          'Capture header: spec.capturedAt must be an RFC 3339 time such as "2026-03-02T10:15:00Z"',
        ],
        [
          'capture-header-invalid',
          'spec.serverVersion',
          'Capture header: spec.serverVersion must be a version such as "v1.34.2"',
        ],
        [
          'capture-header-invalid',
          'spec.kinds.1',
          `Capture header: "secret" is not a resource the simulation reads (kubectl get's plural names: nodes, pods, secrets, …); it is ignored`,
        ],
      ],
    );
    assert.equal(read2?.capturedAt, null);
    assert.deepEqual([...(read2?.kinds ?? [])], ['nodes']);
  });
});
