/**
 * Hostile manifest strings (HTML, script, event-handler attributes, javascript: URLs, RTL overrides, very long
 * names) in every field the panel shows: names of nodes, pods, namespaces, owners, messages, budgets, plugins,
 * the cluster source. Any dialog, any CSP violation, any page error or any element the data injected fails the
 * test; the strings must be shown as text.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PanelReport } from '../../protocol/webview-messages';
import { visibleText } from '../../media/format';
import { launchOrSkip, seekTo, textOf } from './support/page-actions';
import type { PanelBrowser, PanelPage } from './support/panel-page';
import { SKIP_WITHOUT_CHROMIUM } from './support/panel-page';

const FIXTURE = JSON.parse(readFileSync(join(__dirname, '../fixtures/webview/hostile.json'), 'utf8')) as {
  strings: Record<string, string>;
  report: PanelReport;
};
const STRINGS = FIXTURE.strings;

/** Elements the page builds itself; anything else in the document was injected. */
const OWN_TAGS = new Set(
  'html head meta link title body script div span section header main aside h1 h2 h3 p button select option input svg path polyline line dl dt dd table caption thead tbody tr th td ol ul li'.split(
    ' ',
  ),
);

async function injectedElements(panel: PanelPage): Promise<string[]> {
  return panel.page.evaluate(
    (own) => {
      const found: string[] = [];
      for (const element of Array.from(document.querySelectorAll('*'))) {
        const tag = element.tagName.toLowerCase();
        if (!own.includes(tag)) {
          found.push(`<${tag}>`);
        }
        for (const attribute of Array.from(element.attributes)) {
          if (attribute.name === 'style' && tag !== 'html') {
            // The page sets only sizes and positions through the CSSOM.
            for (const property of Array.from((element as HTMLElement).style)) {
              const sizes = ['width', 'height', 'left', 'transform', '--chip-width', '--lane-height'];
              if (!sizes.includes(property)) {
                found.push(`<${tag} style ${property}>`);
              }
            }
          } else if (
            /^on/i.test(attribute.name) ||
            /^(href|src|srcdoc|action|formaction)$/i.test(attribute.name)
          ) {
            const isOwnAsset =
              (tag === 'link' && attribute.name === 'href') || (tag === 'script' && attribute.name === 'src');
            if (!isOwnAsset) {
              found.push(`<${tag} ${attribute.name}>`);
            }
          }
        }
      }
      if (document.querySelectorAll('script').length !== 1) {
        found.push(`${document.querySelectorAll('script').length} scripts`);
      }
      if ((window as unknown as { __pwned?: unknown }).__pwned !== undefined) {
        found.push('window.__pwned was set');
      }
      return found;
    },
    [...OWN_TAGS],
  );
}

describe(
  'hostile manifest strings in the timeline panel',
  { skip: SKIP_WITHOUT_CHROMIUM, timeout: 120_000 },
  () => {
    let browser: PanelBrowser;
    let panel: PanelPage;

    before(async () => {
      browser = await launchOrSkip();
      panel = await browser.open();
      await panel.send({ type: 'loading', folder: { uri: 'file:///x', name: STRINGS['script'] ?? '' } });
      await panel.load(FIXTURE.report, { uri: STRINGS['js'] ?? '', name: STRINGS['img'] ?? '' });
    });
    after(async () => {
      await browser?.close();
    });

    test('the report loads without any dialog, CSP violation, page error or injected element', async () => {
      assert.deepEqual(await injectedElements(panel), []);
      assert.deepEqual(await panel.allProblems(), []);
      assert.notEqual(await panel.page.evaluate(() => getComputedStyle(document.body).display), 'none');
    });

    test('node and pod names are shown as the text they are, with direction overrides made visible', async () => {
      const { page } = panel;
      const laneNames = await page.locator('.lane .lane-name').allTextContents();
      assert.deepEqual(laneNames, [STRINGS['img'], visibleText(STRINGS['rtl'] ?? '')]);
      assert.ok(laneNames[1]?.includes('\\u202E'), 'the RTL override shows as \\u202E');
      assert.match(await textOf(page, '.title'), /<img src=x onerror=/);
      assert.match(
        await textOf(page, '.meta'),
        /Kubernetes <script>window.__pwned='script';alert\('script'\)<\/script>/,
      );
    });

    test('every pod can be selected: the details show names, owners, messages and explanations as text', async () => {
      const { page } = panel;
      await seekTo(panel, 4.5);
      const chips = page.locator('.chip[data-pod]');
      const count = await chips.count();
      assert.ok(count >= 3, `${count} chips`);
      for (let index = 0; index < count; index++) {
        await chips.nth(index).click();
        await page.locator('.details .pod-name').waitFor();
        await panel.settle();
        assert.deepEqual(await injectedElements(panel), []);
      }
      await page.locator(`.chip[aria-label^="Pod ${STRINGS['template']},"]`).click();
      await page.locator('.details .pod-name', { hasText: 'constructor' }).waitFor();
      const details = await textOf(page, '.details');
      assert.ok(details.includes(`${STRINGS['img']}/${STRINGS['script']}`), 'the owner is text');
      assert.ok(details.includes(STRINGS['long'] ?? ''), 'the very long reason is shown whole');
      await page
        .locator('.details')
        .getByRole('button', { name: /Reveal the manifest/ })
        .click();
      const reveal = (await panel.posted()).find((message) => message.type === 'revealPod');
      assert.deepEqual(reveal, { type: 'revealPod', namespace: 'default', name: STRINGS['template'] });
      assert.deepEqual(await panel.allProblems(), []);
    });

    test('a very long pod name is shortened to its chip’s width and kept whole in its accessible name', async () => {
      const { page } = panel;
      const chip = page.locator(`.chip[aria-label^="Pod ${STRINGS['long']?.slice(0, 100)}"]`);
      assert.equal(await chip.count(), 1);
      const label = (await chip.textContent()) ?? '';
      assert.ok(label.length < (STRINGS['long']?.length ?? 0) && label.includes('…'), label);
      const fits = await chip.evaluate((element) => element.scrollWidth <= element.clientWidth);
      assert.ok(fits, 'the shortened label fits its chip whole');
      const box = await chip.boundingBox();
      assert.ok(box !== null && box.width <= 280, 'the chip keeps its width');
    });

    test('stepping through every event, filtering and playing to the end injects nothing', async () => {
      const { page } = panel;
      await seekTo(panel, 0);
      const events = FIXTURE.report.events?.length ?? 0;
      for (let step = 0; step < events; step++) {
        await page.locator('.axis').press('ArrowRight');
      }
      await panel.waitForCursor(events);
      await page.locator('.event-filter').fill('<script>');
      await panel.settle();
      assert.ok((await page.locator('.event-row').count()) > 0, 'the filter matches the literal text');
      await page.locator('.event-row').first().click();
      await page.locator('.event-filter').fill('');
      await page.locator('.speed').selectOption('60');
      // Played from the start: the cursor going from 0 to the last event shows every frame was drawn. (Waiting to
      // see "playing" first raced: at 60× these 9 s take 0.15 s, which one slow frame can cover whole.)
      await seekTo(panel, 0);
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await panel.waitForCursor(events);
      await page.waitForFunction(() => document.getElementById('app')?.dataset['playing'] === 'false');
      assert.match(
        await textOf(page, '.summary'),
        /<img src=x onerror=.*invoice\\u202Egnp\.exe: 0 allowed, 1 blocked/,
      );
      assert.deepEqual(await injectedElements(panel), []);
      assert.deepEqual(await panel.allProblems(), []);
    });
  },
);
