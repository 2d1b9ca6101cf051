/**
 * The Preview Apply page (media/plan/) in headless Chromium under the host's HTML and Content-Security-Policy:
 * a real plan of examples/captured (its catalog image changed, as the language server answers kubeForesight/plan)
 * with hostile manifest strings added, shown as text; a link of each item carrying its file and line to the host;
 * the embedded default explained instead of a plan; the layout whole at 480 px and 1,600 px.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Plan } from '../../protocol/plan';
import type { HostToPlanMessage } from '../../protocol/plan-messages';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import { answerPlanRequest } from '../../server/src/host/plan-request';
import { TEST_SERVICE } from '../support/language-service';
import { lowContrastTexts } from './support/contrast-check';
import { launchOrSkip } from './support/page-actions';
import type { PanelBrowser, PanelPage } from './support/panel-page';
import { SKIP_WITHOUT_CHROMIUM } from './support/panel-page';
import type { ThemeName } from './support/themes';
import { applyTheme } from './support/themes';

const CAPTURED = resolve(__dirname, '../../examples/captured');
const WEB = pathToFileURL(join(CAPTURED, 'web.yaml')).href;
const FOLDER = { uri: pathToFileURL(CAPTURED).href, name: 'captured' };
const HOSTILE = `<img src=x onerror="window.__pwned=1">`;
const SCRIPT = `<script>window.__pwned=2</script>`;

/** The plan of examples/captured with catalog's image changed, and an object and a problem named by an attacker. */
async function hostilePlan(): Promise<Plan> {
  const text = readFileSync(join(CAPTURED, 'web.yaml'), 'utf8').replace('nginx:1.27.3', 'nginx:1.27.4');
  const result = await answerPlanRequest(
    { uri: FOLDER.uri },
    {
      openDocuments: () => [{ uri: WEB, getText: () => text }],
      settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
      service: TEST_SERVICE,
    },
  );
  assert.ok(result.ok, result.ok ? '' : result.message);
  const { plan } = result;
  return {
    ...plan,
    objects: [
      ...plan.objects,
      {
        kind: 'ConfigMap',
        namespace: SCRIPT,
        name: HOSTILE,
        action: 'created',
        file: WEB,
        line: 70,
        changes: [],
        note: SCRIPT,
      },
    ],
    problems: [
      ...plan.problems,
      {
        severity: 'warning',
        code: 'hostile',
        message: HOSTILE,
        file: WEB,
        line: 71,
        isPreexisting: false,
      },
    ],
    leftAlone: [...plan.leftAlone, `ConfigMap ${HOSTILE}`],
  };
}

async function send(panel: PanelPage, message: HostToPlanMessage): Promise<void> {
  await panel.page.evaluate((json) => window.postMessage(JSON.parse(json), '*'), JSON.stringify(message));
  await panel.page.waitForFunction(
    (type) => document.getElementById('app')?.dataset['state'] === type,
    message.type,
  );
}

describe('the Preview Apply page', { skip: SKIP_WITHOUT_CHROMIUM, timeout: 120_000 }, () => {
  let browser: PanelBrowser;
  let panel: PanelPage;
  let plan: Plan;

  before(async () => {
    plan = await hostilePlan();
    browser = await launchOrSkip();
    panel = await browser.open(undefined, 'plan');
    await send(panel, { type: 'loading', folder: FOLDER });
    await send(panel, { type: 'plan', folder: FOLDER, cluster: 'cluster.yaml', plan });
  });
  after(async () => {
    await browser?.close();
  });

  test('the page runs under a CSP whose script nonce is the one its only script carries', async () => {
    const { policy, nonces } = await panel.page.evaluate(() => ({
      policy:
        document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
      nonces: Array.from(document.querySelectorAll('script')).map((script) => script.nonce),
    }));
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
    assert.ok(nonce !== undefined && nonce.length >= 16, policy);
    assert.match(policy, /^default-src 'none'/);
    assert.deepEqual(nonces, [nonce]);
  });

  test('the verdict, then the changes, then what follows, in that order', async () => {
    const parts = await panel.page.locator('.verdict, .part').allTextContents();
    assert.deepEqual(parts, [plan.verdict.summary, 'Changes', 'What follows']);
    // The server's verdict, shown as it is (the hostile additions are the page's test, not the plan's).
    assert.equal(
      plan.verdict.summary,
      'safe: 0 to create, 1 to configure, 2 unchanged; 1 rollout(s); 0 failure(s), 0 warning(s)',
    );
    const catalog = panel.page.locator('.change[data-action="configured"]');
    assert.match(await catalog.innerText(), /Deployment store\/catalog/);
    assert.match(
      await catalog.innerText(),
      /spec\.template\.spec\.containers\[0\]\.image\s*nginx:1\.27\.3\s*→\s*nginx:1\.27\.4/,
    );
    assert.match(
      await panel.page.locator('.rollout').innerText(),
      /2 of 2 pod\(s\) replaced in 2 wave\(s\), complete in 22s from t=0s; at most 0 of 2 unavailable at once/,
    );
    // Memory in the unit a person compares, as `foresight plan` prints it: the nodes' allocatable is "…Ki".
    const memory = await panel.page.locator('.capacity tbody td').nth(2).innerText();
    assert.match(memory, / of \d+(\.\d)?Gi$/);
  });

  test('hostile names and messages are shown as text: no element injected, no dialog, no script run', async () => {
    const text = await panel.page.locator('#app').innerText();
    assert.ok(text.includes(`ConfigMap ${SCRIPT}/${HOSTILE}`));
    assert.ok(text.includes(HOSTILE));
    const injected = await panel.page.evaluate(() => ({
      images: document.querySelectorAll('img').length,
      scripts: document.querySelectorAll('script').length,
      pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null,
      handlers: Array.from(document.querySelectorAll('*')).flatMap((element) =>
        Array.from(element.attributes)
          .map((attribute) => attribute.name)
          .filter((name) => /^on/i.test(name)),
      ),
    }));
    assert.deepEqual(injected, { images: 0, scripts: 1, pwned: null, handlers: [] });
    assert.deepEqual(await panel.allProblems(), []);
  });

  test("each item's link carries its file and line to the host", async () => {
    const links = await panel.page
      .locator('.change .source')
      .evaluateAll((buttons) =>
        buttons.map((button) => [
          (button as HTMLElement).dataset['file'],
          (button as HTMLElement).dataset['line'],
          button.textContent,
        ]),
      );
    assert.deepEqual(links, [
      [WEB, '3', 'web.yaml:3'],
      [WEB, '25', 'web.yaml:25'],
      [WEB, '55', 'web.yaml:55'],
      [WEB, '70', 'web.yaml:70'],
    ]);
    await panel.page.locator('.change[data-action="configured"] .source').click();
    await panel.page.locator('.problem .source').last().click();
    await panel.page.locator('.timeline-line .link').click();
    const posted = await panel.posted();
    assert.deepEqual(posted.slice(-3), [
      { type: 'openSource', file: WEB, line: 3 },
      { type: 'openSource', file: WEB, line: 71 },
      { type: 'openTimeline' },
    ]);
    assert.deepEqual(await panel.savedState(), { folderUri: FOLDER.uri });
  });

  for (const width of [480, 1600]) {
    test(`at ${width} px nothing scrolls sideways and every link is inside the page`, async () => {
      await panel.page.setViewportSize({ width, height: 900 });
      const layout = await panel.page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        width: window.innerWidth,
        outside: Array.from(document.querySelectorAll('.source, .verdict, .subject'))
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map((element) => element.textContent),
      }));
      assert.ok(layout.scrollWidth <= layout.width, `${layout.scrollWidth}px wide in ${layout.width}px`);
      assert.deepEqual(layout.outside, []);
    });
  }

  test('on the embedded default the page says a plan needs a cluster file and how to capture one', async () => {
    await send(panel, {
      type: 'unavailable',
      message: 'A plan compares the manifests with a cluster.',
      isError: false,
      needsCluster: true,
    });
    const text = await panel.page.locator('#app').innerText();
    assert.match(text, /A plan needs a cluster file or a capture/);
    assert.match(text, /it writes \.foresight\/cluster\.yaml/);
    assert.equal(await panel.page.locator('.notice pre').innerText(), 'foresight capture');
    assert.equal(await panel.page.locator('.verdict').count(), 0);
  });
});

describe('the Preview Apply page text contrast', { skip: SKIP_WITHOUT_CHROMIUM, timeout: 120_000 }, () => {
  let browser: PanelBrowser;
  let plan: Plan;

  before(async () => {
    const hostile = await hostilePlan();
    // A failure too, so that the failure badge and its colour are on the page.
    plan = {
      ...hostile,
      problems: [
        ...hostile.problems,
        {
          severity: 'failure',
          code: 'pod-unschedulable',
          message: 'A pod stays Pending.',
          file: WEB,
          line: 25,
          isPreexisting: false,
        },
      ],
    };
    browser = await launchOrSkip();
  });
  after(async () => {
    await browser?.close();
  });

  for (const theme of ['light', 'dark', 'high-contrast'] as const satisfies readonly ThemeName[]) {
    test(`in the ${theme} theme every text of a plan with a failure reads at 4.5:1 or more`, async () => {
      const panel = await browser.open(undefined, 'plan');
      await panel.page.setViewportSize({ width: 900, height: 900 });
      await applyTheme(panel.page, theme);
      await send(panel, { type: 'plan', folder: FOLDER, cluster: 'cluster.yaml', plan });
      assert.equal(await panel.page.locator('.badge.is-failure').count(), 1);
      assert.ok((await panel.page.locator('.fields .old').count()) > 0, 'an old value shown');
      assert.deepEqual(await lowContrastTexts(panel.page), []);
      await panel.page.close();
    });
  }
});
