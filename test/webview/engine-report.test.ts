/**
 * The panel replaying the real engine's recorded report of the examples (test/fixtures/webview/
 * engine-examples.json, written by support/write-engine-fixture.ts): a rollout from the running storefront, a
 * drain held by the storefront's disruption budget, a failing node. Its end must show the report's placement,
 * and every step on the way must render without a problem.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PanelReport } from '../../protocol/webview-messages';
import { chipOf, launchOrSkip, seekTo, textOf } from './support/page-actions';
import type { PanelBrowser, PanelPage } from './support/panel-page';
import { SKIP_WITHOUT_CHROMIUM } from './support/panel-page';
import { applyTheme } from './support/themes';

const REPORT = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/webview/engine-examples.json'), 'utf8'),
) as PanelReport;
const EVENTS = REPORT.events ?? [];

describe(
  "the engine's recorded report of the examples in Chromium",
  { skip: SKIP_WITHOUT_CHROMIUM, timeout: 120_000 },
  () => {
    let browser: PanelBrowser;
    let panel: PanelPage;

    before(async () => {
      browser = await launchOrSkip();
      panel = await browser.open();
      await panel.load(REPORT, { uri: 'file:///workspace/examples', name: 'examples' });
    });
    after(async () => {
      await browser?.close();
    });

    test('at the end, every reported pod is on its node’s lane, or in the Pending area', async () => {
      const { page } = panel;
      for (const pod of REPORT.pods) {
        const area = pod.nodeName === null ? '.pending' : `.lane[data-node="${pod.nodeName}"]`;
        assert.equal(
          await page.locator(area).locator(chipOf(page, pod.name)).count(),
          1,
          `${pod.name} in ${area}`,
        );
      }
      const placed = REPORT.pods.filter((pod) => pod.nodeName !== null).length;
      assert.match(
        await textOf(page, '.summary'),
        new RegExp(`${placed} placed · ${REPORT.pods.length - placed} pending`),
      );
    });

    test('at the end, the StatefulSet and DaemonSet rollouts read every pod available', async () => {
      const { page } = panel;
      await seekTo(panel, EVENTS[EVENTS.length - 1]?.time ?? 0);
      const status = (name: string): Promise<string> =>
        page.locator('.rollout', { hasText: name }).locator('.rollout-status').innerText();
      assert.match(
        await status('StatefulSet default/orders-db'),
        /^complete after 32 s, 2 steps · updated 2 · old 0 · available 2$/,
      );
      assert.match(
        await status('DaemonSet kube-system/log-agent'),
        /^complete after 11 s, 1 step · updated 4 · old 0 · available 4$/,
      );
    });

    test('the scenario’s steps say where they were written, and a click puts the playhead on one', async () => {
      const { page } = panel;
      assert.deepEqual(await page.locator('.scenario-origin').allInnerTexts(), [
        'from the cluster file cluster.yaml:',
      ]);
      assert.deepEqual(await page.locator('.scenario-step').allInnerTexts(), [
        'drain worker-1 at 1:30',
        'fail worker-3 at 2:30',
        'drain worker-2 at 5:00',
      ]);
      await page.locator('.scenario-step', { hasText: 'fail worker-3' }).click();
      const index = EVENTS.findIndex(
        (event) => event.type === 'ScenarioStep' && event.details?.scenarioStep?.action === 'failNode',
      );
      await panel.waitForCursor(index + 1);
      const current = page.locator('.event-row.is-current');
      assert.equal(await current.getAttribute('data-type'), 'ScenarioStep');
      assert.match(
        (await current.getAttribute('title')) ?? '',
        /Scenario step: stop the kubelet of worker-3 \(Scenario of the cluster file cluster\.yaml\)/,
      );
      await seekTo(panel, EVENTS[EVENTS.length - 1]?.time ?? 0);
    });

    test('the drained node and the failed node are marked on their lanes', async () => {
      const { page } = panel;
      const drained = EVENTS.find((event) => event.type === 'DrainCompleted')?.node ?? '';
      const failed = EVENTS.find((event) => event.type === 'NodeNotReady')?.node ?? '';
      assert.match(await textOf(page, `.lane[data-node="${drained}"] .lane-badges`), /Drained/);
      assert.match(await textOf(page, `.lane[data-node="${failed}"] .lane-badges`), /NotReady/);
      assert.equal(await page.locator(`.lane[data-node="${failed}"].is-failed`).count(), 1);
    });

    test('stepping through every event from the start renders each one without a problem', async () => {
      const { page } = panel;
      await seekTo(panel, 0);
      const start = (await panel.playhead()).cursor;
      for (let step = start; step < EVENTS.length; step++) {
        await page.locator('.axis').press('ArrowRight');
      }
      await panel.waitForCursor(EVENTS.length);
      assert.deepEqual(await panel.allProblems(), []);
    });

    test("a StatefulSet pod shows its claim, the volume it is bound to and that volume's zone", async () => {
      const { page } = panel;
      await seekTo(panel, EVENTS[EVENTS.length - 1]?.time ?? 0);
      const pod = REPORT.pods.find((entry) => (entry.claims ?? []).length > 0 && entry.nodeName !== null);
      const claimName = pod?.claims?.[0] ?? '';
      const claim = (REPORT.persistentVolumeClaims ?? []).find((entry) => entry.name === claimName);
      assert.ok(
        pod !== undefined && claim?.volumeName !== null && claim?.zone !== null,
        'a bound zonal claim',
      );
      await chipOf(page, pod.name).click();
      await page.locator('.details .pod-name', { hasText: pod.name }).waitFor();
      assert.equal(
        await textOf(page, '.details .claims'),
        `${claimName}: Bound to ${claim?.volumeName ?? ''} in ${claim?.zone ?? ''}`,
      );
      await panel.settle();
      const out = resolve(__dirname, '../../test-results');
      mkdirSync(out, { recursive: true });
      await page.screenshot({ path: join(out, 'engine-examples-claims.png') });
    });

    test('the drain held by the disruption budget, in the dark theme, is saved as engine-examples-dark.png', async () => {
      const { page } = panel;
      const blocked = EVENTS.findIndex((event) => event.type === 'DrainBlocked');
      assert.ok(blocked >= 0, 'the recorded scenario has a blocked drain');
      await applyTheme(page, 'dark');
      await page.locator('.event-filter').fill('DrainBlocked');
      await page.locator('.event-row[data-type="DrainBlocked"]').first().click();
      await panel.waitForCursor(blocked + 1);
      await page.locator('.event-filter').fill('');
      const victim =
        EVENTS.find((event, index) => index <= blocked && event.type === 'EvictionBlocked')?.object.name ??
        '';
      await chipOf(page, victim).click();
      await page.locator('.details .pod-name', { hasText: victim }).waitFor();
      assert.match(await textOf(page, '.summary'), /blocked/);
      await panel.settle();
      const out = resolve(__dirname, '../../test-results');
      mkdirSync(out, { recursive: true });
      await page.screenshot({ path: join(out, 'engine-examples-dark.png') });
      await seekTo(panel, EVENTS[EVENTS.length - 1]?.time ?? 0);
    });
  },
);
