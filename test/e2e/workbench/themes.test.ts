/**
 * The views issue #28 is about, each in a dark and a light theme, as its closing note shows them: VS Code's
 * workbench (code-server) at 1,600 × 1,000 with the timeline panel in a side split beside
 * batch-analytics/deployment.yaml (a Deployment that needs 6 cpu on the four-node cluster's 4-cpu workers). For
 * each theme: the Problems panel with one entry for the one Pending cause, the quick-fix menu on it, the cluster
 * picker, and the timeline at the split's width (layout checked in the webview). Screenshots:
 * test-results/e2e/theme-<dark|light>-<view>.png. Run with `npm run test:e2e`.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { dump } from 'js-yaml';
import { fourNodeCluster } from '../../support/four-node-cluster';
import { lowContrastTexts } from '../../webview/support/contrast-check';
import { layoutProblems } from '../../webview/support/layout-check';
import type { WorkbenchPage } from './workbench-page';
import { useWorkbench } from './workbench-page';

const MANIFEST = 'batch-analytics/deployment.yaml';

/** The two themes, by the name the theme picker lists and the class VS Code gives the webview's body. */
const THEMES = [
  { name: 'dark', label: 'Dark Modern', body: 'vscode-dark' },
  { name: 'light', label: 'Light Modern', body: 'vscode-light' },
] as const;

describe('the views of issue #28 in a dark and a light theme (code-server)', () => {
  const session = useWorkbench({
    prepareWorkspace: (workspace) => {
      // The four nodes workbench.test.ts pins: the Deployment stays Pending for lack of cpu and memory.
      const nodes = fourNodeCluster().map(({ object }) => dump(object, { noRefs: true }).trimEnd());
      writeFileSync(join(workspace, '.foresight', 'cluster.yaml'), `${nodes.join('\n---\n')}\n`);
    },
    userSettings: { 'workbench.colorTheme': `Default ${THEMES[0].label}` },
  });
  const { step } = session;
  let workbench: WorkbenchPage;
  before(() => {
    ({ workbench } = session);
  });

  test('the manifest opens beside the timeline panel, in a side split', (t) =>
    step(t, 'theme-setup', async () => {
      await workbench.openFile(MANIFEST);
      await workbench.runCommand('Kube Foresight: Show Simulation Timeline');
      const frame = await workbench.waitFor(
        async () => await workbench.findWebviewFrame('.lane'),
        'the timeline panel',
      );
      const width = await frame.evaluate(() => window.innerWidth);
      assert.ok(width >= 480 && width <= 800, `the panel is ${width}px wide: a side split`);
      await workbench.openBeside(MANIFEST);
      await workbench.showProblems();
    }));

  for (const theme of THEMES) {
    const shot = (view: string): string => `theme-${theme.name}-${view}`;

    test(`${theme.name}: the Problems panel lists the Pending Deployment once`, (t) =>
      step(t, shot('problems'), async () => {
        if (theme.name !== THEMES[0].name) {
          await workbench.useColorTheme(theme.label);
          await workbench.openBeside(MANIFEST);
        }
        const rows = await workbench.problemsWhen(
          (shown) => shown.some((row) => /\bpod-unschedulable\b/.test(row.code)),
          'the Pending prediction',
        );
        await workbench.screenshot(shot('problems'));
        assert.equal(rows.filter((row) => row.code !== '').length, 1, JSON.stringify(rows));
      }));

    test(`${theme.name}: the quick-fix menu on the Pending entry offers to lower both requests`, (t) =>
      step(t, shot('quick-fix-menu'), async () => {
        await workbench.goTo(23, 20);
        const titles = await workbench.showQuickFixes(/^Lower the cpu request to/);
        await workbench.screenshot(shot('quick-fix-menu'));
        await workbench.page.keyboard.press('Escape');
        assert.ok(
          titles.some((title) => /and the memory request to/.test(title)),
          titles.join('\n'),
        );
      }));

    test(`${theme.name}: the cluster picker marks the cluster the status bar names as current`, (t) =>
      step(t, shot('cluster-picker'), async () => {
        await workbench.page
          .locator('.statusbar-item', { hasText: /K8s 1\.35 · cluster\.yaml/ })
          .first()
          .click();
        const rows = await workbench.quickPickRows(/current/);
        await workbench.screenshot(shot('cluster-picker'));
        await workbench.closeQuickPick();
        assert.deepEqual(
          rows
            .filter((row) => /current In use:/.test(row))
            .map((row) => row.replace(/ ?current In use:.*$/, '')),
          ['.foresight/cluster.yaml'],
        );
      }));

    test(`${theme.name}: the timeline at the split's width keeps names whole, badges apart and text legible`, (t) =>
      step(t, shot('timeline'), async () => {
        const frame = await workbench.waitFor(
          async () => await workbench.findWebviewFrame(`body.${theme.body} .lane`),
          `the timeline in the ${theme.label} theme`,
        );
        await workbench.screenshot(shot('timeline'));
        assert.deepEqual(await layoutProblems(frame), []);
        // Every text reads in the theme's own colours: WCAG's 4.5:1 against what it sits on.
        assert.deepEqual(await lowContrastTexts(frame), []);
      }));
  }
});
