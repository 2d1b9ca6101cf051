/**
 * Every quick fix docs/predictions.md promises, applied in VS Code's workbench (code-server 4.139.1 in Chromium)
 * as a person applies it: the Problems panel lists the diagnostic, the cursor goes to its position, Ctrl+. opens
 * the quick-fix menu, the promised title is chosen, and the file is left with no diagnostic of that code (issue
 * #28 item 4); a fix whose title says what follows (pods admitted but Pending) is held to it. The timeline panel
 * stays open in a side split all along; screenshots at 1,600 × 1,000 of each fix's menu (dark theme; the light
 * theme's menu is themes.test.ts's) go to test-results/e2e/.
 * Run with `npm run test:e2e`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { QuickFixCase } from './quick-fix-cases';
import { QUICK_FIX_CASES } from './quick-fix-cases';
import type { ProblemRow, WorkbenchPage } from './workbench-page';
import { useWorkbench } from './workbench-page';

describe('the promised quick fixes in VS Code 1.139 (code-server)', () => {
  const session = useWorkbench({
    prepareWorkspace: (workspace) => {
      for (const fix of QUICK_FIX_CASES) {
        const file = join(workspace, fix.file);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, fix.text);
        if (fix.cluster !== undefined) {
          mkdirSync(join(dirname(file), '.foresight'), { recursive: true });
          writeFileSync(join(dirname(file), '.foresight', 'cluster.yaml'), fix.cluster);
        }
      }
    },
    userSettings: { 'workbench.colorTheme': 'Default Dark Modern' },
  });
  const { step } = session;
  let workbench: WorkbenchPage;
  before(() => {
    ({ workbench } = session);
  });

  test('the timeline panel opens in a side split beside a manifest', (t) =>
    step(t, 'fixes-panel', async () => {
      await workbench.openFile('web-app/deployment.yaml');
      await workbench.runCommand('Kube Foresight: Show Simulation Timeline');
      const frame = await workbench.waitFor(
        async () => await workbench.findWebviewFrame('.lane'),
        'the timeline panel',
      );
      const width = await frame.evaluate(() => window.innerWidth);
      assert.ok(width >= 480 && width <= 800, `the panel is ${width}px wide: a side split`);
      await workbench.showProblems();
    }));

  for (const fix of QUICK_FIX_CASES) {
    test(`${fix.name}: "${fix.title.source}" leaves ${fix.file} with no ${fix.code}`, (t) =>
      step(t, fix.name, async () => {
        await workbench.openBeside(fix.file);
        try {
          await applyAndCheck(fix);
        } finally {
          // Closed without saving (the workspace is a throwaway copy), so the next file's Problems are its own,
          // even when this case failed.
          await workbench.runCommand('View: Revert and Close Editor');
          await workbench.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
        }
      }));
  }

  /** Applies the case's fix at its Problems entry's position and waits for the code to go (and `then` to come). */
  async function applyAndCheck(fix: QuickFixCase): Promise<void> {
    const rows = await workbench.problemsWhen(
      (shown) => shown.some((row) => hasCode(row, fix.code)),
      `the ${fix.code} diagnostic of ${fix.file}`,
    );
    const row = rows.find((candidate) => hasCode(candidate, fix.code));
    const position = /Ln (\d+), Col (\d+)/.exec(row?.position ?? '');
    assert.ok(position !== null, `a position for ${fix.code}: ${row?.position ?? 'none'}`);
    await workbench.goTo(Number(position[1]), Number(position[2]));
    await workbench.applyQuickFix(fix.title, `${fix.name}-dark`);
    const then = fix.then;
    await workbench.problemsWhen(
      (shown) =>
        !shown.some((candidate) => hasCode(candidate, fix.code)) &&
        (then === undefined || shown.some((candidate) => hasCode(candidate, then))),
      `no ${fix.code}${then === undefined ? '' : ` but ${then}`} once "${fix.title.source}" is applied`,
    );
  }
});

function hasCode(row: ProblemRow, code: string): boolean {
  return new RegExp(`\\b${code}\\b`).test(row.code);
}
