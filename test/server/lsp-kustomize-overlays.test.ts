/**
 * The bundled language server renders the kustomize overlays that include an edited file with the real kustomize
 * (kubectl kustomize, v5.5 on the machines and in CI) and publishes their findings on the file, named by overlay,
 * at the line the field came from. Fixture: test/fixtures/kustomize-overlays (README.md there). Requires
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

const kustomize = findKustomize(process.env['FORESIGHT_KUSTOMIZE'], process.env['PATH']);
const MISSING = 'neither kubectl nor kustomize is on PATH';
/** Skips when kustomize is missing, except in CI, where the test fails instead (the image has kubectl). */
const needsKustomize = { skip: kustomize === undefined && process.env['CI'] !== 'true' ? MISSING : false };

function assertKustomizeFound(): void {
  assert.ok(kustomize !== undefined, `${MISSING} (CI=true: the overlay tests must run)`);
}

function overlayDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((diagnostic) => /^overlays? `/.test(diagnostic.message));
}

/** The overlay diagnostics as "line code message-start" rows, sorted. */
function rows(diagnostics: readonly Diagnostic[]): string[] {
  return overlayDiagnostics(diagnostics)
    .map(
      (diagnostic) => `${diagnostic.range.start.line + 1} ${String(diagnostic.code)} ${diagnostic.message}`,
    )
    .sort();
}

const hasBothOverlays = (diagnostics: readonly Diagnostic[]): boolean =>
  ['shop/overlays/prod', 'shop/overlays/zonal'].every((label) =>
    diagnostics.some((diagnostic) => diagnostic.message.startsWith(`overlay \`${label}\``)),
  );

describe('kustomize overlays over LSP (real kustomize, trusted workspace)', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start({}, { workspaceFolders: [ROOT] });
  });
  after(async () => {
    await session.stop();
  });

  test(
    "the base file gets each overlay's predictions, named by overlay, at the line of the field (a JSON6902 CPU request in prod, a component's nodeSelector in zonal)",
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const uri = pathToFileURL(BASE).href;
      const first = await session.open(uri, readFileSync(BASE, 'utf8'));
      assert.deepEqual(overlayDiagnostics(first), [], 'the first publish is the raw file only');
      const diagnostics = await session.diagnosticsWhere(uri, hasBothOverlays);
      const found = rows(diagnostics);
      const prod = found.find((row) =>
        row.includes('overlay `shop/overlays/prod`: 3 of 6 replicas stay Pending'),
      );
      assert.ok(prod !== undefined, found.join('\n'));
      // prod: 6 replicas of 3 CPUs on three 4-CPU workers: the CPU request is what does not fit.
      assert.match(prod, /^25 pod-unschedulable .*3 Insufficient cpu/);
      const zonal = found.find((row) =>
        row.includes('overlay `shop/overlays/zonal`: All 2 replicas stay Pending'),
      );
      assert.ok(zonal !== undefined, found.join('\n'));
      assert.match(zonal, /^16 pod-unschedulable .*didn't match Pod's node affinity\/selector/);
      assert.equal(
        diagnostics.filter((diagnostic) => diagnostic.severity === 1).length,
        0,
        'no error on a base that renders',
      );
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
      const diagnostics = await session.diagnosticsWhere(uri, (published) =>
        rows(published).some((row) => row.includes('All 3 replicas stay Pending')),
      );
      const zonal = rows(diagnostics).find((row) => row.includes('`shop/overlays/zonal`: All 3 replicas'));
      assert.match(zonal ?? '', /^18 pod-unschedulable/);
      assert.equal(readFileSync(BASE, 'utf8').includes('replicas: 2'), true, 'the file on disk is untouched');
    },
  );

  test(
    "a render that fails shows kustomize's message on the overlay's kustomization.yaml",
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
        await session.open(uri, readFileSync(BASE, 'utf8'));
        await session.diagnosticsWhere(uri, hasBothOverlays);
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
