/**
 * Predictions in the editor, over LSP: the bundled server simulates the folder of the opened manifest (with the
 * folder's .foresight/cluster.yaml, or the embedded default cluster) and reports Pending replicas on the field
 * that causes them, BestEffort pods, code lenses, hovers and the quick fix that lowers a request.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import {
  CodeActionRequest,
  CodeLensRefreshRequest,
  CodeLensRequest,
  HoverRequest,
  ShowMessageNotification,
  ShowMessageRequest,
} from 'vscode-languageserver-protocol/node';
import type { CodeAction, Diagnostic, MarkupContent } from 'vscode-languageserver-protocol/node';
import { STATUS_NOTIFICATION } from '../../protocol/messages';
import type { StatusParams } from '../../protocol/messages';
import { LspSession } from '../support/lsp-session';

const FIXTURES = join(__dirname, '..', 'fixtures', 'predictions');

function fixture(relative: string): { uri: string; text: string } {
  const path = join(FIXTURES, relative);
  return { uri: pathToFileURL(path).href, text: readFileSync(path, 'utf8') };
}

/** Records the messages the server shows the user: notifications, and requests (how it shows notices). */
function recordNotices(session: LspSession, messages: string[]): void {
  session.connection.onNotification(ShowMessageNotification.type, (params) => messages.push(params.message));
  session.connection.onRequest(ShowMessageRequest.type, (params) => {
    messages.push(params.message);
    return null;
  });
}

function covered(text: string, diagnostic: Diagnostic): string {
  const line = text.split('\n')[diagnostic.range.start.line] ?? '';
  return line.slice(diagnostic.range.start.character, diagnostic.range.end.character);
}

describe('predictions over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  let pending: Diagnostic[] = [];
  const api = fixture('pending-cpu/api.yaml');

  test('replicas that do not fit are reported once, on the cpu request, with kube-scheduler’s message', async () => {
    const diagnostics = await session.open(api.uri, api.text);
    pending = diagnostics.filter((d) => d.code === 'pod-unschedulable');
    assert.equal(pending.length, 1, 'one diagnostic per cause, not one per replica');
    const [diagnostic] = pending;
    assert.ok(diagnostic);
    assert.equal(covered(api.text, diagnostic), '1500m');
    assert.equal(diagnostic.severity, 2);
    assert.match(
      diagnostic.message,
      /^2 of 8 replicas stay Pending: 0\/4 nodes are available: 1 node\(s\) had untolerated taint\(s\), 3 Insufficient cpu\./,
    );
    // The rejection fewer nodes give is the same cause's related information, not a diagnostic of its own.
    assert.deepEqual(
      diagnostics.filter((d) => d.code === 'pod-unschedulable-cause'),
      [],
    );
    assert.deepEqual(
      (diagnostic.relatedInformation ?? []).map((entry) => [
        covered(api.text, { ...diagnostic, range: entry.location.range }),
        entry.message,
      ]),
      [['spec', '1 of 4 nodes (control-plane) also reject api: node(s) had untolerated taint(s).']],
    );
    assert.doesNotMatch(diagnostic.message, /preemption:/, 'the PostFilter part is in the hover');
  });

  test('the Pending diagnostic offers to lower the request to the most any rejecting node has free', async () => {
    const [diagnostic] = pending;
    assert.ok(diagnostic);
    const actions = await session.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: api.uri },
      range: diagnostic.range,
      context: { diagnostics: pending },
    });
    const titles = (actions ?? []).map((action) => action.title);
    assert.equal(titles.length, 1);
    assert.match(titles[0] ?? '', /^Lower the cpu request to \d+m? \(the most free on worker-\d\)$/);
  });

  test('code lenses summarise each workload and offer a replay', async () => {
    const { uri } = api;
    const lenses = await session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    assert.deepEqual(
      (lenses ?? []).map((lens) => [lens.range.start.line, lens.command?.title, lens.command?.command]),
      [
        [0, '6/8 scheduled · 2 Pending · Burstable · rollout stalls', ''],
        [0, 'Replay', 'kubeForesight.showTimeline'],
      ],
    );
  });

  test('hovering the kind shows where each replica lands and the per-node reasons', async () => {
    const { uri } = api;
    const hover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: 1, character: 2 },
    });
    const value = (hover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(value, /\*\*Prediction\*\* · Deployment api: 2 of 8 replicas stay Pending/);
    assert.match(value, /QoS class \*\*Burstable\*\*/);
    assert.match(value, /\| worker-1 \| Insufficient cpu \|/);
    assert.match(value, /\| control-plane \| node\(s\) had untolerated taint\(s\) \|/);
  });

  test('hovering a container’s resources adds its oom_score_adj on the node its first replica lands on', async () => {
    const { uri } = api;
    const hover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: 17, character: 12 },
    });
    const value = (hover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(value, /\*\*Fit\*\* · pod requests 1\.5 cpu, 512Mi memory/);
    // Burstable: 1000 − 1000 × 512Mi / 16Gi (the default cluster's workers' status.capacity) = 969.
    assert.match(
      value,
      /\*\*oom_score_adj\*\* · container api on worker-\d \(16Gi memory\): \*\*969\*\*, Burstable: 1000 − 1000 × 536870912 \/ 17179869184 bytes\./,
    );
  });

  test('the folder’s .foresight/cluster.yaml is the cluster: the GPU job lands on the GPU node', async () => {
    const { uri, text } = fixture('gpu-cluster/train.yaml');
    const diagnostics = await session.open(uri, text);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['best-effort-pod'],
    );
    const lenses = await session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    assert.equal(lenses?.[0]?.command?.title, '1/1 scheduled · BestEffort');
  });

  test('a broken cluster file is reported on its field and the embedded default cluster is used instead', async () => {
    const cluster = fixture('bad-cluster/.foresight/cluster.yaml');
    const manifest = fixture('bad-cluster/train.yaml');
    await session.open(cluster.uri, cluster.text);
    const clusterPublished = session.diagnostics(cluster.uri);
    const diagnostics = await session.open(manifest.uri, manifest.text);
    assert.ok(
      diagnostics.some((d) => d.code === 'pod-unschedulable' && /0\/4 nodes are available/.test(d.message)),
      'predicted on the 4-node embedded default cluster',
    );
    const clusterDiagnostics = await clusterPublished;
    // The engine's findings keep their own codes in the editor, as in the CLI (node-missing-allocatable here).
    const errors = clusterDiagnostics.filter((d) => d.severity === 1);
    assert.ok(errors.length > 0, 'the cluster file gets its own diagnostics');
    assert.ok(
      errors.some((d) => d.code === 'node-missing-allocatable'),
      JSON.stringify(errors.map((d) => d.code)),
    );
    assert.ok(
      errors.some(
        (d) =>
          /broken-node/.test(d.message) &&
          /allocatable/.test(d.message) &&
          covered(cluster.text, d) === 'status',
      ),
      errors.map((d) => `${covered(cluster.text, d)}: ${d.message}`).join('\n'),
    );
  });

  test('a budget that allows no disruption and one that selects nothing are warned about on their fields', async () => {
    const { uri, text } = fixture('pdb-blocks/app.yaml');
    const diagnostics = await session.open(uri, text);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, covered(text, d)]),
      [
        ['pdb-blocks-disruptions', 2, '2'],
        ['pdb-selects-nothing', 2, 'selector'],
      ],
    );
    assert.match(
      diagnostics[0]?.message ?? '',
      /^PodDisruptionBudget "payments" never allows a voluntary disruption/,
    );
  });

  test('the anti-affinity rollout deadlock is an error on the strategy, with the maxUnavailable fix', async () => {
    const { uri, text } = fixture('rollout-deadlock/web.yaml');
    const diagnostics = await session.open(uri, text);
    const stall = diagnostics.find((d) => d.code === 'rollout-stalls');
    assert.ok(stall, diagnostics.map((d) => d.code).join(', '));
    assert.equal(covered(text, stall), 'strategy');
    assert.equal(stall.severity, 1); // the update never completes: an error, as foresight simulate reports it
    assert.match(stall.message, /ProgressDeadlineExceeded at t=601s/);
    assert.match(stall.message, /didn't match pod anti-affinity rules/);
    const pendingSurge = diagnostics.find((d) => d.code === 'pod-unschedulable');
    assert.match(
      pendingSurge?.message ?? '',
      /^1 new pod of the rollout stays Pending \(3 replicas wanted\)/,
    );
    const [action] = await session.fixesFor(uri, stall);
    assert.equal(action?.title, 'Set maxUnavailable to 1 (replace pods one at a time instead of surging)');
    const edit = action?.edit?.changes?.[uri]?.[0];
    assert.ok(edit);
    const line = text.split('\n')[edit.range.start.line] ?? '';
    assert.equal(line.slice(edit.range.start.character, edit.range.end.character), '0');
    assert.match(line, /maxUnavailable: 0/);
    assert.equal(edit.newText, '1');
  });

  test('hovering a budget shows its four numbers; hovering a strategy shows the waves with times', async () => {
    const budget = fixture('pdb-blocks/app.yaml');
    const budgetLine = budget.text.split('\n').indexOf('kind: PodDisruptionBudget');
    const budgetHover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: budget.uri },
      position: { line: budgetLine, character: 1 },
    });
    const budgetText = (budgetHover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(budgetText, /\*\*Disruption budget\*\* · payments: 0 voluntary disruption\(s\) allowed now/);
    assert.match(budgetText, /\| 2 \| 2 \| 2 \| 0 \|/);
    const rollout = fixture('rollout-deadlock/web.yaml');
    const strategyLine = rollout.text.split('\n').indexOf('  strategy:');
    const rolloutHover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: rollout.uri },
      position: { line: strategyLine, character: 4 },
    });
    const rolloutText = (rolloutHover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(
      rolloutText,
      /\*\*Rollout\*\* · RollingUpdate, maxSurge 1, maxUnavailable 0 over 3 replicas/,
    );
    assert.match(rolloutText, /ProgressDeadlineExceeded at 10 min 1 s/);
    assert.match(rolloutText, /\| time \| new \| old \| available \| unavailable \|/);
  });

  test('BestEffort pods get an information diagnostic on their containers', async () => {
    const { uri, text } = fixture('best-effort/worker.yaml');
    const diagnostics = await session.open(uri, text);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, covered(text, d)]),
      [['best-effort-pod', 3, 'containers']],
    );
  });
});

describe('code lenses kept current over LSP', () => {
  let session: LspSession;
  let refreshes = 0;
  before(async () => {
    session = await LspSession.start({ workspace: { codeLens: { refreshSupport: true } } });
    session.connection.onRequest(CodeLensRefreshRequest.type, () => {
      refreshes += 1;
      return null;
    });
  });
  after(async () => {
    await session.stop();
  });

  test('when another manifest of the folder changes a lens already shown, the server asks for a refresh', async () => {
    const api = fixture('pending-cpu/api.yaml');
    await session.open(api.uri, api.text);
    const title = async (): Promise<string | undefined> =>
      (await session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: api.uri } }))?.[0]
        ?.command?.title;
    assert.equal(await title(), '6/8 scheduled · 2 Pending · Burstable · rollout stalls');
    assert.equal(refreshes, 0, 'no refresh while nothing the editor shows has changed');

    // An unsaved manifest beside it: higher-priority pods that take most of each worker's cpu first.
    const hogUri = pathToFileURL(join(FIXTURES, 'pending-cpu', 'unsaved-hog.yaml')).href;
    const refreshed = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no workspace/codeLens/refresh within 20 s')), 20_000);
      session.connection.onRequest(CodeLensRefreshRequest.type, () => {
        refreshes += 1;
        clearTimeout(timer);
        resolve();
        return null;
      });
    });
    await session.open(hogUri, HOG);
    await refreshed;
    assert.equal(refreshes, 1);
    assert.match((await title()) ?? '', /^[0-5]\/8 scheduled · [3-8] Pending · Burstable · rollout stalls$/);
  });
});

const HOG = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: hog-first
value: 100000
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: hog
spec:
  replicas: 3
  selector:
    matchLabels: {app: hog}
  template:
    metadata:
      labels: {app: hog}
    spec:
      priorityClassName: hog-first
      containers:
        - name: hog
          image: registry.example.com/hog:1
          resources:
            requests: {cpu: "2", memory: 1Gi}
            limits: {memory: 1Gi}
`;

describe('the examples’ own cluster file over LSP', () => {
  const EXAMPLES = join(__dirname, '..', '..', 'examples');
  let session: LspSession;
  const statuses: StatusParams[] = [];
  const messages: string[] = [];
  before(async () => {
    session = await LspSession.start();
    session.connection.onNotification(STATUS_NOTIFICATION, (params: StatusParams) => statuses.push(params));
    recordNotices(session, messages);
  });
  after(async () => {
    await session.stop();
  });

  test('a drain its scenario predicts to fail is a finding on the step, not a reason to drop the cluster file', async () => {
    const manifestPath = join(EXAMPLES, 'web-app', 'deployment.yaml');
    const manifest = { uri: pathToFileURL(manifestPath).href, text: readFileSync(manifestPath, 'utf8') };
    const clusterPath = join(EXAMPLES, '.foresight', 'cluster.yaml');
    const cluster = { uri: pathToFileURL(clusterPath).href, text: readFileSync(clusterPath, 'utf8') };
    await session.open(manifest.uri, manifest.text);
    // The status says which cluster is in use and why, for the cluster picker.
    assert.deepEqual(statuses.at(-1), {
      kubernetesVersion: '1.35',
      cluster: 'cluster.yaml',
      choice: { reason: 'nearest', path: clusterPath },
    });
    assert.deepEqual(messages, [], 'no notice that the cluster file has errors');

    // Validated first on its own, the cluster file gets the findings of the predictions made on it once the open
    // manifests are predicted again with it.
    const validated = await session.open(cluster.uri, cluster.text);
    assert.deepEqual(validated, [], 'the cluster file is valid Kubernetes YAML');
    const clusterDiagnostics = await session.diagnostics(cluster.uri);
    const drain = clusterDiagnostics.filter((d) => d.code === 'drain-blocked');
    assert.equal(
      drain.length,
      1,
      clusterDiagnostics.map((d) => `${String(d.code)}: ${d.message}`).join('\n'),
    );
    assert.equal(drain[0]?.severity, 1);
    assert.match(
      drain[0]?.message ?? '',
      /^kubectl drain worker-1 never finishes: eviction of pod default\/payments-/,
    );
    assert.deepEqual(
      clusterDiagnostics.filter((d) => d.severity === 1 && d.code !== 'drain-blocked'),
      [],
      'the cluster file itself is valid',
    );
    assert.deepEqual(messages, []);
  });
});

/** Applies the edits of a code action to a text (edits of one line or more, applied from the last). */
function applyEdits(text: string, action: CodeAction | undefined): string {
  const lines = text.split('\n');
  const offsetOf = (line: number, character: number): number =>
    lines.slice(0, line).reduce((sum, current) => sum + current.length + 1, 0) + character;
  const edits = Object.values(action?.edit?.changes ?? {}).flat();
  assert.ok(edits.length > 0, 'the action has edits');
  return edits
    .map((edit) => ({
      start: offsetOf(edit.range.start.line, edit.range.start.character),
      end: offsetOf(edit.range.end.line, edit.range.end.character),
      newText: edit.newText,
    }))
    .sort((a, b) => b.start - a.start)
    .reduce((result, edit) => result.slice(0, edit.start) + edit.newText + result.slice(edit.end), text);
}

describe('quick fixes that add to the pod template, over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  async function actionsFor(uri: string, diagnostics: Diagnostic[], line = 0): Promise<CodeAction[]> {
    const range = diagnostics[0]?.range ?? { start: { line, character: 0 }, end: { line, character: 0 } };
    const actions = await session.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range,
      context: { diagnostics },
    });
    return (actions ?? []).filter((action): action is CodeAction => 'edit' in action);
  }

  test('pods kept off every node by a taint get a fix that adds the toleration; applied, they are placed', async () => {
    const ledger = fixture('tainted-pool/ledger.yaml');
    const diagnostics = await session.open(ledger.uri, ledger.text);
    const pending = diagnostics.filter((d) => d.code === 'pod-unschedulable');
    assert.equal(pending.length, 1);
    assert.match(
      pending[0]?.message ?? '',
      /All 2 replicas stay Pending: 0\/2 nodes are available: 2 node\(s\) had untolerated taint\(s\)/,
    );
    const actions = await actionsFor(ledger.uri, pending);
    // The diagnostic lies inside a Burstable template with limits, so Guaranteed is offered there too.
    assert.deepEqual(
      actions.map((action) => action.title),
      [
        'Add a toleration for the taint dedicated=payments:NoSchedule',
        'Set requests equal to limits (QoS class Guaranteed)',
      ],
    );
    const fixed = applyEdits(ledger.text, actions[0]);
    assert.match(
      fixed,
      /\n {6}containers:\n[\s\S]*memory: 512Mi\n {6}tolerations:\n {8}- key: dedicated\n {10}operator: Equal\n {10}value: payments\n {10}effect: NoSchedule\n$/,
    );
    const after = await session.change(ledger.uri, 2, [{ text: fixed }]);
    assert.deepEqual(
      after.map((d) => d.code),
      [],
    );
  });

  test('BestEffort pods get a fix that adds the default requests and limits; applied, the diagnostic goes', async () => {
    const worker = fixture('best-effort/worker.yaml');
    const diagnostics = await session.open(worker.uri, worker.text);
    const actions = await actionsFor(worker.uri, diagnostics);
    assert.deepEqual(
      actions.map((action) => action.title),
      [
        'Add resources (requests cpu 100m, memory 128Mi; limits memory 128Mi, from kubeForesight.defaultResources)',
      ],
    );
    const fixed = applyEdits(worker.text, actions[0]);
    assert.ok(
      fixed.endsWith(
        [
          '          image: registry.example.com/worker:3.1',
          '          resources:',
          '            requests:',
          '              cpu: 100m',
          '              memory: 128Mi',
          '            limits:',
          '              memory: 128Mi',
          '',
        ].join('\n'),
      ),
      fixed,
    );
    const after = await session.change(worker.uri, 2, [{ text: fixed }]);
    assert.deepEqual(after, []);
  });

  test('inside a Burstable template whose containers all have limits, a fix sets requests equal to limits', async () => {
    const cache = fixture('guaranteed/cache.yaml');
    await session.open(cache.uri, cache.text);
    const hover = async (): Promise<string> => {
      const result = await session.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: cache.uri },
        position: { line: 1, character: 2 },
      });
      return (result?.contents as MarkupContent | undefined)?.value ?? '';
    };
    assert.match(await hover(), /QoS class \*\*Burstable\*\*/);
    const cpuRequestLine = cache.text.split('\n').findIndex((line) => line.trim() === 'cpu: 250m');
    const actions = await actionsFor(cache.uri, [], cpuRequestLine);
    assert.deepEqual(
      actions.map((action) => action.title),
      ['Set requests equal to limits (QoS class Guaranteed)'],
    );
    const fixed = applyEdits(cache.text, actions[0]);
    assert.equal(fixed, cache.text.replace('cpu: 250m', 'cpu: 500m'));
    await session.change(cache.uri, 2, [{ text: fixed }]);
    assert.match(await hover(), /QoS class \*\*Guaranteed\*\*/);
    assert.deepEqual(await actionsFor(cache.uri, [], cpuRequestLine), [], 'nothing left to offer');
    // Outside any pod template nothing is offered.
    assert.deepEqual(await actionsFor(cache.uri, [], 0), []);
  });
});

/**
 * A folder whose `.foresight/cluster.yaml` is a List of `items` (lines of YAML), with a server session that
 * records the notices and the status it sends; started before the describe's tests, stopped and removed after.
 */
function clusterFolderSession(
  prefix: string,
  items: readonly string[],
): { session: LspSession; folder: string; messages: string[]; statuses: StatusParams[] } {
  const cluster = {
    session: undefined as unknown as LspSession,
    folder: '',
    messages: [] as string[],
    statuses: [] as StatusParams[],
  };
  before(async () => {
    cluster.folder = mkdtempSync(join(tmpdir(), prefix));
    mkdirSync(join(cluster.folder, '.foresight'));
    writeFileSync(
      join(cluster.folder, '.foresight', 'cluster.yaml'),
      ['apiVersion: v1', 'kind: List', 'items:', ...items, ''].join('\n'),
    );
    cluster.session = await LspSession.start();
    cluster.session.connection.onNotification(STATUS_NOTIFICATION, (params: StatusParams) =>
      cluster.statuses.push(params),
    );
    recordNotices(cluster.session, cluster.messages);
  });
  after(async () => {
    await cluster.session.stop();
    rmSync(cluster.folder, { recursive: true, force: true });
  });
  return cluster;
}

describe('a cluster file too large to simulate as you type, over LSP', () => {
  const cluster = clusterFolderSession(
    'kube-foresight-big-cluster-',
    Array.from(
      { length: 5_001 },
      (_, i) =>
        `  - {apiVersion: v1, kind: Node, metadata: {name: n${i}}, status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}}`,
    ),
  );
  test('5,001 nodes: a notice names the count and the limit, and the embedded default cluster is used', async () => {
    const api = fixture('pending-cpu/api.yaml');
    const uri = pathToFileURL(join(cluster.folder, 'api.yaml')).href;
    // The file's 5,001 objects weigh the scope: its validation is published first, then the prediction.
    await cluster.session.open(uri, api.text);
    const diagnostics = await cluster.session.diagnosticsWhere(uri, (published) =>
      published.some((d) => d.code === 'pod-waits-for-scale-up'),
    );
    assert.deepEqual(cluster.messages, [
      'Kube Foresight: The cluster file cluster.yaml has 5,001 nodes, more than the 5,000 simulated as you type; predictions use the embedded default cluster (`foresight simulate --cluster` takes the file).',
    ]);
    assert.deepEqual(cluster.statuses.at(-1), {
      kubernetesVersion: '1.35',
      cluster: 'embedded default',
      choice: { reason: 'embedded', unusable: join(cluster.folder, '.foresight', 'cluster.yaml') },
    });
    // The embedded default adds a large node for the replicas its workers cannot hold.
    assert.ok(
      diagnostics.some(
        (d) => d.code === 'pod-waits-for-scale-up' && /adds a node to group `large`/.test(d.message),
      ),
      'predicted on the embedded default cluster',
    );
  });
});

describe('a captured cluster above the old 5,000-pod limit, over LSP', () => {
  // 60 nodes of 16 CPUs, each running 100 pods of 100m: 6 CPUs left per node.
  const cluster = clusterFolderSession('kube-foresight-busy-cluster-', [
    ...Array.from(
      { length: 60 },
      (_, i) =>
        `  - {apiVersion: v1, kind: Node, metadata: {name: n${i}}, status: {allocatable: {cpu: "16", memory: 64Gi, pods: "110"}}}`,
    ),
    ...Array.from(
      { length: 6_000 },
      (_, i) =>
        `  - {apiVersion: v1, kind: Pod, metadata: {name: p${i}, namespace: default}, spec: {nodeName: n${i % 60}, containers: [{name: c, image: registry.example/c:1, resources: {requests: {cpu: 100m}}}]}, status: {phase: Running}}`,
    ),
  ]);
  test('6,000 running pods: predicted on the capture, its running pods counted, and again after a keystroke', async () => {
    const text = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: wide, namespace: default}',
      'spec:',
      '  replicas: 2',
      '  selector: {matchLabels: {app: wide}}',
      '  template:',
      '    metadata: {labels: {app: wide}}',
      '    spec:',
      '      containers:',
      '        - {name: c, image: registry.example/wide:1, resources: {requests: {cpu: "7"}}}',
      '',
    ].join('\n');
    const uri = pathToFileURL(join(cluster.folder, 'wide.yaml')).href;
    await cluster.session.open(uri, text);
    // Every node has 16 CPUs and runs 10 of them: 7 more fit none.
    const pending = (replicas: number) => (published: readonly Diagnostic[]) =>
      published.some((d) =>
        d.message.startsWith(
          `All ${replicas} replicas stay Pending: 0/60 nodes are available: 60 Insufficient cpu.`,
        ),
      );
    await cluster.session.diagnosticsWhere(uri, pending(2));
    assert.deepEqual(cluster.messages, [], 'no notice: the capture is used');
    assert.deepEqual(cluster.statuses.at(-1), {
      kubernetesVersion: '1.35',
      cluster: 'cluster.yaml',
      choice: { reason: 'nearest', path: join(cluster.folder, '.foresight', 'cluster.yaml') },
    });
    const line = text.split('\n').findIndex((entry) => entry === '  replicas: 2');
    await cluster.session.change(uri, 2, [
      { range: { start: { line, character: 12 }, end: { line, character: 13 } }, text: '3' },
    ]);
    await cluster.session.diagnosticsWhere(uri, pending(3));
    // With 6 CPUs free per node, one CPU less fits every node.
    const fitting = text.replace('cpu: "7"', 'cpu: "6"').replace('replicas: 2', 'replicas: 3');
    await cluster.session.change(uri, 3, [{ text: fitting }]);
    await cluster.session.diagnosticsWhere(
      uri,
      (published) => !published.some((d) => d.message.includes('stay Pending')),
    );
  });
});
