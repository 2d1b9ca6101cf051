/**
 * The timeline panel's page in headless Chromium, driven like a user: play, pause, scrub, step, click an event,
 * click a pod, reveal its manifest; with assertions on what is shown. Uses the recorded report of the examples
 * (test/fixtures/webview/examples-timeline.json: 4 nodes, a Pending pod, a rolling update, a drain with an
 * eviction refused by a PodDisruptionBudget).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PanelReport } from '../../protocol/webview-messages';
import type { PanelBrowser, PanelPage } from './support/panel-page';
import { SKIP_WITHOUT_CHROMIUM } from './support/panel-page';
import { attributes, axisTimeAt, chipOf, launchOrSkip, seekTo, textOf, texts } from './support/page-actions';

const REPORT = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/webview/examples-timeline.json'), 'utf8'),
) as PanelReport;
const EVENTS = REPORT.events ?? [];
const DURATION = EVENTS[EVENTS.length - 1]?.time ?? 0;
const EVENTS_AT_ZERO = EVENTS.filter((event) => event.time === 0).length;
const PENDING_POD = 'analytics-engine-8465c758f-95tk6';

describe('timeline panel in Chromium', { skip: SKIP_WITHOUT_CHROMIUM, timeout: 120_000 }, () => {
  let browser: PanelBrowser;
  let panel: PanelPage;

  before(async () => {
    browser = await launchOrSkip();
  });
  after(async () => {
    await browser?.close();
  });

  const openWithReport = async (): Promise<PanelPage> => {
    panel = await browser.open();
    await panel.load(REPORT);
    return panel;
  };

  test('a new report opens at its end: one lane per node, the final pods on them, the Pending pod apart', async () => {
    const { page } = await openWithReport();
    assert.deepEqual(await panel.playhead(), { time: DURATION, cursor: EVENTS.length, isPlaying: false });
    assert.deepEqual(await texts(page, '.lane .lane-name'), [
      'control-plane',
      'worker-1',
      'worker-2',
      'worker-3',
    ]);
    assert.deepEqual(await texts(page, '.lane[data-node="worker-2"] .chip'), ['log-agent-qsfq2']);
    assert.equal(await page.locator('.lane[data-node="worker-1"] .chip').count(), 4);
    assert.deepEqual(await attributes(page, '.pending .chip', 'aria-label'), [`Pod ${PENDING_POD}, Pending`]);
    assert.deepEqual(await texts(page, '.pending .chip'), [PENDING_POD]);
    assert.match(await textOf(page, '.summary'), /13 placed · 1 pending/);
    assert.match(await textOf(page, '.lane[data-node="worker-1"] .bar-cpu .bar-label'), /^2\.1 \/ 4$/);
    assert.match(await textOf(page, '.lane[data-node="worker-2"] .lane-badges'), /Drained/);
    assert.deepEqual(await panel.allProblems(), []);
  });

  test('a kustomization replayed as its render says so first among the header facts; a folder does not', async () => {
    panel = await browser.open();
    await panel.load({ ...REPORT, renderOf: 'overlays/prod' });
    const rendered = await texts(panel.page, '.meta .meta-item');
    assert.equal(rendered[0], 'kustomize render');
    await panel.page.close();
    const { page } = await openWithReport();
    assert.equal((await texts(page, '.meta .meta-item')).includes('kustomize render'), false);
    assert.deepEqual(await panel.allProblems(), []);
  });

  test('play moves the playhead forward and pause stops it where it is', async () => {
    const { page } = await openWithReport();
    await seekTo(panel, 0);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => Number(document.getElementById('app')?.dataset['time']) > 3);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.waitForFunction(() => document.getElementById('app')?.dataset['playing'] === 'false');
    const paused = await panel.playhead();
    assert.equal(paused.isPlaying, false);
    assert.ok(paused.time > 3 && paused.time < DURATION, `paused at ${paused.time}`);
    await panel.settle();
    assert.equal((await panel.playhead()).time, paused.time);
  });

  test('space toggles playing when the focus is not on a control, and the speed select sets the speed', async () => {
    const { page } = await openWithReport();
    await page.locator('.speed').selectOption('60');
    await seekTo(panel, 0);
    await page.locator('.axis').focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.getElementById('app')?.dataset['playing'] === 'true');
    await page.waitForFunction(() => Number(document.getElementById('app')?.dataset['time']) > 20);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.getElementById('app')?.dataset['playing'] === 'false');
    assert.equal(((await panel.savedState()) as { speed: number }).speed, 60);
  });

  test('Tab reaches the controls in reading order, each with an accessible name', async () => {
    const { page } = await openWithReport();
    const names: string[] = [];
    for (let press = 0; press < 7; press++) {
      await page.keyboard.press('Tab');
      names.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''));
    }
    assert.deepEqual(names, [
      'Simulate again',
      'Previous event',
      'Play',
      'Next event',
      'Playback speed',
      'Simulated time',
      `Pod ${PENDING_POD}, Pending`,
    ]);
  });

  test('scrubbing to the middle of the axis puts the playhead at the time its scale shows there', async () => {
    const { page } = await openWithReport();
    const box = await page.locator('.axis').boundingBox();
    assert.ok(box !== null);
    const middle = box.x + box.width / 2;
    await page.mouse.click(middle, box.y + box.height / 2);
    await panel.settle();
    const { time, cursor } = await panel.playhead();
    const tolerance = (DURATION / box.width) * 2;
    assert.ok(Math.abs(time - (await axisTimeAt(page, middle))) <= tolerance, `time ${time}`);
    assert.equal(cursor, EVENTS.filter((event) => event.time <= time).length);
  });

  test('the arrow keys on the axis step one event forward and back, and the event list marks it', async () => {
    const { page } = await openWithReport();
    await seekTo(panel, 0);
    await panel.waitForCursor(EVENTS_AT_ZERO);
    await page.locator('.axis').press('ArrowRight');
    await panel.waitForCursor(EVENTS_AT_ZERO + 1);
    assert.equal((await panel.playhead()).time, EVENTS[EVENTS_AT_ZERO]?.time);
    const current = page.locator('.event-row.is-current');
    assert.equal(await current.getAttribute('data-event'), String(EVENTS_AT_ZERO));
    assert.equal(await current.locator('.event-type').textContent(), EVENTS[EVENTS_AT_ZERO]?.type);
    await page.locator('.axis').press('ArrowLeft');
    await panel.waitForCursor(EVENTS_AT_ZERO);
    await page.getByRole('button', { name: 'Next event' }).click();
    await panel.waitForCursor(EVENTS_AT_ZERO + 1);
    await page.getByRole('button', { name: 'Previous event' }).click();
    await panel.waitForCursor(EVENTS_AT_ZERO);
  });

  test('clicking an event in the filtered list jumps to it and shows the drain blocked on the lane', async () => {
    const { page } = await openWithReport();
    await page.locator('.event-filter').fill('DrainBlocked');
    await page.locator('.event-row[data-type="DrainBlocked"]').first().click();
    const index = EVENTS.findIndex((event) => event.type === 'DrainBlocked');
    await panel.waitForCursor(index + 1);
    assert.equal((await panel.playhead()).time, 70);
    // A blocked drain is still draining: one badge says both, its tooltip why.
    assert.deepEqual(await texts(page, '.lane[data-node="worker-2"] .badge'), ['Drain blocked']);
    assert.match(
      (await attributes(page, '.lane[data-node="worker-2"] .badge', 'title'))[0] ?? '',
      /refused by a PodDisruptionBudget/,
    );
    assert.match(await textOf(page, '.summary'), /default\/storefront: 1 allowed, 1 blocked/);
    assert.equal(((await panel.savedState()) as { eventFilter: string }).eventFilter, 'DrainBlocked');
  });

  test("clicking the Pending pod shows kube-scheduler's message and each node's reasons", async () => {
    const { page } = await openWithReport();
    await page.locator('.pending .chip').click();
    await page.locator('.details .pod-name').waitFor();
    const details = page.locator('.details');
    assert.equal(await details.locator('.pod-name').textContent(), PENDING_POD);
    assert.match(
      await textOf(page, '.details .fit-error'),
      /^0\/4 nodes are available: 1 node\(s\) had untolerated taint\(s\), 3 Insufficient cpu, 3 Insufficient memory\./,
    );
    const rows = await texts(page, '.details table.explain tbody tr');
    assert.equal(rows[0], 'control-planeTaintToleration: node(s) had untolerated taint(s)–');
    assert.ok(
      rows
        .slice(1, 4)
        .every((row) => row.endsWith('NodeResourcesFit: Insufficient cpu, Insufficient memory–')),
    );
    await page
      .locator('.details')
      .getByRole('button', { name: /Reveal the manifest/ })
      .click();
    await page.waitForFunction(() =>
      (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'revealPod'),
    );
    const reveal = (await panel.posted()).find((message) => message.type === 'revealPod');
    assert.deepEqual(reveal, { type: 'revealPod', namespace: 'default', name: PENDING_POD });
  });

  test('a placed pod shows each node’s filter outcome and scores, and its history jumps the playhead', async () => {
    const { page } = await openWithReport();
    await chipOf(page, 'storefront-7d9c5b8f4d-k2x8p').click();
    await page.locator('.details .pod-name', { hasText: 'storefront-7d9c5b8f4d-k2x8p' }).waitFor();
    const rows = await texts(page, '.details table.explain:first-of-type tbody tr');
    assert.equal(rows[0], 'worker-1 ✓passed483');
    assert.match(rows.join('|'), /control-planeTaintToleration: node\(s\) had untolerated taint\(s\)/);
    assert.match(await textOf(page, '.details'), /NodeResourcesBalancedAllocation/);
    await page.locator('.details .history-item', { hasText: 'Started container web' }).click();
    await panel.waitForCursor(EVENTS.findIndex((e) => e.time === 7.4 && e.details?.phase === 'Running') + 1);
    assert.equal((await panel.playhead()).time, 7.4);
    assert.match(await textOf(page, '.details .facts'), /PhaseRunning/);
  });

  test('during the rolling update the rollout shows its wave; at the end the summary says how long it took', async () => {
    const { page } = await openWithReport();
    await seekTo(panel, 13);
    assert.match(await textOf(page, '.rollout-status'), /step 3, .* · new 2 · old 2 · available 3/);
    assert.match(await textOf(page, '.summary'), /storefront in progress (9|10) s/);
    await seekTo(panel, DURATION);
    assert.match(await textOf(page, '.rollout-status'), /complete after 26 s, 6 steps/);
    assert.match(await textOf(page, '.summary'), /storefront took 26 s/);
    assert.match(await textOf(page, '.summary'), /default\/storefront: 2 allowed, 2 blocked/);
  });

  test('an update of the same folder keeps the playhead and the selected pod', async () => {
    const { page } = await openWithReport();
    await seekTo(panel, 72);
    await chipOf(page, 'orders-db-1').click();
    const before = await panel.playhead();
    await panel.send({
      type: 'simulation',
      folder: { uri: 'file:///workspace/examples/web-app', name: 'web-app' },
      report: REPORT,
      isUpdate: true,
    });
    await page.waitForFunction(
      () => document.querySelector('.details .pod-name')?.textContent === 'orders-db-1',
    );
    assert.deepEqual(await panel.playhead(), before);
  });

  test('the Replay lens’s workload selects its first pod, also when it arrives before the simulation', async () => {
    // Sent before any report: the page keeps it until a simulation that has the workload arrives.
    panel = await browser.open();
    await panel.send({
      type: 'focusWorkload',
      workload: { kind: 'StatefulSet', namespace: 'default', name: 'orders-db' },
    });
    await panel.load(REPORT);
    const { page } = panel;
    await page.waitForFunction(
      () => document.querySelector('.details .pod-name')?.textContent === 'orders-db-0',
    );
    // Sent while a report is shown: applied at once.
    await panel.send({
      type: 'focusWorkload',
      workload: { kind: 'DaemonSet', namespace: 'kube-system', name: 'log-agent' },
    });
    await page.waitForFunction(() =>
      /^log-agent-/.test(document.querySelector('.details .pod-name')?.textContent ?? ''),
    );
    assert.deepEqual(await panel.allProblems(), []);
  });

  test('a page restored with its saved state shows the same playhead and pod after the host resends the report', async () => {
    const { page } = await openWithReport();
    const time = await seekTo(panel, 20);
    await chipOf(page, 'orders-db-0').click();
    const saved = await panel.savedState();
    const restored = await browser.open(saved);
    await restored.load(REPORT);
    assert.equal((await restored.playhead()).time, time);
    assert.equal(await restored.page.locator('.details .pod-name').textContent(), 'orders-db-0');
    await restored.page.close();
  });

  test('the host’s loading and unavailable messages are shown as text', async () => {
    const { page } = await openWithReport();
    await panel.send({ type: 'loading', folder: { uri: 'file:///x/<b>y</b>', name: '<b>y</b>' } });
    assert.equal(await textOf(page, '.banner'), 'Simulating <b>y</b>…');
    await panel.send({ type: 'unavailable', message: 'No Kubernetes manifest in y.', isError: true });
    assert.equal(await textOf(page, '.banner'), 'No Kubernetes manifest in y.');
    await page.getByRole('button', { name: 'Simulate again' }).click();
    assert.ok((await panel.posted()).some((message) => message.type === 'reload'));
  });
});
