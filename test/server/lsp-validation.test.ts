/**
 * The bundled language server, started as editors start it (`node dist/server.js --stdio`), driven over LSP.
 * Requires `npm run build` first (npm test does it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { LspSession } from '../support/lsp-session';

/** How long a test waits for a big file's diagnostics before calling it a hang (not a timing goal: see bench/). */
const HANG_GUARD_MS = 120_000;

const DEPLOYMENT = `apiVersion: apps/v1
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
        - name: app
          image: nginx:1.27
          resources:
            requests:
              cpu: 250m
              memory: 128Mi
`;

/** The text a diagnostic's range covers. */
function covered(text: string, diagnostic: Diagnostic): string {
  const lines = text.split('\n');
  const { start, end } = diagnostic.range;
  if (start.line === end.line) {
    return (lines[start.line] ?? '').slice(start.character, end.character);
  }
  return `${(lines[start.line] ?? '').slice(start.character)}…`;
}

describe('language server over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  test('a valid Deployment gets no diagnostic', async () => {
    const diagnostics = await session.open('file:///valid.yaml', DEPLOYMENT);
    assert.deepEqual(diagnostics, []);
  });

  test('a wrong type is reported on the value, with our source and code', async () => {
    const text = DEPLOYMENT.replace('replicas: 3', 'replicas: "3"');
    const diagnostics = await session.open('file:///type.yaml', text);
    assert.equal(diagnostics.length, 1);
    const [diagnostic] = diagnostics;
    assert.ok(diagnostic);
    assert.equal(diagnostic.source, 'kube-foresight');
    assert.equal(diagnostic.code, 'schema-type');
    assert.equal(covered(text, diagnostic), '"3"');
    assert.equal(diagnostic.message, '"spec.replicas" must be integer, not string "3"; remove the quotes.');
  });

  test('an incremental change re-validates: fixing the error clears it, breaking another reports it', async () => {
    const uri = 'file:///incremental.yaml';
    const text = DEPLOYMENT.replace('memory: 128Mi', 'memory: 128mb');
    const first = await session.open(uri, text);
    assert.deepEqual(
      first.map((d) => d.code),
      ['invalid-quantity'],
    );
    assert.equal(
      first[0]?.message,
      '"128mb" is not a quantity (spec.template.spec.containers[0].resources.requests.memory): did you mean 128M or 128Mi?',
    );
    const line = text.split('\n').findIndex((l) => l.includes('128mb'));
    const column = (text.split('\n')[line] ?? '').indexOf('128mb');
    const fixed = await session.change(uri, 2, [
      { range: { start: { line, character: column + 3 }, end: { line, character: column + 5 } }, text: 'Mi' },
    ]);
    assert.deepEqual(fixed, []);
    const imageLine = text.split('\n').findIndex((l) => l.includes('image: nginx'));
    const broken = await session.change(uri, 3, [
      {
        range: { start: { line: imageLine, character: 10 }, end: { line: imageLine, character: 15 } },
        text: 'imagee',
      },
    ]);
    // Misspelt, the image is also missing: the API server reports both (validateContainerCommon's Required).
    assert.deepEqual(
      broken.map((d) => [d.code, d.range.start.line, d.message]),
      [
        ['invalid-container-image', imageLine - 1, 'spec.template.spec.containers[0].image: Required value'],
        [
          'schema-unknown-field',
          imageLine,
          'Unknown field "imagee" in spec.template.spec.containers[0]; did you mean "image"?',
        ],
      ],
    );
  });

  test('YAML that is not a Kubernetes object gets no diagnostic at all', async () => {
    const workflow =
      'name: CI\non:\n  push:\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n';
    assert.deepEqual(await session.open('file:///.github/workflows/ci.yaml', workflow), []);
  });

  test('a Helm template is skipped with one information message', async () => {
    const chart =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicas }}\n';
    const diagnostics = await session.open('file:///chart/templates/deploy.yaml', chart);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity]),
      [['helm-template-skipped', 3]],
    );
  });

  test('a removed apiVersion is reported with the version that removed it and a quick fix', async () => {
    const pdb =
      'apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: web\n';
    const diagnostics = await session.open('file:///pdb.yaml', pdb);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]?.code, 'removed-api-version');
    assert.match(diagnostics[0]?.message ?? '', /removed in Kubernetes 1\.25; use policy\/v1/);
    assert.equal(covered(pdb, diagnostics[0]), 'policy/v1beta1');
  });

  test('the server survives hostile input and still answers afterwards', async () => {
    let bomb =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\ndata:\n  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++) {
      const name = String.fromCharCode(97 + i);
      bomb += `  ${name}: &${name} [${Array<string>(9)
        .fill(`*${String.fromCharCode(96 + i)}`)
        .join(',')}]\n`;
    }
    const hostile: { name: string; text: string; codes: string[] }[] = [
      { name: 'alias bomb', text: bomb, codes: ['yaml-alias-limit'] },
      {
        name: 'deep nesting',
        text: `apiVersion: v1\nkind: ConfigMap\ndata: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
        codes: ['yaml-too-deep'],
      },
      { name: 'NUL byte', text: 'apiVersion: v1\nkind: ConfigMap\u0000\n', codes: ['file-not-text'] },
      {
        name: 'binary garbage',
        text: Array.from({ length: 2000 }, (_, i) => String.fromCharCode((i * 7919) % 65_000)).join(''),
        codes: [],
      },
    ];
    for (const { name, text, codes } of hostile) {
      const diagnostics = await session.open(`file:///hostile-${name.replace(/ /g, '-')}.yaml`, text);
      if (codes.length > 0) {
        assert.deepEqual([...new Set(diagnostics.map((d) => d.code))], codes, name);
      }
      assert.ok(session.isAlive, `the server is alive after ${name}`);
    }
    assert.deepEqual(await session.open('file:///after-hostile.yaml', DEPLOYMENT), []);
  });

  test('a 5 MB file is answered, and edits faster than validation only publish the latest version', async () => {
    const uri = 'file:///big.yaml';
    const big = Array.from({ length: 14_000 }, (_, i) =>
      DEPLOYMENT.replace('name: web', `name: web-${i}`),
    ).join('---\n');
    assert.ok(big.length > 5_000_000, `${big.length} characters`);
    // The guards only catch a hang: how fast a big file is answered is measured in bench/, not here, where a loaded
    // machine made a 20 s guard fail.
    // On a machine loaded enough that 14,000 documents take more than the server's 20 s analysis budget (load
    // about 10 on two cores), the server stops and says so on the file: its designed answer, not what this test
    // is about, so that one finding is set aside.
    const beyondBudget = (d: { code?: unknown; message: string }): boolean =>
      d.code === 'analysis-incomplete' && d.message.includes('took longer than');
    const diagnostics = (await session.open(uri, big, 'yaml', 1, HANG_GUARD_MS)).filter(
      (d) => !beyondBudget(d),
    );
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.message]),
      [
        [
          'predictions-skipped',
          '14,000 Kubernetes objects are analysed together here, more than the 2,000 simulated as you type, so predictions are off here; `foresight simulate` has no such limit.',
        ],
      ],
    );
    const latest = session.diagnostics(uri, 21, HANG_GUARD_MS);
    for (let version = 2; version <= 21; version++) {
      await session.notifyChange(uri, version, [
        { range: { start: { line: 3, character: 8 }, end: { line: 3, character: 9 } }, text: 'w' },
      ]);
    }
    assert.deepEqual(
      (await latest).filter((d) => !beyondBudget(d)).map((d) => d.code),
      ['predictions-skipped'],
    );
    assert.ok(session.isAlive);
  });
});
