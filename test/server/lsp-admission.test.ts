/**
 * What the API server refuses, in the editor: the refusal is an error on the field that causes it, with the
 * plugin's own words, and the workload's pods are not predicted to run.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CodeLensRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import type { CodeAction, Diagnostic, MarkupContent } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseAllDocuments } from 'yaml';
import type { SourcedObject } from '../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../server/src/engine/simulate/simulate';
import { LspSession } from '../support/lsp-session';

const CLUSTER = `apiVersion: v1
kind: Node
metadata:
  name: w1
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: default
  namespace: default
`;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      serviceAccountName: builder
      containers:
        - name: web
          image: nginx:1.27
          resources: {requests: {cpu: 100m, memory: 64Mi}}
`;

function covered(text: string, diagnostic: Diagnostic): string {
  const line = text.split('\n')[diagnostic.range.start.line] ?? '';
  return line.slice(diagnostic.range.start.character, diagnostic.range.end.character);
}

describe('admission refusals over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  test('a service account the cluster file lacks refuses the pods, shown on serviceAccountName', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-admission-'));
    mkdirSync(join(folder, '.foresight'));
    writeFileSync(join(folder, '.foresight', 'cluster.yaml'), CLUSTER);
    writeFileSync(join(folder, 'web.yaml'), DEPLOYMENT);
    const uri = pathToFileURL(join(folder, 'web.yaml')).href;
    const diagnostics = await session.open(uri, DEPLOYMENT);
    const refused = diagnostics.filter((d) => d.code === 'admission-refused');
    assert.equal(refused.length, 1, JSON.stringify(diagnostics.map((d) => [d.code, d.message])));
    assert.equal(refused[0]?.severity, 1);
    assert.equal(covered(DEPLOYMENT, refused[0]), 'builder');
    assert.match(
      refused[0]?.message ?? '',
      /^Refused by ServiceAccount, so no pod of Deployment "web" exists \(2 desired\): pods "web-[a-z0-9]+-" is forbidden: error looking up service account default\/builder: serviceaccount "builder" not found$/,
    );
  });

  test('a quota that lets 2 of 3 replicas be created: the lens counts the refused one, a warning names the quota', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-quota-'));
    const text = DEPLOYMENT.replace('replicas: 2', 'replicas: 3').replace(
      '      serviceAccountName: builder\n',
      '',
    );
    const quota =
      'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: pods\nspec:\n  hard:\n    pods: "2"\n';
    writeFileSync(join(folder, 'quota.yaml'), quota);
    const { uri, diagnostics } = await session.openFile(folder, 'web.yaml', text);
    // Part of the workload runs: a warning, not an error.
    assert.equal(diagnostics.filter((d) => d.code === 'admission-refused').length, 0);
    const refused = diagnostics.find((d) => d.code === 'admission-refused-partly');
    assert.equal(refused?.severity, 2);
    assert.match(
      refused?.message ?? '',
      /^Refused by ResourceQuota, so 1 of 3 replicas of Deployment "web" never exist: .*exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2$/,
    );
    const lenses = await session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    assert.match(lenses?.[0]?.command?.title ?? '', /^2\/3 scheduled · 1 refused by ResourceQuota · /);
    // The hover on the kind: where the replicas run, then the refusal with the count.
    const hover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: text.split('\n').indexOf('kind: Deployment'), character: 1 },
    });
    const markdown = (hover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(markdown, /\*\*Prediction\*\* · Deployment web/);
    assert.match(markdown, /\*\*Admission\*\* · pods of Deployment web: refused by ResourceQuota/);
    assert.match(markdown, /A ResourceQuota of namespace default caps what its objects may use/);
    assert.match(markdown, /3 desired · 2 created · \*\*1 refused\*\*/);
  });

  test('a Pod Security refusal offers to set what restricted requires, and the fixed file is admitted', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-restricted-'));
    const text = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    pod-security.kubernetes.io/enforce: restricted
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx:1.27
          securityContext:
            readOnlyRootFilesystem: true
        - name: sidecar
          image: busybox:1.36
          securityContext:
            capabilities:
              drop:
                - NET_RAW
`;
    const { uri, diagnostics } = await session.openFile(folder, 'web.yaml', text);
    const refused = diagnostics.find((d) => d.code === 'admission-refused');
    assert.ok(refused, JSON.stringify(diagnostics.map((d) => [d.code, d.message])));
    const [action] = await session.fixesFor(uri, refused);
    assert.equal(
      action?.title,
      'Set what Pod Security "restricted" requires: allowPrivilegeEscalation: false, capabilities.drop: [ALL], runAsNonRoot: true, seccompProfile: RuntimeDefault',
    );
    const fixed = TextDocument.applyEdits(
      TextDocument.create(uri, 'yaml', 1, text),
      action?.edit?.changes?.[uri] ?? [],
    );
    // The user's own fields stay; the added ones sit in their maps, in block style.
    assert.match(
      fixed,
      /readOnlyRootFilesystem: true\n {12}allowPrivilegeEscalation: false\n {12}capabilities:\n {14}drop:\n {16}- ALL\n/,
    );
    assert.match(fixed, /- NET_RAW\n {16}- ALL\n {12}allowPrivilegeEscalation: false\n/);
    assert.match(
      fixed,
      /\n {6}securityContext:\n {8}runAsNonRoot: true\n {8}seccompProfile:\n {10}type: RuntimeDefault\n/,
    );
    const report = simulate({
      manifests: parseAllDocuments(fixed).map((document, documentIndex): SourcedObject => ({
        object: document.toJS() as unknown,
        source: { file: 'web.yaml', documentIndex, path: [] },
      })),
      cluster: null,
    }).report;
    assert.deepEqual(report.rejected, []);
    assert.equal(report.pods.length, 2);
  });

  test('a privileged container is made unprivileged with what restricted requires, and the fixed Pod is admitted', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-privileged-'));
    const text = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    pod-security.kubernetes.io/enforce: restricted
---
apiVersion: v1
kind: Pod
metadata:
  name: debug
  namespace: shop
spec:
  containers:
    - name: shell
      image: busybox:1.36
      securityContext:
        privileged: true
        capabilities:
          add:
            - SYS_ADMIN
`;
    const { uri, diagnostics } = await session.openFile(folder, 'debug.yaml', text);
    const refused = diagnostics.find((d) => d.code === 'admission-refused');
    assert.ok(refused);
    const [action] = await session.fixesFor(uri, refused);
    assert.equal(
      action?.title,
      'Set what Pod Security "restricted" requires: privileged: false, allowPrivilegeEscalation: false, capabilities.add without SYS_ADMIN, capabilities.drop: [ALL], runAsNonRoot: true, seccompProfile: RuntimeDefault',
    );
    const fixed = TextDocument.applyEdits(
      TextDocument.create(uri, 'yaml', 1, text),
      action?.edit?.changes?.[uri] ?? [],
    );
    assert.match(
      fixed,
      /privileged: false\n {8}capabilities:\n {10}drop:\n {12}- ALL\n {8}allowPrivilegeEscalation: false\n/,
    );
    const report = simulate({
      manifests: parseAllDocuments(fixed).map((document, documentIndex): SourcedObject => ({
        object: document.toJS() as unknown,
        source: { file: 'debug.yaml', documentIndex, path: [] },
      })),
      cluster: null,
    }).report;
    assert.deepEqual(report.rejected, []);
    assert.equal(report.pods.length, 1);
  });

  test('at baseline a privileged Pod on the host network is made unprivileged, and the title says hostNetwork remains refused', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-host-network-'));
    const text = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    pod-security.kubernetes.io/enforce: baseline
---
apiVersion: v1
kind: Pod
metadata:
  name: debug
  namespace: shop
spec:
  hostNetwork: true
  containers:
    - name: shell
      image: busybox:1.36
      securityContext:
        privileged: true
`;
    const { uri, diagnostics } = await session.openFile(folder, 'debug.yaml', text);
    const refused = diagnostics.find((d) => d.code === 'admission-refused');
    assert.ok(refused);
    const actions = await session.codeActionsFor(uri, refused);
    assert.deepEqual(
      actions.filter((item): item is CodeAction => 'edit' in item).map((item) => item.title),
      [
        'Set the securityContext fields Pod Security "baseline" requires: privileged: false (still refused: host namespaces)',
      ],
    );
  });

  test('a Pod refused for its host network alone gets no fix: securityContext cannot change that', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-privileged-'));
    const text = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    pod-security.kubernetes.io/enforce: restricted
---
apiVersion: v1
kind: Pod
metadata:
  name: debug
  namespace: shop
spec:
  hostNetwork: true
  securityContext:
    runAsNonRoot: true
    seccompProfile:
      type: RuntimeDefault
  containers:
    - name: shell
      image: busybox:1.36
      securityContext:
        allowPrivilegeEscalation: false
        capabilities:
          drop: [ALL]
`;
    const { uri, diagnostics } = await session.openFile(folder, 'debug.yaml', text);
    const refused = diagnostics.find((d) => d.code === 'admission-refused');
    assert.ok(refused);
    const actions = await session.codeActionsFor(uri, refused);
    assert.deepEqual(
      actions.filter((item): item is CodeAction => 'edit' in item).map((item) => item.title),
      [],
    );
    // Nothing of the Pod exists: the hover on its kind is the refusal, with the namespace's policy.
    const hover = await session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: text.split('\n').indexOf('kind: Pod'), character: 1 },
    });
    const markdown = (hover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(markdown, /^\*\*Admission\*\* · Pod debug: refused by PodSecurity/);
    assert.match(
      markdown,
      /Namespace shop enforces Pod Security \*\*restricted:latest\*\* \(its label `pod-security.kubernetes.io\/enforce`\)/,
    );
    assert.match(markdown, /> pods "debug" is forbidden: violates PodSecurity/);
  });

  /**
   * Opens web.yaml in `folder`, takes the admission refusal's first fix, applies it, and simulates the fixed text
   * on the embedded cluster: what the fix's title promises is checked against that.
   */
  async function refusalFixed(folder: string, text: string) {
    const { uri, diagnostics } = await session.openFile(folder, 'web.yaml', text);
    const refused = diagnostics.find((d) => d.code === 'admission-refused');
    assert.ok(refused);
    const [action] = await session.fixesFor(uri, refused);
    const fixed = TextDocument.applyEdits(
      TextDocument.create(uri, 'yaml', 1, text),
      action?.edit?.changes?.[uri] ?? [],
    );
    const report = simulate({
      manifests: parseAllDocuments(fixed).map((document, documentIndex): SourcedObject => ({
        object: document.toJS() as unknown,
        source: { file: 'web.yaml', documentIndex, path: [] },
      })),
      cluster: null,
    }).report;
    return { refused, action, report };
  }

  test('a quota that needs stated resources offers the default resources, and the fixed file is admitted', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-must-specify-'));
    const text = `apiVersion: v1
kind: ResourceQuota
metadata:
  name: compute
spec:
  hard:
    requests.cpu: "2"
    limits.memory: 2Gi
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx:1.27
`;
    const { refused, action, report } = await refusalFixed(folder, text);
    assert.match(
      refused.message,
      /failed quota: compute: must specify limits\.memory for: web; requests\.cpu for: web$/,
    );
    assert.match(action?.title ?? '', /^Add resources \(.*from kubeForesight\.defaultResources\)$/);
    assert.deepEqual(report.rejected, []);
    assert.equal(report.pods.length, 2);
  });

  test('the quota fix says when the quota has room for fewer pods than desired, and the fixed file proves it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-quota-room-'));
    // Room for 2 of 3 pods at the default 100m each (kubeForesight.defaultResources).
    const text = `apiVersion: v1
kind: ResourceQuota
metadata:
  name: compute
spec:
  hard:
    requests.cpu: 250m
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx:1.27
`;
    const { action, report } = await refusalFixed(folder, text);
    assert.match(
      action?.title ?? '',
      /^Add resources \(.*from kubeForesight\.defaultResources\) \(still refused for 1 of 3 pod\(s\): quota "compute" has requests\.cpu 250m left\)$/,
    );
    // What the title said: 2 pods admitted, the third refused for exceeding the quota.
    assert.equal(report.pods.length, 2);
    assert.match(
      report.rejected[0]?.message ?? '',
      /exceeded quota: compute, requested: requests\.cpu=100m, used: requests\.cpu=200m, limited: requests\.cpu=250m$/,
    );
  });
});
