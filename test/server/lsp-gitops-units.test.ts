/**
 * The editor predicts a file that a GitOps definition of the workspace applies as `foresight simulate` does
 * (docs/cli.md, "GitOps units"; test/cli/gitops-units.test.ts is the command line's side): an Argo CD
 * Application's directory (not recursive by default) with `destination.namespace` filling objects that name none,
 * a Flux Kustomization's generated kustomization with `targetNamespace` overriding every namespaced object's, and
 * the cluster looked up from the definition's folder. The hover and the cluster picker name the definition.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic, MarkupContent } from 'vscode-languageserver-protocol/node';
import { HoverRequest } from 'vscode-languageserver-protocol/node';
import { PLAN_REQUEST, SIMULATION_REQUEST, STATUS_NOTIFICATION } from '../../protocol/messages';
import type { PlanResult, SimulationResult, StatusParams } from '../../protocol/messages';
import { LspSession } from '../support/lsp-session';
import { findKustomize } from '../../server/src/files/kustomize/render-kustomization';

const kustomize = findKustomize(process.env['FORESIGHT_KUSTOMIZE'], process.env['PATH']);

/** A Deployment of one small replica, in `namespace` when given, its container privileged when asked. */
function deployment(name: string, namespace?: string, privileged = false): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    ...(namespace === undefined ? [] : [`  namespace: ${namespace}`]),
    'spec:',
    '  replicas: 1',
    `  selector: {matchLabels: {app: ${name}}}`,
    '  template:',
    `    metadata: {labels: {app: ${name}}}`,
    '    spec:',
    '      containers:',
    `        - name: ${name}`,
    `          image: registry.example/${name}:1`,
    '          resources: {requests: {cpu: 100m}}',
    ...(privileged ? ['          securityContext: {privileged: true}'] : []),
    '',
  ].join('\n');
}

const APPLICATION = [
  'apiVersion: argoproj.io/v1alpha1',
  'kind: Application',
  'metadata: {name: guestbook, namespace: argocd}',
  'spec:',
  '  project: default',
  '  source:',
  '    repoURL: https://git.example/shop.git',
  '    path: apps/guestbook',
  '  destination: {server: "https://kubernetes.default.svc", namespace: guests}',
  '',
].join('\n');

const FLUX_KUSTOMIZATION = [
  'apiVersion: kustomize.toolkit.fluxcd.io/v1',
  'kind: Kustomization',
  'metadata: {name: team, namespace: flux-system}',
  'spec:',
  '  interval: 10m',
  '  path: ./apps/team',
  '  prune: true',
  '  sourceRef: {kind: GitRepository, name: flux-system}',
  '  targetNamespace: team-a',
  '',
].join('\n');

/**
 * A capture of one node whose header covers namespaces: `default` and `team-a` (Pod Security baseline enforced)
 * exist, nothing else.
 */
const CAPTURE = [
  'apiVersion: foresight/v1',
  'kind: Capture',
  'spec: {context: prod, capturedAt: "2026-03-02T10:15:00Z", serverVersion: v1.35.0, kinds: [nodes, namespaces]}',
  '---',
  'apiVersion: v1',
  'kind: List',
  'items:',
  '- {apiVersion: v1, kind: Node, metadata: {name: node-1, labels: {kubernetes.io/hostname: node-1}}, status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}',
  '- {apiVersion: v1, kind: Namespace, metadata: {name: default}}',
  '- {apiVersion: v1, kind: Namespace, metadata: {name: team-a, labels: {pod-security.kubernetes.io/enforce: baseline}}}',
  '',
].join('\n');

describe('GitOps units in the editor, over LSP', () => {
  let session: LspSession;
  let workspace: string;
  const statuses: StatusParams[] = [];
  const files: Record<string, string> = {
    'argocd/guestbook.yaml': APPLICATION,
    'apps/guestbook/web.yaml': deployment('web'),
    'apps/guestbook/extra/tool.yaml': deployment('tool'),
    'clusters/prod/team.yaml': FLUX_KUSTOMIZATION,
    'clusters/prod/.foresight/cluster.yaml': CAPTURE,
    'apps/team/api.yaml': deployment('api', 'other', true),
    'clusters/prod/web.yaml': FLUX_KUSTOMIZATION.replace('name: team', 'name: web').replace(
      './apps/team',
      './apps/web',
    ),
    'apps/web/kustomization.yaml': 'resources: [deploy.yaml]\npatches: [{path: privileged.yaml}]\n',
    'apps/web/deploy.yaml': deployment('kweb'),
    'apps/web/privileged.yaml': [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: kweb}',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '        - name: kweb',
      '          securityContext: {privileged: true}',
      '',
    ].join('\n'),
  };
  const uriOf = (file: string): string => pathToFileURL(join(workspace, file)).href;
  const open = (file: string): Promise<Diagnostic[]> => session.open(uriOf(file), files[file] ?? '');
  const hoverOnKind = async (file: string): Promise<string> => {
    const hover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: uriOf(file) },
      position: { line: 1, character: 2 },
    });
    return (hover?.contents as MarkupContent | undefined)?.value ?? '';
  };
  const namespaceNotes = (diagnostics: readonly Diagnostic[]): string[] =>
    diagnostics
      .filter((diagnostic) => diagnostic.code === 'namespace-not-found')
      .map((diagnostic) => /Namespace "([^"]+)"/.exec(diagnostic.message)?.[1] ?? '?');

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'foresight-gitops-editor-'));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(workspace, file)), { recursive: true });
      writeFileSync(join(workspace, file), text);
    }
    session = await LspSession.start({}, { workspaceFolders: [workspace] });
    session.connection.onNotification(STATUS_NOTIFICATION, (params: StatusParams) => statuses.push(params));
  });
  after(async () => {
    await session.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  test('a file of an Argo CD directory: its Deployment goes to destination.namespace, and the hover says so', async () => {
    const diagnostics = await open('apps/guestbook/web.yaml');
    // Without the Application it would be simulated in `default`, which every cluster has.
    assert.deepEqual(namespaceNotes(diagnostics), ['guests']);
    const hover = await hoverOnKind('apps/guestbook/web.yaml');
    assert.match(hover, /\*\*Prediction\*\* · Deployment web/);
    assert.match(
      hover,
      /Applied as Argo CD Application argocd\/guestbook \(argocd\/guestbook\.yaml:1\) applies it, objects without a namespace in `guests`\./,
    );
    // No .foresight/cluster.yaml above argocd/: the embedded default, looked up from the definition.
    assert.deepEqual(statuses.at(-1)?.choice, {
      reason: 'embedded',
      appliedBy: 'Argo CD Application argocd/guestbook (argocd/guestbook.yaml:1)',
    });
  });

  test('a sub-folder of a directory source (recurse false) is not that unit: its own folder, in default', async () => {
    const diagnostics = await open('apps/guestbook/extra/tool.yaml');
    assert.deepEqual(namespaceNotes(diagnostics), []);
    assert.doesNotMatch(await hoverOnKind('apps/guestbook/extra/tool.yaml'), /Applied as/);
  });

  test('a Flux Kustomization: targetNamespace overrides, on the cluster nearest the definition', async () => {
    const diagnostics = await open('apps/team/api.yaml');
    // `namespace: other` is not in the capture; team-a, where Flux puts it, is, and enforces baseline.
    assert.deepEqual(namespaceNotes(diagnostics), []);
    const refusal = diagnostics.find((diagnostic) => diagnostic.code === 'admission-refused');
    assert.match(refusal?.message ?? '', /violates PodSecurity "baseline:latest": privileged/);
    assert.match(
      await hoverOnKind('apps/team/api.yaml'),
      /Applied as Flux Kustomization flux-system\/team \(clusters\/prod\/team\.yaml:1\) applies it, every namespaced object in `team-a`\./,
    );
    assert.deepEqual(statuses.at(-1)?.choice, {
      reason: 'nearest',
      path: join(workspace, 'clusters/prod/.foresight/cluster.yaml'),
      appliedBy: 'Flux Kustomization flux-system/team (clusters/prod/team.yaml:1)',
    });
  });

  test('the timeline panel simulates the same units: the Application folder in guests, Flux on its cluster', async () => {
    const simulate = (file: string): Promise<SimulationResult> =>
      session.connection.sendRequest<SimulationResult>(SIMULATION_REQUEST, { uri: uriOf(file) });
    const guestbook = await simulate('apps/guestbook/web.yaml');
    assert.ok(guestbook.ok);
    assert.equal(guestbook.folder.uri, pathToFileURL(join(workspace, 'apps/guestbook')).href);
    // Only web: the sub-folder's Deployment is not read (recurse false); the embedded default's system pods aside.
    const ownPods = (result: SimulationResult & { ok: true }): string[] =>
      result.report.pods
        .filter((pod) => pod.namespace !== 'kube-system')
        .map((pod) => `${pod.namespace}/${pod.owner?.name ?? pod.name}`);
    assert.deepEqual(ownPods(guestbook), ['guests/web']);
    const team = await simulate('apps/team');
    assert.ok(team.ok);
    // In team-a, whose baseline level refuses the privileged pod, as the predictions say.
    assert.deepEqual(ownPods(team), []);
    assert.deepEqual(
      (team.report.rejected ?? []).map((entry) => [entry.namespace, entry.plugin]),
      [['team-a', 'PodSecurity']],
    );
    assert.equal(team.report.cluster.nodes.map((node) => node.name).join(), 'node-1');
  });

  test('Preview Apply plans the unit: the Flux path on the cluster nearest its definition, in targetNamespace', async () => {
    const result = await session.connection.sendRequest<PlanResult>(PLAN_REQUEST, {
      uri: uriOf('apps/team/api.yaml'),
    });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.cluster, 'cluster.yaml');
    assert.deepEqual(
      result.plan.objects.map(
        (object) => `${object.action} ${object.kind} ${object.namespace ?? ''}/${object.name}`,
      ),
      ['created Deployment team-a/api'],
    );
  });

  test('a definition shows the notes foresight validate gives: a path missing from the repository is a warning on it', async () => {
    const uri = uriOf('argocd/missing.yaml');
    const text = APPLICATION.replace('name: guestbook', 'name: missing').replace(
      'path: apps/guestbook',
      'path: apps/nowhere',
    );
    writeFileSync(join(workspace, 'argocd/missing.yaml'), text);
    const diagnostics = await session.open(uri, text);
    const missing = diagnostics.filter((diagnostic) => diagnostic.code === 'gitops-path-missing');
    assert.deepEqual(
      missing.map((diagnostic) => [diagnostic.range.start.line, diagnostic.severity]),
      [[7, 2]],
    );
    assert.match(
      missing[0]?.message ?? '',
      /Application argocd\/missing: path "apps\/nowhere" is not a folder/,
    );
    // Fixed in the editor: the warning goes with the next keystroke.
    const fixed = await session.change(uri, 2, [{ text: text.replace('apps/nowhere', 'apps/team') }]);
    assert.deepEqual(
      fixed.filter((diagnostic) => diagnostic.code === 'gitops-path-missing'),
      [],
    );
    await session.close(uri);
  });

  test(
    'a kustomization a Flux Kustomization builds is rendered in its targetNamespace: the patched privileged pod is refused there',
    {
      skip:
        kustomize === undefined && process.env['CI'] !== 'true' ? 'no kubectl or kustomize on PATH' : false,
    },
    async () => {
      const base = uriOf('apps/web/deploy.yaml');
      await session.open(base, files['apps/web/deploy.yaml'] ?? '');
      // Rendered in default (no Pod Security level there), the patched pod would be admitted and nothing said;
      // the file as written is not privileged, so only the render can refuse it.
      const diagnostics = await session.diagnosticsWhere(
        base,
        (published) => published.some((diagnostic) => diagnostic.code === 'admission-refused'),
        30_000,
      );
      const refusal = diagnostics.find((diagnostic) => diagnostic.code === 'admission-refused');
      assert.match(
        refusal?.message ?? '',
        /Refused by PodSecurity.*violates PodSecurity "baseline:latest": privileged/,
      );
      assert.equal(refusal?.range.start.line, 9);
    },
  );

  test('editing the definition moves the unit: a new destination.namespace is used at once', async () => {
    const uri = uriOf('argocd/guestbook.yaml');
    await session.open(uri, APPLICATION);
    await session.change(uri, 2, [{ text: APPLICATION.replace('namespace: guests', 'namespace: visitors') }]);
    const web = uriOf('apps/guestbook/web.yaml');
    const diagnostics = await session.change(web, 2, [
      { text: `${files['apps/guestbook/web.yaml'] ?? ''}\n` },
    ]);
    assert.deepEqual(namespaceNotes(diagnostics), ['visitors']);
  });
});
