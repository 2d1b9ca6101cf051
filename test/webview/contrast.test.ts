/**
 * Every text of the timeline panel reads in each theme VS Code gives a webview: WCAG's 4.5:1 contrast against
 * what it sits on (contrast-check.ts), with the examples' timeline at its rollout and during its drain (Pending,
 * Running, Terminating and Evicted chips, past and future events). Issue #28 item 6: a light theme must not break
 * what the dark one shows.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PanelReport } from '../../protocol/webview-messages';
import { lowContrastTexts } from './support/contrast-check';
import { launchOrSkip, seekTo } from './support/page-actions';
import type { PanelBrowser } from './support/panel-page';
import { SKIP_WITHOUT_CHROMIUM } from './support/panel-page';
import type { ThemeName } from './support/themes';
import { applyTheme } from './support/themes';

const REPORT = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/webview/examples-timeline.json'), 'utf8'),
) as PanelReport;

/** The moments shown: the storefront's rollout, and worker-2's drain a second after it evicts a pod. */
const MOMENTS = [
  { name: 'the rollout', time: 13 },
  { name: 'the drain', time: 71 },
] as const;

const THEMES: readonly ThemeName[] = ['light', 'dark', 'high-contrast'];

describe('timeline panel text contrast', { skip: SKIP_WITHOUT_CHROMIUM, timeout: 120_000 }, () => {
  let browser: PanelBrowser;
  before(async () => {
    browser = await launchOrSkip();
  });
  after(async () => {
    await browser?.close();
  });

  for (const theme of THEMES) {
    for (const moment of MOMENTS) {
      test(`in the ${theme} theme at ${moment.name} every text reads at 4.5:1 or more`, async () => {
        const panel = await browser.open();
        const { page } = panel;
        await page.setViewportSize({ width: 700, height: 820 });
        await applyTheme(page, theme);
        await panel.load(REPORT);
        await seekTo(panel, moment.time);
        await panel.settle();
        // The moment has what the check is about: events still to come; during the drain, a pod on its way out.
        assert.ok((await page.locator('.event-row.is-future').count()) > 0, 'events still to come');
        if (moment.time > 70) {
          assert.ok((await page.locator('.chip.phase-terminating').count()) > 0, 'a terminating pod');
        }
        assert.deepEqual(await lowContrastTexts(page), []);
        await page.close();
      });
    }
  }
});
