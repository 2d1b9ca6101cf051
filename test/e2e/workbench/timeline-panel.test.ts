/**
 * The timeline panel as a user reads it: in VS Code's workbench (code-server) at 1,600 × 1,000, the panel in a side
 * split beside the manifest (half the editor area), in the dark and the light theme. The examples' cluster file
 * (.foresight/cluster.yaml) is kept: its Scenario drains worker-1 at 5:00 in every folder, so the panel must say
 * where that drain comes from. Each test checks the panel's layout in the webview itself (every node name whole,
 * no badge over another, nothing cut) and saves a screenshot of the workbench under test-results/e2e/timeline-*.png.
 * Run with `npm run test:e2e`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { layoutProblems } from '../../webview/support/layout-check';
import type { WorkbenchPage } from './workbench-page';
import { useWorkbench } from './workbench-page';

const DARK = 'Dark Modern';
const LIGHT = 'Light Modern';

/** A Deployment of an apiVersion Kubernetes 1.16 removed: the API server refuses it, nothing of its folder runs. */
const LEGACY_DEPLOYMENT = [
  'apiVersion: extensions/v1beta1',
  'kind: Deployment',
  'metadata: {name: legacy-web}',
  'spec:',
  '  replicas: 2',
  '  template:',
  '    metadata: {labels: {app: legacy-web}}',
  '    spec:',
  '      containers: [{name: web, image: nginx:1.27}]',
  '',
].join('\n');

describe('the timeline panel in a side split of VS Code 1.139 (code-server)', () => {
  const session = useWorkbench({
    prepareWorkspace: (workspace) => {
      mkdirSync(join(workspace, 'legacy'));
      writeFileSync(join(workspace, 'legacy', 'deployment.yaml'), LEGACY_DEPLOYMENT);
    },
    userSettings: { 'workbench.colorTheme': `Default ${DARK}` },
  });
  const { step } = session;
  let workbench: WorkbenchPage;
  before(() => {
    ({ workbench } = session);
  });

  /** The timeline's webview frame, once it shows `selector`. */
  function panel(selector: string, what: string): Promise<Frame> {
    return workbench.waitFor(async () => await workbench.findWebviewFrame(selector), what);
  }

  /** Switches the workbench's color theme and waits for the webview to follow. */
  async function useTheme(theme: string, bodyClass: 'vscode-dark' | 'vscode-light'): Promise<void> {
    await workbench.useColorTheme(theme);
    await panel(`body.${bodyClass} .lane`, `the timeline in the ${theme} theme`);
  }

  test('beside web-app’s manifest the panel reads in half the window: names whole, badges apart, the drain’s source shown', (t) =>
    step(t, 'timeline-side-split-dark', async () => {
      await workbench.openFile('web-app/deployment.yaml');
      await workbench.runCommand('Kube Foresight: Show Simulation Timeline');
      const frame = await panel('.scenario-step', 'the timeline with the cluster file’s scenario');
      const width = await frame.evaluate(() => window.innerWidth);
      assert.ok(width >= 480 && width <= 800, `the panel is ${width}px wide: a side split`);
      assert.deepEqual(await frame.locator('.scenario-origin').allInnerTexts(), [
        'from the cluster file cluster.yaml (Scenario maintenance-window):',
      ]);
      assert.deepEqual(await frame.locator('.scenario-step').allInnerTexts(), ['drain worker-1 at 5:00']);
      // The storefront's rollout in its first half minute, the drain at 5:00: a break between them.
      assert.ok((await frame.locator('.axis-break').count()) >= 1, 'the idle stretch is a break');
      await frame.locator('.lane[data-node="worker-1"] .badge', { hasText: /^Drain/ }).waitFor();
      assert.deepEqual(await layoutProblems(frame), []);
      await workbench.screenshot('timeline-side-split-dark');
    }));

  test('in the light theme the same panel holds its layout', (t) =>
    step(t, 'timeline-side-split-light', async () => {
      await useTheme(LIGHT, 'vscode-light');
      const frame = await panel('body.vscode-light .lane', 'the light timeline');
      assert.deepEqual(await layoutProblems(frame), []);
      await workbench.screenshot('timeline-side-split-light');
    }));

  test('the database folder’s completed StatefulSet rollout reads both pods available', (t) =>
    step(t, 'timeline-statefulset-light', async () => {
      await workbench.openBeside('database/statefulset.yaml');
      const frame = await panel(
        '.rollout-name:text("StatefulSet default/orders-db")',
        'the StatefulSet’s rollout',
      );
      const status = frame
        .locator('.rollout', { hasText: 'StatefulSet default/orders-db' })
        .locator('.rollout-status');
      await status.filter({ hasText: /^complete after/ }).waitFor();
      assert.match(
        await status.innerText(),
        /^complete after 22 s, 2 steps · updated 2 · old 0 · available 2$/,
      );
      assert.deepEqual(await layoutProblems(frame), []);
      await workbench.screenshot('timeline-statefulset-light');
    }));

  test('a folder whose only object the API server refuses says so instead of an empty timeline', (t) =>
    step(t, 'timeline-refused-dark', async () => {
      await useTheme(DARK, 'vscode-dark');
      await workbench.openBeside('legacy/deployment.yaml');
      const frame = await panel('.empty-notice:not(.is-hidden)', 'the notice of the empty timeline');
      assert.equal(
        await frame.locator('.empty-notice h2').innerText(),
        'Nothing of legacy runs: the API server refuses 1 object',
      );
      assert.match(
        await frame.locator('.empty-notice li').innerText(),
        /^Deployment legacy-web \(discovery\): resource mapping not found .*no matches for kind "Deployment" in version "extensions\/v1beta1"/,
      );
      assert.deepEqual(await layoutProblems(frame), []);
      await workbench.screenshot('timeline-refused-dark');
    }));
});
