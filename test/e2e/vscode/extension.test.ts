/**
 * Cases that run inside VS Code's extension host (@vscode/test-electron, `npm run test:vscode`), against the
 * extension under development and a copy of examples/ as the workspace: activation, diagnostics and their ranges,
 * hover, code lenses, a quick fix applied through vscode.commands, the timeline command, and the
 * kubeForesight.cluster setting. They run in order, each from where the previous left the workspace;
 * run-in-host.ts runs them and reports. Not a node:test file: the extension host is not a test runner's process.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

/** One case: a sentence about behaviour and its steps. */
export interface HostCase {
  readonly name: string;
  run(): Promise<void>;
}

const EXTENSION_ID = 'kube-foresight.kube-foresight';
const MANIFEST = 'batch-analytics/deployment.yaml';
const WAIT_MS = 60_000;
const SCHEDULER_MESSAGE =
  'Its only replica stays Pending: 0/4 nodes are available: 1 node(s) had untolerated taint(s), ' +
  '3 Insufficient cpu, 3 Insufficient memory.';

/** The control plane and three 8-cpu, 32Gi workers: room for the Deployment. */
const LARGE_CLUSTER = ['control-plane', 'large-1', 'large-2', 'large-3']
  .map((name) =>
    [
      'apiVersion: v1',
      'kind: Node',
      `metadata: {name: ${name}, labels: {kubernetes.io/hostname: ${name}, kubernetes.io/os: linux}}`,
      name === 'control-plane'
        ? 'spec: {taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]}'
        : 'spec: {}',
      `status: {allocatable: {cpu: "${name === 'control-plane' ? 2 : 8}", memory: 32Gi, pods: "110"}}`,
    ].join('\n'),
  )
  .join('\n---\n');

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder !== undefined, 'the test run opens a copy of examples/ as the workspace');
  return folder.uri.fsPath;
}

function manifestUri(): vscode.Uri {
  return vscode.Uri.file(join(workspaceFolder(), MANIFEST));
}

/** Polls `probe` every 100 ms until it returns a value, or fails naming `what` after WAIT_MS. */
async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${WAIT_MS} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function codeOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  return typeof code === 'object' ? String(code.value) : String(code);
}

function ourDiagnostics(code: string): vscode.Diagnostic[] {
  return vscode.languages
    .getDiagnostics(manifestUri())
    .filter((diagnostic) => diagnostic.source === 'kube-foresight' && codeOf(diagnostic) === code);
}

function rangeText(range: vscode.Range): string {
  const document = vscode.workspace.textDocuments.find(
    (open) => open.uri.toString() === manifestUri().toString(),
  );
  assert.ok(document !== undefined, `${MANIFEST} is open`);
  return document.getText(range);
}

async function lensTitles(): Promise<string[]> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
    'vscode.executeCodeLensProvider',
    manifestUri(),
  );
  return lenses.flatMap((lens) => (lens.command === undefined ? [] : [lens.command.title]));
}

function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === 'string' ? content : content.value))
    .join('\n');
}

/** The cases, in the order they run. */
export const HOST_CASES: readonly HostCase[] = [
  {
    name: 'opening a Kubernetes manifest activates the extension',
    run: async () => {
      const document = await vscode.workspace.openTextDocument(manifestUri());
      await vscode.window.showTextDocument(document);
      assert.equal(document.languageId, 'yaml');
      await waitFor(
        () => (vscode.extensions.getExtension(EXTENSION_ID)?.isActive === true ? true : undefined),
        `${EXTENSION_ID} to be active`,
      );
    },
  },
  {
    name: 'the Pending Deployment gets kube-scheduler’s message on exactly its cpu and memory request values',
    run: async () => {
      const pending = await waitFor(() => {
        const found = ourDiagnostics('pod-unschedulable');
        return found.length >= 2 ? found : undefined;
      }, 'the pod-unschedulable diagnostics');
      assert.deepEqual(
        [...pending]
          .sort((a, b) => a.range.start.line - b.range.start.line)
          .map((diagnostic) => [
            diagnostic.range.start.line + 1,
            diagnostic.range.start.character + 1,
            rangeText(diagnostic.range),
          ]),
        [
          [23, 20, '"6"'],
          [24, 23, '24Gi'],
        ],
      );
      for (const diagnostic of pending) {
        assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Warning);
        assert.ok(diagnostic.message.startsWith(SCHEDULER_MESSAGE), diagnostic.message);
      }
    },
  },
  {
    name: 'hovering the kind shows the prediction with the filter each node failed',
    run: async () => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        manifestUri(),
        new vscode.Position(3, 8),
      );
      const text = hoverText(hovers);
      assert.match(text, /Deployment analytics-engine: Its only replica stays Pending/);
      assert.match(text, /QoS class \**Guaranteed/);
      assert.match(text, /worker-1[^\n]*Insufficient cpu, Insufficient memory/);
    },
  },
  {
    name: 'the code lenses count the scheduled and Pending replicas and offer a replay',
    run: async () => {
      assert.deepEqual(await lensTitles(), [
        '0/1 scheduled · 1 Pending · Guaranteed · rollout stalls',
        'Replay',
      ]);
    },
  },
  {
    name: 'the quick fix on the cpu request, applied through vscode.commands, lowers it to 4 and moves the blame',
    run: async () => {
      const [cpu] = ourDiagnostics('pod-unschedulable');
      assert.ok(cpu !== undefined);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        manifestUri(),
        cpu.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      const fix = actions.find((action) => action.title.startsWith('Lower the cpu request to'));
      assert.ok(fix !== undefined, `offered: ${actions.map((action) => action.title).join('; ')}`);
      assert.equal(fix.title, 'Lower the cpu request to 4 (the most free on worker-3)');
      if (fix.edit !== undefined) {
        assert.ok(await vscode.workspace.applyEdit(fix.edit));
      }
      if (fix.command !== undefined) {
        const commandArguments: readonly unknown[] = fix.command.arguments ?? [];
        await vscode.commands.executeCommand(fix.command.command, ...commandArguments);
      }
      assert.equal(rangeText(new vscode.Range(22, 0, 22, 100)).trim(), 'cpu: 4');
      await waitFor(() => {
        const pending = ourDiagnostics('pod-unschedulable');
        return pending.length === 1 && rangeText(pending[0]!.range) === '24Gi' ? true : undefined;
      }, 'the Pending diagnostic on the memory request only');
    },
  },
  {
    name: 'the timeline command opens its panel',
    run: async () => {
      await vscode.commands.executeCommand('kubeForesight.showTimeline', manifestUri().toString());
      await waitFor(
        () =>
          vscode.window.tabGroups.all
            .flatMap((group) => group.tabs)
            .find(
              (tab) =>
                tab.input instanceof vscode.TabInputWebview &&
                tab.input.viewType.endsWith('kubeForesight.timeline'),
            ),
        'a Simulation Timeline tab',
      );
    },
  },
  {
    name: 'setting kubeForesight.cluster to larger nodes schedules the Deployment and clears its diagnostics',
    run: async () => {
      const clusterFile = join(workspaceFolder(), 'clusters', 'large.yaml');
      mkdirSync(join(workspaceFolder(), 'clusters'), { recursive: true });
      writeFileSync(clusterFile, `${LARGE_CLUSTER}\n`);
      const settings = vscode.workspace.getConfiguration('kubeForesight');
      await settings.update('cluster', clusterFile, vscode.ConfigurationTarget.Workspace);
      try {
        await waitFor(
          () => (ourDiagnostics('pod-unschedulable').length === 0 ? true : undefined),
          'no pod-unschedulable diagnostic',
        );
        const titles = await lensTitles();
        assert.match(titles[0] ?? '', /^1\/1 scheduled · Burstable · rollout 1 wave, ~\d+ s$/);
        assert.equal(titles[1], 'Replay');
      } finally {
        await settings.update('cluster', undefined, vscode.ConfigurationTarget.Workspace);
      }
    },
  },
];
