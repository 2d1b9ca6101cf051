/**
 * Drives VS Code's workbench in Chromium as a person would: the keyboard shortcuts, the Problems panel, hovers,
 * the quick-fix menu and the webview of a panel. Every wait is on a condition of the page (a locator or a
 * polled predicate) with a deadline, never a fixed sleep.
 */
import { join } from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { RESULTS_DIR } from './code-server';

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
    await this.page.locator('.quick-input-widget input').waitFor();
    await this.page.keyboard.type(relativePath);
    await this.page.locator('.quick-input-list .monaco-list-row', { hasText: row }).first().waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.tab.active', { hasText: fileName }).waitFor();
    if (folder !== undefined) {
      await this.page
        .locator('.editor-group-container.active .breadcrumbs-control', { hasText: folder })
        .waitFor();
    }
    await this.editor().locator('.view-lines').waitFor();
  }

  /** Picks a color theme ("Light Modern") in the theme picker (Ctrl+K Ctrl+T), as a person does. */
  async useColorTheme(label: string): Promise<void> {
    await this.page.keyboard.press('Control+K');
    await this.page.keyboard.press('Control+T');
    await this.page.locator('.quick-input-widget input').waitFor();
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
    await this.page.locator('.quick-input-widget input').waitFor();
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
    await this.page.locator('.quick-input-widget input').waitFor();
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
   * Opens the quick-fix menu (Ctrl+.) at the cursor and applies the action whose title matches; with
   * `screenshot`, the menu is saved as test-results/e2e/SCREENSHOT.png first.
   */
  async applyQuickFix(title: RegExp, screenshot?: string): Promise<string> {
    const action = this.page.locator('.action-widget .monaco-list-row.action', { hasText: title }).first();
    // The menu lists the code actions computed when it opens: one opened before the server answered for the
    // diagnostic lacks its fix, so the menu closes and opens again (up to six times, ten seconds each).
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
