/**
 * The panel in half a window: at 480 px wide (the narrowest a side split gives), nothing a user needs is cut and
 * nothing overlaps. Layout assertions on the real engine's recording of the examples (a drain held by a budget, a
 * failed node, a scenario from the cluster file, idle stretches) at every moment a node's badges change, and on
 * a cluster of cloud-style long node names carrying every badge at once.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { layoutProblems } from './support/layout-check';
import type { TimelineEvent } from '../../protocol/timeline';
import type { PanelReport } from '../../protocol/webview-messages';
import { launchOrSkip, seekTo } from './support/page-actions';
import type { PanelBrowser, PanelPage } from './support/panel-page';
import { SKIP_WITHOUT_CHROMIUM } from './support/panel-page';

const ENGINE = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/webview/engine-examples.json'), 'utf8'),
) as PanelReport;
const WIDTH = 480;
/** The least width of a burst of activity on the axis at this width (10% of the axis: model/time-scale.ts). */
const MIN_BURST_PX = 40;

/** Node events that change a lane's badges. */
const BADGE_EVENTS = new Set([
  'NodeCordoned',
  'NodeNotReady',
  'NodeTainted',
  'DrainStarted',
  'DrainBlocked',
  'DrainCompleted',
]);

/** A cluster of long cloud-style node names: one node with every badge the panel shows at once. */
function longNamesReport(): PanelReport {
  const names = [
    'ip-10-0-101-23.eu-west-1.compute.internal',
    'ip-10-0-102-187.eu-west-1.compute.internal',
    'gke-production-default-pool-3f1c2a9b-x7k2',
  ];
  const node = (type: TimelineEvent['type'], name: string, time: number): TimelineEvent => ({
    time,
    type,
    object: { kind: 'Node', name },
    node: name,
    message: type,
  });
  const [first = '', second = '', third = ''] = names;
  return {
    apiVersion: 'foresight/v1',
    kubernetesVersion: '1.35',
    cluster: {
      source: 'cluster.yaml',
      nodes: names.map((name) => ({
        name,
        allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
        requested: {},
      })),
    },
    pods: [],
    findings: [],
    events: [
      ...names.map((name) => node('NodeAdded', name, 0)),
      node('DrainStarted', first, 10),
      node('NodeCordoned', first, 10),
      node('DrainBlocked', first, 10),
      node('NodeNotReady', first, 12),
      node('NodeTainted', first, 12),
      node('NodeCordoned', second, 20),
      node('NodeNotReady', second, 20),
      node('NodeTainted', second, 20),
      node('DrainStarted', third, 30),
      node('NodeCordoned', third, 30),
      node('DrainCompleted', third, 31),
    ],
  };
}

describe(`the timeline panel at ${WIDTH} px`, { skip: SKIP_WITHOUT_CHROMIUM, timeout: 180_000 }, () => {
  let browser: PanelBrowser;
  let panel: PanelPage;

  before(async () => {
    browser = await launchOrSkip();
  });
  after(async () => {
    await browser?.close();
  });

  const open = async (report: PanelReport): Promise<Page> => {
    panel = await browser.open();
    await panel.page.setViewportSize({ width: WIDTH, height: 1000 });
    await panel.load(report, { uri: 'file:///workspace/examples', name: 'examples' });
    await panel.settle();
    return panel.page;
  };

  test('every node name is shown in full and no two badges overlap, at each change of a node’s badges', async () => {
    const page = await open(ENGINE);
    const events = ENGINE.events ?? [];
    const times = [...new Set(events.filter((event) => BADGE_EVENTS.has(event.type)).map((e) => e.time))];
    assert.ok(times.length >= 3, `badge changes at ${times.join(', ')}`);
    for (const time of [0, ...times, events[events.length - 1]?.time ?? 0]) {
      await seekTo(panel, time);
      await panel.settle();
      assert.deepEqual(await layoutProblems(page), [], `at ${time}s`);
    }
    assert.equal(await page.locator('.lane').count(), ENGINE.cluster.nodes.length);
    assert.deepEqual(await panel.allProblems(), []);
  });

  test('long cloud node names are shown whole and every badge at once fits beside none other', async () => {
    const page = await open(longNamesReport());
    assert.deepEqual(await layoutProblems(page), []);
    const badges = await page
      .locator('.lane[data-node^="ip-10-0-101-23"] .badge')
      .evaluateAll((elements) => elements.map((element) => element.textContent));
    assert.deepEqual(badges, ['NotReady', 'Drain blocked', 'Tainted']);
    const cordoned = await page
      .locator('.lane[data-node^="ip-10-0-102-187"] .badge')
      .evaluateAll((elements) => elements.map((element) => element.textContent));
    assert.deepEqual(cordoned, ['NotReady', 'SchedulingDisabled', 'Tainted']);
  });

  test('the broken axis gives each burst of activity at least 40 px and labels each break with the time it skips', async () => {
    const page = await open(ENGINE);
    const pieces = await page.locator('.axis-segment, .axis-break').evaluateAll((elements) =>
      elements.map((element) => ({
        isBreak: element.classList.contains('axis-break'),
        width: element.getBoundingClientRect().width,
        from: Number((element as HTMLElement).dataset['from']),
        to: Number((element as HTMLElement).dataset['to']),
        title: element.getAttribute('title') ?? '',
      })),
    );
    const bursts = pieces.filter((piece) => !piece.isBreak);
    const breaks = pieces.filter((piece) => piece.isBreak);
    assert.ok(breaks.length >= 1, 'the recording’s idle stretches are breaks');
    for (const burst of bursts) {
      assert.ok(burst.width >= MIN_BURST_PX, `the burst ${burst.from}–${burst.to}s is ${burst.width}px`);
    }
    const skips = await page.locator('.axis-skip').allTextContents();
    assert.equal(skips.length, breaks.length);
    breaks.forEach((piece, index) => {
      assert.match(piece.title, /without events, compressed/);
      assert.ok((skips[index] ?? '').length > 0);
    });
    // The first burst (the rollouts) gets far more than its linear share.
    const total = pieces.reduce((sum, piece) => sum + piece.width, 0);
    const duration = pieces[pieces.length - 1]?.to ?? 1;
    const first = bursts[0];
    assert.ok(first !== undefined && first.width / total > (2 * (first.to - first.from)) / duration);
    const axis = await page.locator('.axis').boundingBox();
    assert.ok(axis !== null && axis.width >= WIDTH - 40, `the axis takes its own row: ${axis?.width}px`);
  });
});
