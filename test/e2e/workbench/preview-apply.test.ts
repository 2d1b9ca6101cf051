/**
 * "Kube Foresight: Preview Apply" as a user runs it: in VS Code's workbench (code-server) at 1,600 × 1,000, from the
 * Command Palette, on examples/captured (its manifests as the capture beside them runs them: no change), then on a
 * copy whose catalog image changed (one rolling update). The panel shows the verdict and the change rows; a click
 * on a row's link opens the manifest at that line. Screenshots go to test-results/e2e/preview-apply-*.png.
 * Run with `npm run test:e2e`.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import type { CodeServer } from './code-server';
import { readE2eEnvironment, RESULTS_DIR, startCodeServer } from './code-server';
import { WorkbenchPage } from './workbench-page';

describe('Preview Apply in VS Code 1.139 (code-server)', () => {
  let server: CodeServer;
  let workbench: WorkbenchPage;

  before(async () => {
    mkdirSync(RESULTS_DIR, { recursive: true });
    server = await startCodeServer(readE2eEnvironment(), (workspace) => {
      // captured-next: the same capture, the manifests with catalog's image bumped (a pull request's change).
      const next = join(workspace, 'captured-next');
      cpSync(join(workspace, 'captured'), next, { recursive: true });
      const web = join(next, 'web.yaml');
      writeFileSync(web, readFileSync(web, 'utf8').replace('image: nginx:1.27.3', 'image: nginx:1.27.4'));
    });
    workbench = await WorkbenchPage.open(server.url, readE2eEnvironment().chromium);
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
  });

  /** Runs a step; on failure keeps a screenshot and prints what the extension logged. */
  async function step(t: TestContext, name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error: unknown) {
      await workbench.screenshot(`failed-${name}`).catch(() => undefined);
      process.stderr.write(
        `--- ${t.name} failed; extension output:\n${server.extensionOutput().slice(-4000)}\n`,
      );
      throw error;
    }
  }

  /** The plan's webview frame, once its verdict reads `verdict`. */
  function planFrame(verdict: RegExp): Promise<Frame> {
    return workbench.waitFor(
      async () => {
        const frame = await workbench.findWebviewFrame('.verdict');
        const text = await frame?.locator('.verdict').innerText();
        return frame !== undefined && text !== undefined && verdict.test(text) ? frame : undefined;
      },
      `the Preview Apply panel with a verdict matching ${String(verdict)}`,
    );
  }

  test('run from the Command Palette on examples/captured, the panel plans no change, each row linked to its line', (t) =>
    step(t, 'preview-apply-captured', async () => {
      await workbench.openFile('captured/web.yaml');
      await workbench.runCommand('Kube Foresight: Preview Apply');
      const frame = await planFrame(/^safe: no changes/);
      assert.equal(
        await frame.locator('.verdict').innerText(),
        'safe: no changes (3 unchanged); 0 rollout(s); 0 failure(s), 0 warning(s)',
      );
      assert.match(await frame.locator('.meta').innerText(), /against cluster\.yaml/);
      const rows = await frame.locator('.change').allInnerTexts();
      assert.equal(rows.length, 3);
      assert.match(rows[1] ?? '', /unchanged\s+StatefulSet store\/cart-db\s+web\.yaml:25/);
      await workbench.screenshot('preview-apply-captured');
      // A click on the row's link opens the manifest with the cursor on the object's first line.
      await frame.locator('.change .source', { hasText: 'web.yaml:25' }).click();
      await workbench.page.locator('.statusbar-item', { hasText: 'Ln 25, Col 1' }).first().waitFor();
      // The breadcrumbs render after the editor: wait for the file's item (read at once, the control held only
      // its style element in one run). They are read in the group whose active tab is the file: the group marked
      // active can still be the panel's after the click (one CI run timed out waiting there, the file open at
      // Ln 25 beside it).
      const fileGroup = workbench.page
        .locator('.editor-group-container')
        .filter({ has: workbench.page.locator('.tabs-container .tab.active', { hasText: 'web.yaml' }) })
        .first();
      const crumbs = fileGroup.locator('.breadcrumbs-control .monaco-breadcrumb-item');
      await crumbs.filter({ hasText: 'web.yaml' }).first().waitFor();
      assert.match((await crumbs.allInnerTexts()).join('').replace(/\s+/g, ''), /^captured.*web\.yaml/);
    }));

  test('on a copy with a changed image the panel follows the editor and plans one rolling update', (t) =>
    step(t, 'preview-apply-rollout', async () => {
      await workbench.page.keyboard.press('Control+1');
      await workbench.openFile('captured-next/web.yaml');
      const frame = await planFrame(/^safe: 0 to create, 1 to configure/);
      const configured = frame.locator('.change[data-action="configured"]');
      assert.match(await configured.innerText(), /Deployment store\/catalog/);
      assert.match(await configured.innerText(), /nginx:1\.27\.3\s*→\s*nginx:1\.27\.4/);
      assert.match(
        await frame.locator('.rollout').innerText(),
        /2 of 2 pod\(s\) replaced in 2 wave\(s\), complete in 22s from t=0s; at most 0 of 2 unavailable at once/,
      );
      const overflow = await frame.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the panel scrolls sideways by ${overflow}px`);
      await workbench.screenshot('preview-apply-rollout');
    }));
});
