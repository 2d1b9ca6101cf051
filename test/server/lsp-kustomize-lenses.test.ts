/**
 * The code lenses of a file kustomize renders include (issue #28: a file included by kustomizations is judged
 * through their renders): its workloads' lenses come from the overlays' renders, once, on the file's own lines,
 * in place of its folder's prediction of it as written, and Replay opens the overlay's timeline on the rendered
 * workload. Real kustomize (kubectl kustomize); requires `npm run build` first. Fixtures:
 * test/fixtures/kustomize-files/overlay-includes-selectors (a base Deployment whose selector only the overlay
 * supplies) and test/fixtures/kustomize-overlays (README.md there: `split` disagrees, `twins` agree).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CodeLensRefreshRequest, CodeLensRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import type { CodeLens } from 'vscode-languageserver-protocol/node';
import { findKustomize } from '../../server/src/files/kustomize/render-kustomization';
import { LspSession } from '../support/lsp-session';

const SELECTORS = join(__dirname, '..', 'fixtures', 'kustomize-files', 'overlay-includes-selectors');
const OVERLAYS = join(__dirname, '..', 'fixtures', 'kustomize-overlays');

const kustomize = findKustomize(process.env['FORESIGHT_KUSTOMIZE'], process.env['PATH']);
const MISSING = 'neither kubectl nor kustomize is on PATH';
/** Skips when kustomize is missing, except in CI, where the test fails instead (the image has kubectl). */
const needsKustomize = { skip: kustomize === undefined && process.env['CI'] !== 'true' ? MISSING : false };

/** A lens as "LINE TITLE [ARGUMENTS]" (line from 1). */
function row(lens: CodeLens): string {
  const args = lens.command?.arguments;
  return `${lens.range.start.line + 1} ${lens.command?.title ?? ''}${args === undefined ? '' : ` ${JSON.stringify(args)}`}`;
}

/** A session on a workspace folder that tells when the server asks the client to fetch code lenses again. */
class LensSession {
  private waiting: (() => void)[] = [];

  private constructor(readonly session: LspSession) {
    session.connection.onRequest(CodeLensRefreshRequest.type, () => {
      this.waiting.splice(0).forEach((resolve) => resolve());
    });
  }

  static async start(folder: string): Promise<LensSession> {
    return new LensSession(
      await LspSession.start(
        { workspace: { codeLens: { refreshSupport: true } } },
        { workspaceFolders: [folder] },
      ),
    );
  }

  /**
   * The lenses of a file once they satisfy `accept`: asked again each time the server asks for a refresh (the
   * renders arrive after the file's first analysis), failing after 20 s without one that does.
   */
  async lensesWhen(file: string, accept: (lenses: readonly CodeLens[]) => boolean): Promise<CodeLens[]> {
    const uri = pathToFileURL(file).href;
    if (this.session.lastDiagnostics(uri) === undefined) {
      await this.session.open(uri, readFileSync(file, 'utf8'));
    }
    const deadline = Date.now() + 20_000;
    for (;;) {
      const refreshed = new Promise<void>((resolve) => this.waiting.push(resolve));
      const lenses =
        (await this.session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
      if (accept(lenses)) {
        return lenses;
      }
      const left = deadline - Date.now();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), Math.max(1, left));
      });
      const outcome = await Promise.race([refreshed, timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        assert.fail(`no accepted lenses for ${file} within 20 s; last: ${lenses.map(row).join(' | ')}`);
      }
    }
  }

  /** The hover's Markdown at a position of an open file. */
  async hover(file: string, line: number, character: number): Promise<string> {
    const hover = await this.session.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: pathToFileURL(file).href },
      position: { line, character },
    });
    const contents = hover?.contents;
    return typeof contents === 'object' && 'kind' in contents ? contents.value : '';
  }

  stop(): Promise<void> {
    return this.session.stop();
  }
}

describe('a kustomize base file gets its code lenses from its overlays’ renders', () => {
  describe('a base Deployment with no selector of its own (the overlay’s labels supply it)', () => {
    let lenses: LensSession;
    before(async () => {
      lenses = await LensSession.start(SELECTORS);
    });
    after(() => lenses.stop());

    test(
      'has the lens of its rendered pods on its own line, once, and Replay opens the overlay’s timeline',
      needsKustomize,
      async () => {
        const base = join(SELECTORS, 'base', 'deployment.yaml');
        // As written it has no selector: its folder's prediction leaves it out and gives it no lens.
        const shown = await lenses.lensesWhen(base, (found) => found.length > 0);
        assert.deepEqual(shown.map(row), [
          // Lines 1-3 are the file's comment; line 4 is the Deployment's first key.
          `4 ${shown[0]?.command?.title ?? ''}`,
          `4 Replay ${JSON.stringify([
            pathToFileURL(join(SELECTORS, 'overlays', 'prod', 'kustomization.yaml')).href,
            { kind: 'Deployment', namespace: 'default', name: 'catalog' },
          ])}`,
        ]);
        assert.match(shown[0]?.command?.title ?? '', /^2\/2 scheduled · Burstable/);
        // The hover on its kind is the render's prediction too (line 5: `kind: Deployment`).
        const hover = await lenses.hover(base, 4, 8);
        assert.match(hover, /^\*\*Prediction\*\* · Deployment catalog: all 2 scheduled/);
      },
    );
  });

  describe('a base two overlays include', () => {
    let lenses: LensSession;
    before(async () => {
      lenses = await LensSession.start(OVERLAYS);
    });
    after(() => lenses.stop());

    test(
      'overlays that disagree: one summary per overlay, named by it, and a Replay of each',
      needsKustomize,
      async () => {
        // split/wide runs 6 replicas of 3 CPUs (3 stay Pending on three 4-CPU workers); split/narrow keeps 2.
        const shown = await lenses.lensesWhen(join(OVERLAYS, 'split', 'base', 'deployment.yaml'), (found) =>
          found.some((lens) => lens.command?.title.startsWith('split/wide: ') === true),
        );
        const titles = shown.map((lens) => `${lens.range.start.line + 1} ${lens.command?.title ?? ''}`);
        assert.equal(titles.length, 4, titles.join('\n'));
        assert.match(titles[0] ?? '', /^1 split\/narrow: 2\/2 scheduled · Burstable/);
        assert.match(titles[1] ?? '', /^1 split\/wide: 3\/6 scheduled · 3 Pending · Burstable/);
        assert.deepEqual(titles.slice(2), ['1 Replay split/narrow', '1 Replay split/wide']);
        assert.deepEqual(
          shown.slice(2).map((lens) => lens.command?.arguments),
          ['narrow', 'wide'].map((overlay) => [
            pathToFileURL(join(OVERLAYS, 'split', overlay, 'kustomization.yaml')).href,
            { kind: 'Deployment', namespace: 'default', name: 'api' },
          ]),
        );
        // The hover on its name gives each overlay's prediction under its name, not the base's as written.
        const hover = await lenses.hover(join(OVERLAYS, 'split', 'base', 'deployment.yaml'), 3, 9);
        const parts = hover.split('\n\n---\n\n');
        assert.match(
          parts[0] ?? '',
          /^\*\*overlay `split\/narrow`\*\*\n\n\*\*Prediction\*\* · Deployment api: all 2 scheduled/,
        );
        assert.match(
          parts[1] ?? '',
          /^\*\*overlay `split\/wide`\*\*\n\n\*\*Prediction\*\* · Deployment api: 3 of 6 /,
        );
      },
    );

    test(
      'overlays that agree: the summary once, naming neither, and a Replay of each',
      needsKustomize,
      async () => {
        const shown = await lenses.lensesWhen(join(OVERLAYS, 'twins', 'base', 'deployment.yaml'), (found) =>
          found.some((lens) => lens.command?.title === 'Replay twins/green'),
        );
        const titles = shown.map((lens) => `${lens.range.start.line + 1} ${lens.command?.title ?? ''}`);
        assert.equal(titles.length, 3, titles.join('\n'));
        // Both render the same Deployment batch whose component's nodeSelector matches no node.
        assert.match(titles[0] ?? '', /^1 0\/2 scheduled · 2 Pending · BestEffort/);
        assert.deepEqual(titles.slice(1), ['1 Replay twins/blue', '1 Replay twins/green']);
      },
    );
  });
});
