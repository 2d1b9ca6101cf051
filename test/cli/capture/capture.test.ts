/**
 * `foresight capture` driving the real kubectl (the one on PATH, as in CI) against the stand-in API server of
 * stand-in-api-server.ts on 127.0.0.1, with a kubeconfig in a temporary folder: what it writes (a Capture header,
 * then the objects), what it never writes (a Secret's values), what a user may not list (left out of the header,
 * with kubectl's message), and what happens without a cluster (kubectl's message, nothing written).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { loadAll } from 'js-yaml';
import { CAPTURE_RESOURCES } from '../../../server/src/engine/model/load/capture-resources';
import { parseCaptureProgress } from '../../../protocol/capture-progress';
import type { CliResult } from '../cli-harness';
import { ROOT, runForesight } from '../cli-harness';
import type { StandInOptions, StandInServer } from './stand-in-api-server';
import { startStandIn, standInKubeconfig } from './stand-in-api-server';

/** The objects of examples/captured (a cluster in kubectl's shape), plus a Secret and a ConfigMap. */
const SECRET_VALUE = 'hunter2-do-not-write';
const SECRET_BASE64 = Buffer.from(SECRET_VALUE).toString('base64');

function clusterObjects(): Record<string, unknown>[] {
  const [list] = loadAll(readFileSync(join(ROOT, 'examples/captured/.foresight/cluster.yaml'), 'utf8')) as [
    { items: Record<string, unknown>[] },
  ];
  return [
    ...list.items,
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'db-credentials',
        namespace: 'store',
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
            stringData: { password: SECRET_VALUE },
          }),
        },
      },
      type: 'Opaque',
      data: { password: SECRET_BASE64, username: Buffer.from('shop').toString('base64') },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'catalog-settings', namespace: 'store' },
      data: { 'log-level': 'info' },
    },
  ];
}

/** A scratch folder with a kubeconfig for `url`, and the environment kubectl runs with there. */
function workspace(url: string): { folder: string; env: Record<string, string> } {
  const folder = mkdtempSync(join(tmpdir(), 'foresight-capture-'));
  writeFileSync(join(folder, 'kubeconfig'), standInKubeconfig(url, 'stand-in-ctx'));
  // HOME in the folder: kubectl's discovery cache stays there.
  return {
    folder,
    env: { PATH: process.env['PATH'] ?? '', HOME: folder, KUBECONFIG: join(folder, 'kubeconfig') },
  };
}

/** Runs a capture against a stand-in with these options. */
async function capture(
  options: Partial<StandInOptions>,
  args: readonly string[] = [],
): Promise<{ result: CliResult; folder: string; server: StandInServer; env: Record<string, string> }> {
  const server = await startStandIn({ objects: clusterObjects(), gitVersion: 'v1.34.2', ...options });
  const { folder, env } = workspace(server.url);
  try {
    const result = await runForesight(['capture', ...args], { cwd: folder, env });
    return { result, folder, server, env };
  } finally {
    await server.close();
  }
}

/** The documents of a capture file. */
function documents(file: string): unknown[] {
  return loadAll(readFileSync(file, 'utf8'));
}

describe('foresight capture against the stand-in API server', () => {
  let full: Awaited<ReturnType<typeof capture>>;
  const started = Date.now();
  before(async () => {
    full = await capture({});
  });

  test('writes .foresight/cluster.yaml: a Capture header naming the context, the time, the server version and every resource', () => {
    assert.equal(full.result.code, 0, full.result.stderr);
    const file = join(full.folder, '.foresight/cluster.yaml');
    const [header, list] = documents(file) as [
      { apiVersion: string; kind: string; spec: Record<string, unknown> },
      { kind: string; items: { kind: string }[] },
    ];
    assert.equal(header.apiVersion, 'foresight/v1');
    assert.equal(header.kind, 'Capture');
    assert.equal(header.spec['context'], 'stand-in-ctx');
    assert.equal(header.spec['serverVersion'], 'v1.34.2');
    assert.deepEqual(
      header.spec['kinds'],
      CAPTURE_RESOURCES.map((entry) => entry.resource),
    );
    const capturedAt = Date.parse(String(header.spec['capturedAt']));
    assert.match(String(header.spec['capturedAt']), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.ok(capturedAt >= Math.floor(started / 1000) * 1000 && capturedAt <= Date.now());
    assert.equal(list.kind, 'List');
    assert.equal(list.items.length, clusterObjects().length);
    assert.ok(
      full.result.stdout.startsWith(
        `Captured ${clusterObjects().length} objects of 24 resources from context stand-in-ctx (v1.34.2)`,
      ),
      full.result.stdout,
    );
  });

  test('prints one progress line per resource, in order', () => {
    const steps = full.result.stderr
      .split('\n')
      .map(parseCaptureProgress)
      .filter((step) => step !== null);
    assert.deepEqual(
      steps.map((step) => `${step.done}/${step.total} ${step.resource}`),
      CAPTURE_RESOURCES.map((entry, index) => `${index + 1}/24 ${entry.resource}`),
    );
  });

  test('a Secret keeps its name and the names of its keys; no value, not even the last-applied one, is written', () => {
    const text = readFileSync(join(full.folder, '.foresight/cluster.yaml'), 'utf8');
    // The stand-in did send the values: kubectl listed the Secrets.
    assert.ok(full.server.requests.some((request) => request.startsWith('GET /api/v1/secrets')));
    assert.doesNotMatch(text, new RegExp(SECRET_BASE64));
    assert.doesNotMatch(text, new RegExp(SECRET_VALUE));
    assert.doesNotMatch(text, /last-applied-configuration/);
    const [, list] = documents(join(full.folder, '.foresight/cluster.yaml')) as [
      unknown,
      { items: Record<string, unknown>[] },
    ];
    const secret = list.items.find((item) => item['kind'] === 'Secret');
    assert.deepEqual(secret, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db-credentials', namespace: 'store' },
      type: 'Opaque',
      data: { password: '', username: '' },
    });
  });

  test('the manifests the cluster was made from, re-applied to the capture, change nothing', async () => {
    const file = join(full.folder, '.foresight/cluster.yaml');
    const result = await runForesight(
      ['simulate', '--cluster', file, '--output', 'json', join(ROOT, 'examples/captured/web.yaml')],
      { env: full.env },
    );
    const report = JSON.parse(result.stdout) as {
      kubernetesVersion: string;
      cluster: { kind: string };
      rollouts: unknown[];
      pods: { name: string; nodeName: string | null }[];
      findings: { severity: string; code: string }[];
    };
    assert.equal(
      report.kubernetesVersion,
      '1.34',
      'the header names the server version: the default version',
    );
    assert.equal(report.cluster.kind, 'capture');
    assert.deepEqual(report.rollouts, []);
    assert.deepEqual(
      report.pods.map((pod) => [pod.name, pod.nodeName]),
      [
        ['catalog-6c9f7d8b5d-x7k2p', 'gke-shop-pool-1-a8c2'],
        ['catalog-6c9f7d8b5d-q9v4m', 'gke-shop-pool-1-k3d9'],
        ['cart-db-0', 'gke-shop-pool-1-a8c2'],
        ['cart-db-1', 'gke-shop-pool-1-k3d9'],
        ['node-exporter-h4k7w', 'gke-shop-pool-1-a8c2'],
        ['node-exporter-t8r2z', 'gke-shop-pool-1-k3d9'],
      ],
    );
    assert.deepEqual(
      report.findings.filter((finding) => finding.severity !== 'information'),
      [],
    );
    assert.equal(result.code, 0, result.stderr);
  });
});

describe('foresight capture when kubectl cannot do it all', () => {
  test("a resource the user may not list is left out of the header, with kubectl's message as a note", async () => {
    const { result, folder } = await capture({ forbidden: ['secrets'] });
    assert.equal(result.code, 0, result.stderr);
    const message =
      'Error from server (Forbidden): secrets is forbidden: User "capture-test" cannot list resource "secrets" in API group "" at the cluster scope';
    assert.ok(result.stderr.includes(`${message}\n`), result.stderr);
    assert.match(result.stderr, /secrets left out of the capture/);
    const file = join(folder, '.foresight/cluster.yaml');
    const [header] = documents(file) as [{ spec: { kinds: string[] } }];
    assert.deepEqual(
      header.spec.kinds,
      CAPTURE_RESOURCES.map((entry) => entry.resource).filter((resource) => resource !== 'secrets'),
    );
    assert.ok(readFileSync(file, 'utf8').includes(`# Not captured: secrets: ${message}`));
  });

  test("no cluster reachable: exit 1 with kubectl's message, and nothing written", async () => {
    // A stand-in started and stopped: its port refuses connections.
    const server = await startStandIn({ objects: [], gitVersion: 'v1.34.2' });
    await server.close();
    const { folder, env } = workspace(server.url);
    const result = await runForesight(['capture'], { cwd: folder, env });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(
        `The connection to the server ${server.url.replace('http://', '').replace(/\./g, '\\.')} was refused`,
      ),
    );
    assert.match(result.stderr, /foresight capture: nothing was written\n$/);
    assert.equal(existsSync(join(folder, '.foresight')), false);
  });

  test('a list that fails part-way leaves the earlier capture whole, and no temporary file', async () => {
    const server = await startStandIn({
      objects: clusterObjects(),
      gitVersion: 'v1.34.2',
      failing: ['services'],
    });
    const { folder, env } = workspace(server.url);
    mkdirSync(join(folder, 'captures'));
    const file = join(folder, 'captures/prod.yaml');
    const earlier = '# an earlier capture\napiVersion: v1\nkind: List\nitems: []\n';
    writeFileSync(file, earlier);
    let result: CliResult;
    try {
      result = await runForesight(['capture', '--output-file', file], { cwd: folder, env });
    } finally {
      await server.close();
    }
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Error from server \(InternalError\)/);
    assert.match(result.stderr, /foresight capture: nothing was written\n$/);
    assert.equal(readFileSync(file, 'utf8'), earlier);
    assert.deepEqual(readdirSync(join(folder, 'captures')), ['prod.yaml']);
  });

  test('a usage error is exit 2', async () => {
    const result = await runForesight(['capture', '--context']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--context needs a value/);
  });
});
