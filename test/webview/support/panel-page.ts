/**
 * Loads the built timeline page (dist/media) in headless Chromium inside a harness equivalent to what the host
 * renders: the same HTML builder and Content-Security-Policy, served from a stand-in webview origin, with a
 * stand-in for acquireVsCodeApi that records posted messages and keeps the view state. Records every dialog,
 * CSP violation, console error and page error so that tests can fail on them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { buildPanelHtml, createNonce } from '../../../client/src/panel/panel-html';
import type { HostToWebviewMessage, PanelReport } from '../../../protocol/webview-messages';

/** Debian's Chromium, which CI installs (.ci/run). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Why the webview tests are skipped, or false when they run: only a missing Chromium skips them. */
export const SKIP_WITHOUT_CHROMIUM: string | false = existsSync(CHROMIUM_PATH)
  ? false
  : `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium): webview tests skipped`;

/** The stand-in webview origin: the CSP source of the harness. */
export const ORIGIN = 'https://kube-foresight.test';

const MEDIA = resolve(__dirname, '../../../dist/media');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
};

/**
 * Runs before the page's script: the acquireVsCodeApi stand-in (posted messages in window.__posted, the view state
 * in window.__state) and a listener of the page's own CSP violation reports (window.__violations).
 */
const INIT_SCRIPT = `function (state) {
  const posted = [];
  const violations = [];
  window.__posted = posted;
  window.__violations = violations;
  window.__state = state === null ? undefined : state;
  window.acquireVsCodeApi = () => ({
    postMessage: (message) => posted.push(JSON.parse(JSON.stringify(message))),
    getState: () => window.__state,
    setState: (next) => { window.__state = next; },
  });
  document.addEventListener('securitypolicyviolation', (event) => {
    violations.push(event.violatedDirective + ' ' + event.blockedURI);
  });
}`;

/** What went wrong on a page: anything here fails a test. */
export interface PageProblems {
  readonly dialogs: string[];
  readonly violations: string[];
  readonly errors: string[];
}

/** A Chromium with a fresh profile. */
export class PanelBrowser {
  private constructor(
    private readonly context: BrowserContext,
    private readonly profile: string,
  ) {}

  /** Starts Chromium; the built page must exist (npm run build). */
  static async launch(): Promise<PanelBrowser> {
    if (!existsSync(join(MEDIA, 'main.js')) || !existsSync(join(MEDIA, 'main.css'))) {
      throw new Error(`${MEDIA} has no main.js/main.css: run npm run build first`);
    }
    const profile = mkdtempSync(join(tmpdir(), 'foresight-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 800 },
    });
    return new PanelBrowser(context, profile);
  }

  /**
   * Opens the panel page (the timeline's, or with `entry` 'plan' Preview Apply's: dist/media/ENTRY.js and .css),
   * waits until it posted "ready", and returns it with its problem log.
   */
  async open(savedState: unknown = undefined, entry: 'main' | 'plan' = 'main'): Promise<PanelPage> {
    const page = await this.context.newPage();
    const problems: PageProblems = { dialogs: [], violations: [], errors: [] };
    page.on('dialog', (dialog) => {
      problems.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) {
        problems.errors.push(message.text());
      }
    });
    page.on('pageerror', (error) => problems.errors.push(error.stack ?? error.message));
    // A string, not a function: tsx would add helpers to a function that do not exist in the page.
    await page.addInitScript(`(${INIT_SCRIPT})(${JSON.stringify(savedState ?? null)});`);
    await page.route(`${ORIGIN}/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/' || path === '/index.html') {
        const html = buildPanelHtml({
          cspSource: ORIGIN,
          scriptUri: `${ORIGIN}/media/${entry}.js`,
          styleUri: `${ORIGIN}/media/${entry}.css`,
          nonce: createNonce(),
          ...(entry === 'plan' ? { title: 'Preview Apply' } : {}),
        });
        await route.fulfill({ status: 200, contentType: 'text/html', body: html });
      } else if (path.startsWith('/media/') && !path.includes('..')) {
        const file = join(MEDIA, path.slice('/media/'.length));
        if (existsSync(file)) {
          await route.fulfill({
            status: 200,
            contentType: TYPES[extname(file)] ?? 'text/plain',
            body: readFileSync(file),
          });
        } else {
          await route.fulfill({ status: 404, body: '' });
        }
      } else {
        await route.fulfill({ status: 404, body: '' });
      }
    });
    await page.goto(`${ORIGIN}/index.html`);
    await page.waitForFunction(() =>
      ((window as unknown as { __posted: { type: string }[] }).__posted ?? []).some(
        (m) => m.type === 'ready',
      ),
    );
    return new PanelPage(page, problems);
  }

  /** Closes Chromium and removes its profile. */
  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}

/** The panel page under test. */
export class PanelPage {
  constructor(
    readonly page: Page,
    readonly problems: PageProblems,
  ) {}

  /** Sends a host → webview message as VS Code would (a message event on the page's window). */
  async send(message: HostToWebviewMessage): Promise<void> {
    // As JSON text: Playwright's own serialisation of a 5,000-pod report takes seconds.
    await this.page.evaluate((text) => window.postMessage(JSON.parse(text), '*'), JSON.stringify(message));
  }

  /** Sends a simulation and waits until the page shows it. */
  async load(
    report: PanelReport,
    folder = { uri: 'file:///workspace/examples/web-app', name: 'web-app' },
  ): Promise<void> {
    await this.send({ type: 'simulation', folder, report, isUpdate: false });
    await this.page.waitForFunction(() => document.getElementById('app')?.dataset['cursor'] !== undefined);
  }

  /** Waits until the page has rendered what it was last told (two animation frames). */
  async settle(): Promise<void> {
    await this.page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
  }

  /** The playhead as the page shows it. */
  async playhead(): Promise<{ time: number; cursor: number; isPlaying: boolean }> {
    return this.page.evaluate(() => {
      const data = document.getElementById('app')?.dataset ?? {};
      return {
        time: Number(data['time']),
        cursor: Number(data['cursor']),
        isPlaying: data['playing'] === 'true',
      };
    });
  }

  /** Waits until the page's cursor equals a value. */
  async waitForCursor(cursor: number): Promise<void> {
    await this.page.waitForFunction(
      (expected) => document.getElementById('app')?.dataset['cursor'] === String(expected),
      cursor,
    );
  }

  /** The messages the page posted to the host. */
  async posted(): Promise<{ type: string; [key: string]: unknown }[]> {
    return this.page.evaluate(() => (window as unknown as { __posted: { type: string }[] }).__posted);
  }

  /** The view state the page saved. */
  async savedState(): Promise<unknown> {
    return this.page.evaluate(() => (window as unknown as { __state: unknown }).__state);
  }

  /** CSP violations seen by the page itself. */
  async violations(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
  }

  /** Every problem so far, as one list (empty when all is well). */
  async allProblems(): Promise<string[]> {
    const own = await this.violations();
    return [
      ...this.problems.dialogs,
      ...this.problems.violations,
      ...own.map((v) => `CSP: ${v}`),
      ...this.problems.errors,
    ];
  }
}
