/**
 * The bundled language server renders the kustomize overlays that include an edited file with the real kustomize
 * (kubectl kustomize, v5.5 on the machines and in CI) and publishes their findings on the file at the line the
 * field came from, named by overlay only where the overlays that include the file disagree. Fixture: test/fixtures/kustomize-overlays (README.md there). Requires
 * `npm run build` first.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { findKustomize } from '../../server/src/files/kustomize/render-kustomization';
import { LspSession } from '../support/lsp-session';

const ROOT = join(__dirname, '..', 'fixtures', 'kustomize-overlays');
const BASE = join(ROOT, 'shop', 'base', 'deployment.yaml');
const FAILING = join(ROOT, 'failing', 'overlay', 'kustomization.yaml');
const TWINS_BASE = join(ROOT, 'twins', 'base', 'deployment.yaml');
const TWINS_PATCH = join(ROOT, 'twins', 'gpu-only', 'node-selector.yaml');
const CPU_PATCH = join(ROOT, 'shop', 'overlays', 'prod', 'cpu.json-patch.yaml');
const SELECTOR_PATCH = join(ROOT, 'shop', 'components', 'ssd-only', 'node-selector.yaml');
const SPLIT_BASE = join(ROOT, 'split', 'base', 'deployment.yaml');
const ONE_LINE = join(ROOT, 'one-line', 'deploy.yaml');

const kustomize = findKustomize(process.env['FORESIGHT_KUSTOMIZE'], process.env['PATH']);
const MISSING = 'neither kubectl nor kustomize is on PATH';
/** Skips when kustomize is missing, except in CI, where the test fails instead (the image has kubectl). */
const needsKustomize = { skip: kustomize === undefined && process.env['CI'] !== 'true' ? MISSING : false };

function assertKustomizeFound(): void {
  assert.ok(kustomize !== undefined, `${MISSING} (CI=true: the overlay tests must run)`);
}

/**
 * What the renders say of a file: a diagnostic named by its overlays, or a Pending prediction (a file that
 * kustomizations include is predicted through their renders only; the files here have no other).
 */
function overlayDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter(
    (diagnostic) => /^overlays? `/.test(diagnostic.message) || diagnostic.code === 'pod-unschedulable',
  );
}

/** The overlay diagnostics as "line code message-start" rows, sorted. */
function rows(diagnostics: readonly Diagnostic[]): string[] {
  return overlayDiagnostics(diagnostics)
    .map(
      (diagnostic) => `${diagnostic.range.start.line + 1} ${String(diagnostic.code)} ${diagnostic.message}`,
    )
    .sort();
}

/** The related information of the overlays' diagnostics, as "URI:LINE message". */
function relatedRows(diagnostics: readonly Diagnostic[]): string[] {
  return overlayDiagnostics(diagnostics).flatMap((diagnostic) =>
    (diagnostic.relatedInformation ?? []).map(
      (entry) => `${entry.location.uri}:${entry.location.range.start.line + 1} ${entry.message}`,
    ),
  );
}

describe('kustomize overlays over LSP (real kustomize, trusted workspace)', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start({}, { workspaceFolders: [ROOT] });
  });
  after(async () => {
    await session.stop();
  });

  test(
    "each overlay's predictions are placed where the field came from: base, JSON6902 patch, component patch",
    needsKustomize,
    async () => {
      assertKustomizeFound();
      // Patches get their findings only while open: diagnostics are published for open documents.
      const [cpuPatch, selectorPatch] = await Promise.all(
        [CPU_PATCH, SELECTOR_PATCH].map(async (file) => {
          const uri = pathToFileURL(file).href;
          await session.open(uri, readFileSync(file, 'utf8'));
          return uri;
        }),
      );
      const uri = pathToFileURL(BASE).href;
      const first = await session.open(uri, readFileSync(BASE, 'utf8'));
      assert.deepEqual(overlayDiagnostics(first), [], 'the first publish is the raw file only');
      // prod: 6 replicas of 3 CPUs on three 4-CPU workers; the 3 CPUs come from the JSON6902 patch's value.
      const prod = await session.diagnosticsWhere(cpuPatch ?? '', (published) => rows(published).length > 0);
      assert.equal(rows(prod).length, 1, rows(prod).join('\n'));
      assert.match(
        rows(prod)[0] ?? '',
        // Only prod includes the patch: nothing to tell apart, so no overlay is named.
        /^3 pod-unschedulable 3 of 6 replicas stay Pending: 0\/4 nodes are available: .*3 Insufficient cpu/,
      );
      // zonal: the component's nodeSelector matches no node.
      const zonal = await session.diagnosticsWhere(
        selectorPatch ?? '',
        (published) => rows(published).length > 0,
      );
      assert.equal(rows(zonal).length, 1, rows(zonal).join('\n'));
      assert.match(
        rows(zonal)[0] ?? '',
        /^8 pod-unschedulable All 2 replicas stay Pending: .*3 node\(s\) didn't match Pod's node affinity\/selector/,
      );
      // One cause, one diagnostic (issue #28): what the base's own field adds to it (the pod template the control
      // plane's taint rejects) is the diagnostic's related information, on the base's line.
      assert.deepEqual(relatedRows(prod), [
        `${uri}:16 1 of 4 nodes (control-plane) also reject prod-web: node(s) had untolerated taint(s).`,
      ]);
      assert.deepEqual(relatedRows(zonal), [
        `${uri}:16 1 of 4 nodes (control-plane) also reject zonal-web: node(s) had untolerated taint(s).`,
      ]);
      for (const published of [prod, zonal]) {
        assert.equal(
          published.filter((diagnostic) => diagnostic.severity === 1).length,
          0,
          'no error where every overlay renders',
        );
      }
    },
  );

  test(
    "unsaved text counts: an edited base is rendered from a copy with the editor's text, lines follow the edit",
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const uri = pathToFileURL(BASE).href;
      const edited = `# two lines the file on disk\n# does not have\n${readFileSync(BASE, 'utf8').replace('replicas: 2', 'replicas: 3')}`;
      await session.notifyChange(uri, 2, [{ text: edited }]);
      // The related line on the base follows the two lines the unsaved text added (16 → 18).
      const prod = await session.diagnosticsWhere(pathToFileURL(CPU_PATCH).href, (published) =>
        relatedRows(published).some((row) => row.startsWith(`${uri}:18 `)),
      );
      assert.equal(rows(prod).length, 1, rows(prod).join('\n'));
      // The unsaved replicas: 3 reached kustomize: the zonal overlay (which keeps the base's replicas) has 3.
      const selectorPatch = pathToFileURL(SELECTOR_PATCH).href;
      const zonal = await session.diagnosticsWhere(selectorPatch, (published) =>
        rows(published).some((row) => row.includes('All 3 replicas stay Pending')),
      );
      assert.equal(rows(zonal).length, 1);
      assert.equal(readFileSync(BASE, 'utf8').includes('replicas: 2'), true, 'the file on disk is untouched');
    },
  );

  test(
    'the same finding of two overlays that agree is one diagnostic naming neither; one the file already has is not repeated',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const patch = pathToFileURL(TWINS_PATCH).href;
      await session.open(patch, readFileSync(TWINS_PATCH, 'utf8'));
      const base = pathToFileURL(TWINS_BASE).href;
      await session.open(base, readFileSync(TWINS_BASE, 'utf8'));
      const onPatch = await session.diagnosticsWhere(patch, (published) => rows(published).length > 0);
      assert.equal(rows(onPatch).length, 1, rows(onPatch).join('\n'));
      assert.match(rows(onPatch)[0] ?? '', /^8 pod-unschedulable All 2 replicas stay Pending: /);
      const onBase = await session.diagnosticsWhere(base, () => true);
      // BestEffort is said by the file itself (its own finding) and by both overlays at the same place: once.
      assert.deepEqual(
        onBase
          .filter((diagnostic) => diagnostic.code === 'best-effort-pod')
          .map((diagnostic) => diagnostic.message.slice(0, 30)),
        ['Deployment batch runs BestEffo'],
      );
    },
  );

  test(
    'where the overlays including a base disagree, the finding names the one that gives it, once, on the base',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const uri = pathToFileURL(SPLIT_BASE).href;
      const text = readFileSync(SPLIT_BASE, 'utf8');
      await session.open(uri, text);
      const published = await session.diagnosticsWhere(uri, (diagnostics) => rows(diagnostics).length > 0);
      // split/wide runs 6 replicas of 3 CPUs on three 4-CPU workers; split/narrow keeps the base's 2, which fit.
      assert.deepEqual(rows(published).length, 1, rows(published).join('\n'));
      assert.match(
        rows(published)[0] ?? '',
        /^20 pod-unschedulable overlay `split\/wide`: 3 of 6 replicas stay Pending: 0\/4 nodes are available: /,
      );
    },
  );

  test(
    'a file a one-line kustomization lists: one Pending diagnostic, on the request, with its fix, none at line 1',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const uri = pathToFileURL(ONE_LINE).href;
      const text = readFileSync(ONE_LINE, 'utf8');
      await session.open(uri, text);
      await session.diagnosticsWhere(uri, (diagnostics) =>
        diagnostics.some((d) => d.code === 'pod-unschedulable'),
      );
      // The render agrees with the file, so nothing new is published when it is in: a bounded wait of the render's
      // debounce and a few renders (300 ms + 170 to 550 ms each on the 2-core machine), then the last publish.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const settled = session.lastDiagnostics(uri) ?? [];
      const pending = settled.filter((diagnostic) => diagnostic.code === 'pod-unschedulable');
      assert.equal(pending.length, 1, JSON.stringify(settled.map((d) => [d.range.start.line, d.message])));
      const [diagnostic] = pending;
      assert.ok(diagnostic);
      assert.equal(text.split('\n')[diagnostic.range.start.line]?.trim(), 'cpu: "64"');
      assert.doesNotMatch(diagnostic.message, /^overlay/);
      assert.deepEqual(
        settled.filter((d) => d.range.start.line === 0),
        [],
      );
      const actions = await session.codeActionsFor(uri, diagnostic);
      assert.match(actions[0]?.title ?? '', /^Lower the cpu request to /);
    },
  );

  test('a kustomization naming a remote base gets a note instead of a render', needsKustomize, async () => {
    assertKustomizeFound();
    const kustomization = join(ROOT, 'remote', 'kustomization.yaml');
    const uri = pathToFileURL(kustomization).href;
    await session.open(uri, readFileSync(kustomization, 'utf8'));
    const published = await session.diagnosticsWhere(uri, (diagnostics) =>
      diagnostics.some((diagnostic) => diagnostic.code === 'kustomize-remote-refused'),
    );
    const notes = published.filter((diagnostic) => diagnostic.code === 'kustomize-remote-refused');
    assert.equal(notes.length, 1);
    assert.equal(notes[0]?.severity, 3);
    assert.match(
      notes[0]?.message ?? '',
      /^overlay `remote`: names remote bases \(https:\/\/github\.com\/kubernetes-sigs\/kustomize\/\/examples\/helloWorld\?ref=v5\.5\.0\): .*kubeForesight\.kustomize\.allowRemote/,
    );
  });

  test(
    "a render that fails shows kustomize's message on the overlay's kustomization.yaml, until an unsaved fix",
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const uri = pathToFileURL(FAILING).href;
      await session.open(uri, readFileSync(FAILING, 'utf8'));
      const diagnostics = await session.diagnosticsWhere(uri, (published) =>
        published.some((diagnostic) => diagnostic.code === 'kustomize-render-failed'),
      );
      const failed = diagnostics.find((diagnostic) => diagnostic.code === 'kustomize-render-failed');
      assert.equal(failed?.severity, 1);
      assert.equal(failed?.range.start.line, 0);
      assert.match(
        failed?.message ?? '',
        /^overlay `failing\/overlay`: kustomize could not render it: trouble configuring builtin PatchTransformer .*failed to get the patch file from path\(missing-patch\.yaml\)/s,
      );
      assert.doesNotMatch(failed?.message ?? '', /"command failed"|err=</, 'kubectl log prefix removed');
      // Fixed in the editor, not saved: the unsaved kustomization names an existing patch, and the render of the
      // copy (kustomization read from the editor) succeeds, so the error goes.
      const fixed = readFileSync(FAILING, 'utf8').replace('missing-patch.yaml', 'replicas.yaml');
      await session.notifyChange(uri, 2, [{ text: fixed }]);
      await session.diagnosticsWhere(
        uri,
        (published) => !published.some((diagnostic) => diagnostic.code === 'kustomize-render-failed'),
      );
      assert.match(readFileSync(FAILING, 'utf8'), /missing-patch\.yaml/, 'the file on disk is untouched');
    },
  );
});

describe('kustomize overlays over LSP: when not to render', () => {
  let fakeBin: string;
  let marker: string;
  before(() => {
    fakeBin = mkdtempSync(join(tmpdir(), 'foresight-fake-kubectl-'));
    marker = join(fakeBin, 'ran');
    // A kubectl that records that it ran (a shell built-in: PATH holds only this folder), then runs the real one.
    writeFileSync(
      join(fakeBin, 'kubectl'),
      `#!/bin/sh\n: > '${marker}'\nexec '${kustomize?.file ?? 'kubectl'}' "$@"\n`,
    );
    chmodSync(join(fakeBin, 'kubectl'), 0o755);
  });
  after(() => {
    rmSync(fakeBin, { recursive: true, force: true });
  });

  test(
    'an untrusted workspace never renders: no kustomize run, no overlay finding',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const session = await LspSession.start(
        {},
        {
          workspaceFolders: [ROOT],
          initializationOptions: { workspaceTrusted: false },
          env: { ...process.env, PATH: fakeBin },
        },
      );
      try {
        const uri = pathToFileURL(BASE).href;
        const first = await session.open(uri, readFileSync(BASE, 'utf8'));
        assert.deepEqual(overlayDiagnostics(first), []);
        // Nothing to wait for when nothing happens: a bounded wait of five render debounces (300 ms each).
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        assert.equal(existsSync(marker), false, 'kubectl was not run');
        assert.deepEqual(overlayDiagnostics(session.lastDiagnostics(uri) ?? []), []);
      } finally {
        await session.stop();
      }
    },
  );

  test(
    'the same workspace trusted runs that kubectl (the check above can fail)',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const session = await LspSession.start(
        {},
        { workspaceFolders: [ROOT], env: { ...process.env, PATH: fakeBin } },
      );
      try {
        const uri = pathToFileURL(BASE).href;
        const patch = pathToFileURL(CPU_PATCH).href;
        await session.open(patch, readFileSync(CPU_PATCH, 'utf8'));
        await session.open(uri, readFileSync(BASE, 'utf8'));
        await session.diagnosticsWhere(patch, (published) => rows(published).length > 0);
        assert.equal(existsSync(marker), true, 'kubectl was run');
      } finally {
        await session.stop();
        rmSync(marker, { force: true });
      }
    },
  );

  test('without kubectl or kustomize: one information note saying how to install it, no error', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'foresight-empty-path-'));
    const session = await LspSession.start(
      {},
      { workspaceFolders: [ROOT], env: { ...process.env, PATH: empty } },
    );
    try {
      const uri = pathToFileURL(BASE).href;
      await session.open(uri, readFileSync(BASE, 'utf8'));
      const diagnostics = await session.diagnosticsWhere(uri, (published) =>
        published.some((diagnostic) => diagnostic.code === 'kustomize-not-found'),
      );
      const notes = diagnostics.filter((diagnostic) => diagnostic.code === 'kustomize-not-found');
      assert.equal(notes.length, 1);
      assert.equal(notes[0]?.severity, 3);
      assert.match(notes[0]?.message ?? '', /kubectl \(≥ 1\.14 has `kubectl kustomize`/);
      assert.equal(diagnostics.filter((diagnostic) => diagnostic.severity === 1).length, 0);
    } finally {
      await session.stop();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
