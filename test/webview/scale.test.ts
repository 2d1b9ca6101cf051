/**
 * The panel with 500 nodes and 5,000 pods (support/large-report.ts): only what is in view exists in the DOM, the
 * state at the end matches the report, and scrolling reaches the last node. The frame and render times of
 * playing at 60× and of scrubbing are measured and written to test-results/webview-frame-times.json, and
 * printed; they are figures to read, not assertions (timing belongs to benchmarks).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { largeReport } from './support/large-report';
import { launchOrSkip, seekTo, textOf } from './support/page-actions';
import type { PanelBrowser, PanelPage } from './support/panel-page';
import { SKIP_WITHOUT_CHROMIUM } from './support/panel-page';

const REPORT = largeReport();
const OUT = resolve(__dirname, '../../test-results');
const FRAMES = 180;

// Page scripts as text: tsx would add helpers to named functions that do not exist in the page.
/** Resolves with the milliseconds from posting the report (parsed from JSON first) to the page's next render. */
const LOAD_TIMING = `new Promise((done) => {
  const message = { type: 'simulation', folder: { uri: 'file:///workspace/large', name: 'large' }, report: JSON.parse(window.__report), isUpdate: true };
  performance.clearMeasures('foresight-render');
  const started = performance.now();
  window.postMessage(message, '*');
  const check = () => performance.getEntriesByName('foresight-render').length > 0 ? done(Math.round(performance.now() - started)) : requestAnimationFrame(check);
  requestAnimationFrame(check);
})`;
/** Resolves with the intervals between FRAMES animation frames. */
const FRAME_INTERVALS = `new Promise((done) => {
  const times = [];
  const tick = (now) => {
    times.push(now);
    if (times.length <= ${FRAMES}) { requestAnimationFrame(tick); } else { done(times.slice(1).map((time, index) => time - times[index])); }
  };
  requestAnimationFrame(tick);
})`;

interface Figures {
  readonly frames: number;
  readonly frameIntervalMs: { median: number; p95: number; max: number };
  readonly renderMs: { median: number; p95: number; max: number };
}

describe('timeline panel at scale', { skip: SKIP_WITHOUT_CHROMIUM, timeout: 180_000 }, () => {
  let browser: PanelBrowser;
  let panel: PanelPage;
  const figures: Record<string, unknown> = {};

  before(async () => {
    browser = await launchOrSkip();
    panel = await browser.open();
    await panel.load(REPORT, { uri: 'file:///workspace/large', name: 'large' });
    // From the message to the first render, in the page (what a user waits for once the report arrives).
    await panel.page.evaluate((text) => {
      (window as unknown as { __report: string }).__report = text;
    }, JSON.stringify(REPORT));
    figures['loadMs'] = await panel.page.evaluate(LOAD_TIMING);
  });
  after(async () => {
    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, 'webview-frame-times.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`webview frame times (500 nodes, 5,000 pods): ${JSON.stringify(figures)}`);
    await browser?.close();
  });

  test('only the lanes and events in view are in the DOM, and the page stays small', async () => {
    const { page } = panel;
    const lanes = await page.locator('.lane').count();
    const rows = await page.locator('.event-row').count();
    const elements = await page.evaluate(() => document.querySelectorAll('*').length);
    assert.ok(lanes > 0 && lanes <= 24, `${lanes} lanes in the DOM for 500 nodes`);
    assert.ok(rows > 0 && rows <= 60, `${rows} event rows in the DOM for ${REPORT.events?.length} events`);
    assert.ok(elements < 4000, `${elements} elements`);
    figures['domElements'] = elements;
  });

  test('at the end the summary counts the report’s placed and pending pods', async () => {
    const placed = REPORT.pods.filter((pod) => pod.nodeName !== null).length;
    const pending = REPORT.pods.length - placed;
    assert.match(await textOf(panel.page, '.summary'), new RegExp(`${placed} placed · ${pending} pending`));
    assert.match(await textOf(panel.page, '.summary'), /5 of 5 done/);
  });

  test('scrolling the lanes to the bottom shows the last node', async () => {
    const { page } = panel;
    await page.locator('.lanes-scroll').evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await page.locator('.lane[data-node="node-499"]').waitFor();
    assert.ok((await page.locator('.lane').count()) <= 24);
    await page.locator('.lanes-scroll').evaluate((element) => element.scrollTo(0, 0));
    await page.locator('.lane[data-node="node-000"]').waitFor();
  });

  test('playing at 60× renders frame after frame (frame and render times recorded)', async () => {
    const { page } = panel;
    await page.locator('.speed').selectOption('60');
    await seekTo(panel, 0);
    await page.evaluate(() => performance.clearMeasures('foresight-render'));
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const intervals = await page.evaluate<number[]>(FRAME_INTERVALS);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const renders = await page.evaluate(() =>
      performance.getEntriesByName('foresight-render').map((entry) => entry.duration),
    );
    const { time } = await panel.playhead();
    assert.ok(time > 0, 'the playhead moved');
    assert.ok(renders.length >= FRAMES / 2, `${renders.length} renders for ${FRAMES} frames`);
    figures['play60x'] = summarise(intervals, renders);
  });

  test('scrubbing back and forth across the whole timeline renders each position (times recorded)', async () => {
    const { page } = panel;
    await page.evaluate(() => performance.clearMeasures('foresight-render'));
    const box = await page.locator('.axis').boundingBox();
    assert.ok(box !== null);
    await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2);
    await page.mouse.down();
    for (let step = 0; step <= 40; step++) {
      const share = step % 2 === 0 ? 1 - step / 40 : step / 40;
      await page.mouse.move(box.x + share * box.width, box.y + box.height / 2);
    }
    await page.mouse.up();
    await panel.settle();
    const renders = await page.evaluate(() =>
      performance.getEntriesByName('foresight-render').map((entry) => entry.duration),
    );
    assert.ok(renders.length > 0);
    figures['scrub'] = summarise([], renders);
    assert.deepEqual(await panel.allProblems(), []);
  });
});

function summarise(intervals: readonly number[], renders: readonly number[]): Figures {
  return { frames: renders.length, frameIntervalMs: stats(intervals), renderMs: stats(renders) };
}

function stats(values: readonly number[]): { median: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number): number =>
    Math.round((sorted[Math.floor(share * (sorted.length - 1))] ?? 0) * 100) / 100;
  return { median: at(0.5), p95: at(0.95), max: at(1) };
}
