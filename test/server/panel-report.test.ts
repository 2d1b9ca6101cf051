/**
 * The language server's answer to kubeForesight/simulation (server/src/host/simulation-request.ts and
 * panel-report.ts): a folder's manifests simulated on its `.foresight/cluster.yaml`, each pod with its per-node
 * explanation and manifest location, a timeline the panel's replay folds into the report's own totals, open
 * documents winning over the disk, and failures as answers.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { applyNextEvent, initialState } from '../../media/model/cluster-state';
import { Timeline } from '../../media/model/timeline';
import type { SimulationResult } from '../../protocol/messages';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import type { PanelReport } from '../../protocol/webview-messages';
import { parseQuantity } from '../../server/src/engine/model/quantity';
import { completeTimeline } from '../../server/src/language/service/panel-report';
import { TEST_SERVICE } from '../support/language-service';
import { answerSimulationRequest, findClusterFile } from '../../server/src/host/simulation-request';
import { simulate } from '../../server/src/engine/simulate/simulate';

const FOLDER = resolve(__dirname, '../fixtures/webview/manifests/web-app');
const DEPLOYMENT = join(FOLDER, 'deployment.yaml');
/** A kustomize base's Deployment: its selector comes from the overlay (labels: includeSelectors: true). */
const BASE_DEPLOYMENT = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata: {name: web}',
  'spec:',
  '  template:',
  '    metadata: {labels: {app: web}}',
  '    spec:',
  '      containers: [{name: web, image: nginx}]',
  '',
].join('\n');
const context = (open: { uri: string; getText(): string }[] = []) => ({
  openDocuments: () => open,
  settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
  service: TEST_SERVICE,
});

async function reportOf(uri: string, open: { uri: string; getText(): string }[] = []): Promise<PanelReport> {
  const result: SimulationResult = await answerSimulationRequest({ uri }, context(open));
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.report;
}

describe('kubeForesight/simulation', () => {
  const temporary = mkdtempSync(join(tmpdir(), 'foresight-panel-'));
  after(() => rmSync(temporary, { recursive: true, force: true }));

  test("a folder is simulated on its .foresight/cluster.yaml and answered with the folder's name", async () => {
    const result = await answerSimulationRequest({ uri: pathToFileURL(FOLDER).href }, context());
    assert.ok(result.ok);
    assert.deepEqual(result.folder, { uri: pathToFileURL(FOLDER).href, name: 'web-app' });
    assert.equal(result.report.cluster.source, 'cluster.yaml');
    assert.deepEqual(
      result.report.cluster.nodes.map((node) => node.name),
      ['node-a', 'node-b'],
    );
  });

  test('a file is simulated as its folder', async () => {
    const report = await reportOf(pathToFileURL(DEPLOYMENT).href);
    assert.equal(report.pods.length, 4);
  });

  test('each placed pod explains every node: its chosen node passed the filters and has a total score', async () => {
    const report = await reportOf(pathToFileURL(FOLDER).href);
    for (const pod of report.pods.filter((entry) => entry.nodeName !== null)) {
      const chosen = pod.explanation?.nodes.find((outcome) => outcome.node === pod.nodeName);
      assert.ok(chosen !== undefined, pod.name);
      assert.equal(chosen.rejectedBy, null);
      assert.equal(typeof chosen.total, 'number');
      assert.equal(chosen.scores?.length, pod.explanation?.scorePlugins.length);
    }
  });

  test('the pod that fits nowhere explains each node with NodeResourcesFit’s reason', async () => {
    const report = await reportOf(pathToFileURL(FOLDER).href);
    const pod = report.pods.find((entry) => entry.name === 'analytics');
    assert.deepEqual(
      pod?.explanation?.nodes.map((outcome) => [outcome.node, outcome.rejectedBy]),
      [
        ['node-a', { plugin: 'NodeResourcesFit', reasons: ['Insufficient cpu'] }],
        ['node-b', { plugin: 'NodeResourcesFit', reasons: ['Insufficient cpu'] }],
      ],
    );
    assert.match(pod?.unschedulable?.message ?? '', /^0\/2 nodes are available: 2 Insufficient cpu\./);
  });

  test("a Deployment's pods point at its pod template; a bare Pod at its own document", async () => {
    const lines = readFileSync(DEPLOYMENT, 'utf8').split('\n');
    const report = await reportOf(pathToFileURL(FOLDER).href);
    const uri = pathToFileURL(DEPLOYMENT).href;
    const template = lines.indexOf('  template:');
    const storefront = report.pods.find((pod) => pod.name.startsWith('storefront-'));
    assert.deepEqual(storefront?.location, { uri, line: template + 1, character: 4 });
    const bare = report.pods.find((pod) => pod.name === 'analytics');
    assert.deepEqual(bare?.location, { uri, line: lines.indexOf('---') + 1, character: 0 });
  });

  test("the timeline folds, as the panel replays it, into the report's requested cpu, memory and pods", async () => {
    const report = await reportOf(pathToFileURL(FOLDER).href);
    const timeline = new Timeline(report);
    const state = initialState(timeline);
    while (state.cursor < timeline.events.length) {
      applyNextEvent(timeline, state);
    }
    for (const node of report.cluster.nodes) {
      const index = timeline.nodeIndexOf(node.name);
      const value = (text: string | undefined, unit: 'milli' | 'value'): number => {
        const parsed = parseQuantity(text ?? '');
        return parsed.ok ? parsed.quantity[unit] : NaN;
      };
      assert.equal(state.nodeCpuMilli[index], value(node.requested['cpu'], 'milli'), node.name);
      assert.equal(state.nodeMemoryBytes[index], value(node.requested['memory'], 'value'), node.name);
      assert.equal(state.nodePods[index], value(node.requested['pods'], 'value'), node.name);
      assert.equal(state.nodeAllocCpuMilli[index], value(node.allocatable['cpu'], 'milli'), node.name);
    }
  });

  test('an open document as edited wins over the file on disk', async () => {
    const edited = readFileSync(DEPLOYMENT, 'utf8').replace('replicas: 3', 'replicas: 5');
    const report = await reportOf(pathToFileURL(FOLDER).href, [
      { uri: pathToFileURL(DEPLOYMENT).href, getText: () => edited },
    ]);
    assert.equal(report.pods.filter((pod) => pod.name.startsWith('storefront-')).length, 5);
  });

  const failures: readonly { name: string; uri: () => unknown; message: RegExp }[] = [
    {
      name: 'a URI that is not a file',
      uri: () => 'untitled:Untitled-1',
      message: /needs a file or folder on disk/,
    },
    { name: 'params without a URI', uri: () => undefined, message: /needs a file or folder on disk/ },
    {
      name: 'a folder that does not exist',
      uri: () => pathToFileURL(join(temporary, 'gone')).href,
      message: /does not exist/,
    },
    {
      name: 'a folder without manifests',
      uri: () => {
        const empty = join(temporary, 'empty');
        mkdirSync(empty, { recursive: true });
        writeFileSync(join(empty, 'notes.txt'), 'not a manifest');
        return pathToFileURL(empty).href;
      },
      message: /^No Kubernetes manifest in empty\.$/,
    },
    {
      name: 'a folder whose only Deployment lacks the selector a kustomize overlay would add',
      uri: () => {
        const base = join(temporary, 'base');
        mkdirSync(base, { recursive: true });
        writeFileSync(join(base, 'deploy.yaml'), BASE_DEPLOYMENT);
        return pathToFileURL(base).href;
      },
      message:
        /^Nothing in base can be applied: its only document has an error the API server would refuse \(deploy\.yaml:4: .*selector.*\)\.$/,
    },
  ];
  for (const { name, uri, message } of failures) {
    test(`${name} is answered with why, not an exception`, async () => {
      const result = await answerSimulationRequest({ uri: uri() }, context());
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.message, message);
    });
  }

  test('a document with an error is left out of the simulation and named in the report, with its line', async () => {
    const mixed = join(temporary, 'mixed');
    mkdirSync(mixed, { recursive: true });
    writeFileSync(join(mixed, 'deploy.yaml'), BASE_DEPLOYMENT);
    writeFileSync(
      join(mixed, 'pod.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata: {name: solo}\nspec:\n  containers: [{name: a, image: nginx}]\n',
    );
    const report = await reportOf(pathToFileURL(mixed).href);
    assert.deepEqual(
      report.pods.map((pod) => pod.name),
      ['solo'],
    );
    assert.deepEqual(
      report.leftOut?.map((entry) => [entry.file, entry.line]),
      [[pathToFileURL(join(mixed, 'deploy.yaml')).href, 4]],
    );
    assert.match(report.leftOut?.[0]?.message ?? '', /selector/);
  });

  test('the cluster file is the setting (relative to the folder), else the nearest .foresight/cluster.yaml upwards', () => {
    const nested = join(FOLDER, '.foresight');
    assert.equal(
      findClusterFile(FOLDER, '.foresight/cluster.yaml'),
      join(FOLDER, '.foresight', 'cluster.yaml'),
    );
    assert.equal(findClusterFile(FOLDER, 'missing.yaml'), undefined);
    assert.equal(findClusterFile(nested, ''), join(FOLDER, '.foresight', 'cluster.yaml'));
    assert.equal(findClusterFile(temporary, ''), undefined);
  });
});

describe('completing a timeline the engine left short', () => {
  const result = simulate({
    manifests: [
      {
        object: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'web', namespace: 'default' },
          spec: {
            containers: [
              { name: 'web', image: 'nginx', resources: { requests: { cpu: '250m', memory: '64Mi' } } },
            ],
          },
        },
        source: { file: 'file:///w/pod.yaml', documentIndex: 0, path: [] },
      },
    ],
    cluster: null,
  });
  const nodes = result.report.cluster.nodes.map((node) => node.name);

  test('without events, each node is added and each pod created then scheduled, at time 0', () => {
    const events = completeTimeline(result, []);
    assert.deepEqual(
      events.map((event) => [event.time, event.type, event.object.name]),
      [...nodes.map((name) => [0, 'NodeAdded', name]), [0, 'PodCreated', 'web'], [0, 'PodScheduled', 'web']],
    );
    assert.deepEqual(events.find((event) => event.type === 'PodCreated')?.details?.requests, {
      cpuMilli: 250,
      memoryBytes: 64 * 1024 * 1024,
    });
    assert.equal(
      events.find((event) => event.type === 'PodScheduled')?.node,
      result.report.pods[0]?.nodeName,
    );
  });

  test("the engine's events are kept as they are, after what they leave out", () => {
    const [first = 'none'] = nodes;
    const engine = [
      {
        time: 0,
        type: 'NodeAdded' as const,
        object: { kind: 'Node', name: first },
        node: first,
        message: 'added',
      },
      {
        time: 3,
        type: 'PodCreated' as const,
        object: { kind: 'Pod', namespace: 'default', name: 'web' },
        node: null,
        message: 'created',
      },
    ];
    const events = completeTimeline(result, engine);
    assert.deepEqual(events.slice(-2), engine);
    assert.deepEqual(
      events.slice(0, -2).map((event) => event.object.name),
      nodes.filter((name) => name !== first),
    );
  });
});
