/**
 * Screenshots of the panel in VS Code's light, dark and high-contrast themes, written to test-results/ as
 * artefacts for people to look at: the examples' drain (an eviction refused by a disruption budget) with the
 * blocked pod selected, and the rolling update with the Pending pod selected; at 1,280, 700 and 480 px wide.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PanelReport } from '../../protocol/webview-messages';
import { chipOf, launchOrSkip, seekTo } from './support/page-actions';
import type { PanelBrowser } from './support/panel-page';
import { SKIP_WITHOUT_CHROMIUM } from './support/panel-page';
import type { ThemeName } from './support/themes';
import { applyTheme } from './support/themes';

const REPORT = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/webview/examples-timeline.json'), 'utf8'),
) as PanelReport;
const OUT = resolve(__dirname, '../../test-results');

const SHOTS: readonly { name: string; theme: ThemeName; time: number; pod: string; width: number }[] = [
  { name: 'timeline-light', theme: 'light', time: 72, pod: 'storefront-7d9c5b8f4d-t5hzr', width: 1280 },
  { name: 'timeline-dark', theme: 'dark', time: 13, pod: 'analytics-engine-8465c758f-95tk6', width: 1280 },
  { name: 'timeline-high-contrast', theme: 'high-contrast', time: 72, pod: 'orders-db-1', width: 1280 },
  { name: 'timeline-narrow-dark', theme: 'dark', time: 72, pod: 'storefront-7d9c5b8f4d-w4c9d', width: 700 },
  { name: 'timeline-480-light', theme: 'light', time: 72, pod: 'orders-db-0', width: 480 },
];

describe('timeline panel screenshots', { skip: SKIP_WITHOUT_CHROMIUM, timeout: 120_000 }, () => {
  let browser: PanelBrowser;
  before(async () => {
    browser = await launchOrSkip();
    mkdirSync(OUT, { recursive: true });
  });
  after(async () => {
    await browser?.close();
  });

  for (const shot of SHOTS) {
    test(`the ${shot.theme} theme at ${shot.width}px renders without problems and is saved as ${shot.name}.png`, async () => {
      const panel = await browser.open();
      const { page } = panel;
      await page.setViewportSize({ width: shot.width, height: 820 });
      await applyTheme(page, shot.theme);
      await panel.load(REPORT);
      await seekTo(panel, shot.time);
      await chipOf(page, shot.pod).click();
      await page.locator('.details .pod-name', { hasText: shot.pod }).waitFor();
      await panel.settle();
      const file = join(OUT, `${shot.name}.png`);
      await page.screenshot({ path: file });
      assert.ok(statSync(file).size > 10_000, `${file} looks empty`);
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.notEqual(background, 'rgba(0, 0, 0, 0)', 'the theme background applies');
      assert.deepEqual(await panel.allProblems(), []);
      await page.close();
    });
  }
});
