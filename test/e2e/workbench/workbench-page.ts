/**
 * Drives VS Code's workbench in Chromium as a person would: the keyboard shortcuts, the Problems panel, hovers,
 * the quick-fix menu and the webview of a panel. Every wait is on a condition of the page (a locator or a
 * polled predicate) with a deadline, never a fixed sleep.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { after, before } from 'node:test';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import type { CodeServer } from './code-server';
import { readE2eEnvironment, RESULTS_DIR, startCodeServer } from './code-server';

/** The flags the project's Chromium runs with (headless, no sandbox as root, nothing phoning home). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How long the workbench may take to show something a test waits for (the machine is small and shared). */
export const UI_TIMEOUT_MS = 60_000;

/** One entry of the Problems panel, as it reads. */
export interface ProblemRow {
  readonly message: string;
  readonly source: string;
  readonly code: string;
  readonly position: string;
}

/** A Chromium page on the workbench. */
export class WorkbenchPage {
  private constructor(
    private readonly browser: Browser,
    /** The page, for checks the helpers do not cover. */
    readonly page: Page,
  ) {}

  /** Starts Chromium and opens the workbench at `url`; resolves once the Explorer shows the folder. */
  static async open(url: string, executablePath: string): Promise<WorkbenchPage> {
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      page.setDefaultTimeout(UI_TIMEOUT_MS);
      await page.goto(url);
      await page.locator('.monaco-workbench .explorer-folders-view').waitFor();
      return new WorkbenchPage(browser, page);
    } catch (error: unknown) {
      await browser.close();
      throw error;
    }
  }

  /** Closes Chromium. */
  async close(): Promise<void> {
    await this.browser.close();
  }

  /** Saves a screenshot of the whole workbench as test-results/e2e/NAME.png. */
  async screenshot(name: string): Promise<string> {
    const path = join(RESULTS_DIR, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /**
   * Opens a file through Quick Open (Ctrl+P), as typed by a person, and waits for its editor tab. The row chosen
   * names the file's folder too: files of the same name in other folders (recently opened ones come first) are
   * not it.
   */
  async openFile(relativePath: string): Promise<void> {
    const segments = relativePath.split('/');
    const fileName = segments.at(-1) ?? relativePath;
    const folder = segments.at(-2);
    const row = new RegExp(
      `${escapeRegExp(fileName)}${folder === undefined ? '' : `.*${escapeRegExp(folder)}`}`,
    );
    await this.page.keyboard.press('Control+P');
    await this.quickInputFocused();
    await this.page.keyboard.type(relativePath);
    // The row is clicked, not Enter pressed: while the file search runs, the list's first (selected) row can be a
    // recently opened file of another folder that the typed path also matches.
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: row }).first().click();
    await this.page.locator('.tab.active', { hasText: fileName }).waitFor();
    if (folder !== undefined) {
      await this.page
        .locator('.editor-group-container.active .breadcrumbs-control', { hasText: folder })
        .waitFor();
    }
    await this.editor().locator('.view-lines').waitFor();
  }

  /**
   * Waits for the quick input's box to have the focus: on a loaded machine the box of a quick input closing can
   * still be visible, and what is typed then goes into the editor.
   */
  private async quickInputFocused(): Promise<void> {
    await this.page.locator('.quick-input-widget input:focus').waitFor();
  }

  /** Opens a file in the editor group on the left (Ctrl+1), beside a panel in a side split. */
  async openBeside(relativePath: string): Promise<void> {
    await this.page.keyboard.press('Control+1');
    await this.openFile(relativePath);
  }

  /** Picks a color theme ("Light Modern") in the theme picker (Ctrl+K Ctrl+T), as a person does. */
  async useColorTheme(label: string): Promise<void> {
    await this.page.keyboard.press('Control+K');
    await this.page.keyboard.press('Control+T');
    await this.quickInputFocused();
    await this.page.keyboard.type(label);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /** The active editor. */
  editor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /** Waits until a rendered line of the active editor reads `text` (indentation aside). */
  async editorLine(text: string): Promise<void> {
    await this.waitFor(async () => {
      const lines = await this.editor().locator('.view-line').allInnerTexts();
      return lines.some((line) => line.replace(/\s+/g, ' ').trim() === text) ? true : undefined;
    }, `an editor line reading "${text}"`);
  }

  /** Runs a command from the Command Palette (F1) by its title. */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    await this.quickInputFocused();
    await this.page.keyboard.type(title);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
    await this.page.keyboard.press('Enter');
  }

  /**
   * The rows of the quick pick that shows (a row's label, description and detail, as its text reads), once one
   * row matches `expected`.
   */
  async quickPickRows(expected: RegExp): Promise<string[]> {
    const rows = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.filter({ hasText: expected }).first().waitFor();
    return (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
  }

  /**
   * Closes the quick pick (Escape) and gives the focus back to the editor, as the status bar item that opened it
   * kept it: a click on the active tab, which moves no cursor.
   */
  async closeQuickPick(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await this.page.locator('.tab.active').first().click();
    await this.page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor();
  }

  /** Moves the cursor with Go to Line (Ctrl+G), line and column 1-based. */
  async goTo(line: number, column: number): Promise<void> {
    await this.page.keyboard.press('Control+G');
    await this.quickInputFocused();
    await this.page.keyboard.type(`${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.page
      .locator('.statusbar-item', { hasText: `Ln ${line}, Col ${column}` })
      .first()
      .waitFor();
  }

  /** Shows the Problems panel (Ctrl+Shift+M). */
  async showProblems(): Promise<void> {
    await this.page.keyboard.press('Control+Shift+M');
    await this.page.locator('.markers-panel').waitFor();
  }

  /** The Problems panel's entries (file rows left out), once `until` holds for them. */
  async problemsWhen(until: (rows: ProblemRow[]) => boolean, what: string): Promise<ProblemRow[]> {
    return this.waitFor(async () => {
      const rows = await this.page
        .locator('.markers-panel .monaco-list-row .marker-message-details-container')
        .evaluateAll((containers) =>
          containers.map((container) => ({
            message: container.querySelector('.marker-message')?.textContent ?? '',
            source: container.querySelector('.marker-source')?.textContent ?? '',
            code: container.querySelector('.marker-code')?.textContent ?? '',
            position: container.querySelector('.marker-line')?.textContent ?? '',
          })),
        );
      return until(rows) ? rows : undefined;
    }, `the Problems panel to show ${what}`);
  }

  /**
   * Hovers the first editor token with exactly this text and returns the hover's text once it shows. A hover is
   * computed once, when it opens: one opened before the predictions arrived shows the schema's text only, so the
   * mouse leaves and comes back (up to six times, ten seconds each) until the expected text is there.
   */
  async hoverToken(token: string, expected: RegExp): Promise<string> {
    const hover = this.page.locator('.monaco-hover:not(.hidden)', { hasText: expected }).first();
    for (let attempt = 1; ; attempt++) {
      await this.editor().locator('.view-line span span', { hasText: token }).first().hover();
      try {
        await hover.waitFor({ state: 'visible', timeout: 10_000 });
        return await hover.innerText();
      } catch (error) {
        if (attempt >= 6) {
          throw error;
        }
        await this.page.mouse.move(0, 0);
        await this.page.keyboard.press('Escape');
      }
    }
  }

  /** The code lenses of the active editor, once one matches `expected` (the cursor goes to the top first). */
  async codeLenses(expected: RegExp): Promise<string[]> {
    await this.goTo(1, 1);
    return this.shownCodeLenses(expected);
  }

  /**
   * The code lenses in view, once one matches `expected`, without touching the editor (moving its cursor or
   * focus makes VS Code ask for lenses again).
   */
  async shownCodeLenses(expected: RegExp, timeout = UI_TIMEOUT_MS): Promise<string[]> {
    await this.editor().locator('.codelens-decoration', { hasText: expected }).first().waitFor({ timeout });
    return this.editor().locator('.codelens-decoration').allInnerTexts();
  }

  /**
   * Opens the quick-fix menu (Ctrl+.) at the cursor once it lists an action whose title matches, and returns the
   * menu's titles; the menu stays open. The menu lists the code actions computed when it opens: one opened before
   * the server answered for the diagnostic lacks its fix, so the menu closes and opens again (up to six times, ten
   * seconds each).
   */
  async showQuickFixes(title: RegExp): Promise<string[]> {
    const action = this.page.locator('.action-widget .monaco-list-row.action', { hasText: title }).first();
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Control+.');
      try {
        await action.waitFor({ state: 'visible', timeout: 10_000 });
        break;
      } catch (error) {
        if (attempt >= 6) {
          throw error;
        }
        await this.page.keyboard.press('Escape');
      }
    }
    return this.page.locator('.action-widget .monaco-list-row.action').allInnerTexts();
  }

  /**
   * Opens the quick-fix menu (Ctrl+.) at the cursor and applies the action whose title matches; with
   * `screenshot`, the menu is saved as test-results/e2e/SCREENSHOT.png first.
   */
  async applyQuickFix(title: RegExp, screenshot?: string): Promise<string> {
    await this.showQuickFixes(title);
    const action = this.page.locator('.action-widget .monaco-list-row.action', { hasText: title }).first();
    const text = await action.innerText();
    if (screenshot !== undefined) {
      await this.screenshot(screenshot);
    }
    await action.click();
    await action.waitFor({ state: 'detached' });
    return text;
  }

  /** The frame of a webview whose page has an element matching `selector`, if one does now. */
  async findWebviewFrame(selector: string): Promise<Frame | undefined> {
    for (const frame of this.page.frames()) {
      if (frame === this.page.mainFrame()) {
        continue;
      }
      const count = await frame
        .locator(selector)
        .count()
        .catch(() => 0);
      if (count > 0) {
        return frame;
      }
    }
    return undefined;
  }

  /** Polls `probe` until it returns a value (every 250 ms), or fails after UI_TIMEOUT_MS naming `what`. */
  async waitFor<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
    const deadline = Date.now() + UI_TIMEOUT_MS;
    for (;;) {
      const value = await probe();
      if (value !== undefined) {
        return value;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${UI_TIMEOUT_MS} ms waiting for ${what}`);
      }
      await this.page.waitForTimeout(250);
    }
  }
}

/** How a test file's workbench starts: its workspace changes, user settings (a theme), what a failure prints. */
export interface WorkbenchOptions {
  /** Changes the copy of examples/ before code-server opens it. */
  readonly prepareWorkspace?: (workspace: string) => void;
  /** Written over the quiet defaults before the page opens. */
  readonly userSettings?: Readonly<Record<string, unknown>>;
  /** Whether a failed step prints code-server's own log too. */
  readonly withServerLog?: boolean;
}

/** One test file's code-server and page, and the step runner its tests share. */
export interface WorkbenchSession {
  readonly server: CodeServer;
  readonly workbench: WorkbenchPage;
  /** Runs a test's body; on failure keeps test-results/e2e/failed-NAME.png and prints what the extension logged. */
  readonly step: (t: TestContext, name: string, body: () => Promise<void>) => Promise<void>;
}

/**
 * The setup every workbench test file shares: registers, in the calling describe, a `before` that starts
 * code-server on a copy of examples/ and opens Chromium on it, and an `after` that closes both. The session's
 * server and page are there once `before` has run (inside tests and later hooks).
 */
export function useWorkbench(options: WorkbenchOptions = {}): WorkbenchSession {
  let server: CodeServer | undefined;
  let workbench: WorkbenchPage | undefined;
  before(async () => {
    mkdirSync(RESULTS_DIR, { recursive: true });
    server = await startCodeServer(readE2eEnvironment(), options.prepareWorkspace);
    if (options.userSettings !== undefined) {
      server.writeUserSettings(options.userSettings);
    }
    workbench = await WorkbenchPage.open(server.url, readE2eEnvironment().chromium);
  });
  after(async () => {
    await workbench?.close();
    await server?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) {
      throw new Error('the workbench is not started: use the session inside a test or a later hook');
    }
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get workbench() {
      return started(workbench);
    },
    step: async (t, name, body) => {
      try {
        await body();
      } catch (error: unknown) {
        await workbench?.screenshot(`failed-${name}`).catch(() => undefined);
        const log =
          options.withServerLog === true ? `--- code-server log:\n${server?.log().slice(-2000) ?? ''}\n` : '';
        process.stderr.write(
          `--- ${t.name} failed; extension output:\n${server?.extensionOutput().slice(-4000) ?? ''}\n${log}`,
        );
        throw error;
      }
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
