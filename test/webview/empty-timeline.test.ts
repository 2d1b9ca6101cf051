/**
 * A timeline that shows none of the folder's pods says why, from what the report can tell: objects the API server
 * refused, documents left out for an error it would refuse (a kustomize base judged alone), or manifests that
 * create no pod. The cluster is the real engine's recording of the examples, with its pods taken away.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PanelReport } from '../../protocol/webview-messages';
import { launchOrSkip } from './support/page-actions';
import type { PanelBrowser } from './support/panel-page';
import { SKIP_WITHOUT_CHROMIUM } from './support/panel-page';

const ENGINE = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/webview/engine-examples.json'), 'utf8'),
) as PanelReport;
/** The cluster without any pod of the manifests: its nodes join, nothing else happens. */
const NO_PODS: PanelReport = {
  ...ENGINE,
  pods: [],
  rejected: [],
  events: (ENGINE.events ?? []).filter((event) => event.type === 'NodeAdded'),
};
const REFUSED = {
  kind: 'Deployment',
  name: 'old',
  stage: 'discovery',
  plugin: '',
  message:
    'resource mapping not found for name: "old" namespace: "" from "d.yaml": no matches for kind "Deployment" in version "extensions/v1beta1"\nensure CRDs are installed first',
};
const LEFT_OUT = {
  file: 'file:///workspace/base/deploy.yaml',
  line: 4,
  message: 'Missing required field "selector".',
};

const OVERLAY = { uri: 'file:///workspace/overlays/prod', label: 'overlays/prod' };

const CASES: readonly {
  name: string;
  report: PanelReport;
  notice: string[] | null;
  /** The overlays' buttons, when the notice offers them. */
  buttons?: string[];
}[] = [
  {
    name: 'every object refused by the API server: the refusals, kubectl’s first line each',
    report: { ...NO_PODS, rejected: [REFUSED] },
    notice: [
      'Nothing of examples runs: the API server refuses 1 object',
      'kubectl apply would fail it, so no pod is created. The lanes show the cluster’s own pods only.',
      'Deployment old (discovery): resource mapping not found for name: "old" namespace: "" from "d.yaml": no matches for kind "Deployment" in version "extensions/v1beta1"',
    ],
  },
  {
    name: 'a kustomize base judged alone: its document left out, with the file, line and error',
    report: { ...NO_PODS, leftOut: [LEFT_OUT] },
    notice: [
      'Nothing of examples runs: 1 document with an error is left out',
      'The API server would refuse it. A kustomize base is applied through its overlay, which may supply what it lacks (a selector, a namespace); a base is replayed as written, not as a render: foresight simulate OVERLAY-FOLDER replays the render. The lanes show the cluster’s own pods only.',
      'deploy.yaml:4: Missing required field "selector".',
    ],
  },
  {
    name: 'manifests without a workload',
    report: NO_PODS,
    notice: [
      'Nothing of examples runs: its manifests create no pod',
      'No workload (Deployment, StatefulSet, DaemonSet, Job, CronJob, Pod…) is among them. The lanes show the cluster’s own pods only.',
    ],
  },
  {
    name: 'a kustomize base whose selector its overlay supplies: said so, not "no workload"',
    report: { ...NO_PODS, selectorFromOverlay: ['file:///workspace/base/deployment.yaml'] },
    notice: [
      'Nothing of examples runs as it is written: it is a kustomize base',
      'A kustomization that includes this file supplies the selector of its workloads (labels with includeSelectors), so they run only through its render, as kubectl apply -k applies them. A base is replayed as written, not as a render: the render’s predictions are the diagnostics on these files, and foresight simulate OVERLAY-FOLDER replays the render. The lanes show the cluster’s own pods only.',
      'deployment.yaml',
    ],
  },
  {
    name: 'the same base with the overlay that includes it named: its timeline is offered',
    report: {
      ...NO_PODS,
      selectorFromOverlay: ['file:///workspace/base/deployment.yaml'],
      includedBy: [OVERLAY],
    },
    notice: [
      'Nothing of examples runs as it is written: it is a kustomize base',
      'A kustomization that includes this file supplies the selector of its workloads (labels with includeSelectors), so they run only through its render, as kubectl apply -k applies them. A base is replayed as written, not as a render: the render’s predictions are the diagnostics on these files, and the timeline of the kustomization that includes it replays its render. The lanes show the cluster’s own pods only.',
      'deployment.yaml',
    ],
    buttons: ['Open the timeline of overlays/prod'],
  },
  {
    name: 'a base whose pods run as written: said to be a base, with the timelines of both overlays',
    report: {
      ...ENGINE,
      includedBy: [OVERLAY, { uri: 'file:///workspace/overlays/dev', label: 'overlays/dev' }],
    },
    notice: [
      'examples is a kustomize base, replayed as it is written',
      'kubectl apply -k applies it only through the kustomizations that include it, whose render may change its names, namespaces and replicas. Their timelines replay what kubectl apply -k applies.',
    ],
    buttons: ['Open the timeline of overlays/prod', 'Open the timeline of overlays/dev'],
  },
  {
    name: 'pods that run, with a document left out beside them: only the left-out document is named',
    report: { ...ENGINE, leftOut: [LEFT_OUT] },
    notice: [
      '1 document of examples with an error is left out',
      'deploy.yaml:4: Missing required field "selector".',
    ],
  },
  { name: 'pods that run and nothing left out: no notice', report: ENGINE, notice: null },
];

describe('an empty timeline says why', { skip: SKIP_WITHOUT_CHROMIUM, timeout: 120_000 }, () => {
  let browser: PanelBrowser;
  before(async () => {
    browser = await launchOrSkip();
  });
  after(async () => {
    await browser?.close();
  });

  for (const { name, report, notice, buttons } of CASES) {
    test(name, async () => {
      const panel = await browser.open();
      await panel.load(report, { uri: 'file:///workspace/examples', name: 'examples' });
      await panel.settle();
      const element = panel.page.locator('.empty-notice');
      if (notice === null) {
        assert.equal(await element.isVisible(), false);
      } else {
        assert.equal(await element.getAttribute('role'), 'status');
        assert.deepEqual(await element.locator('h2, p, li').allInnerTexts(), notice);
        assert.deepEqual(await element.locator('button').allInnerTexts(), buttons ?? []);
      }
      assert.deepEqual(await panel.allProblems(), []);
      await panel.page.close();
    });
  }

  test('the button of the second overlay asks the host for that overlay, by its position only', async () => {
    const panel = await browser.open();
    const report: PanelReport = {
      ...ENGINE,
      includedBy: [OVERLAY, { uri: 'file:///workspace/overlays/dev', label: 'overlays/dev' }],
    };
    await panel.load(report, { uri: 'file:///workspace/base', name: 'base' });
    await panel.settle();
    // The buttons sit right under the title, above the explanation that scrolls in a half-width panel.
    assert.equal(await panel.page.locator('.empty-notice h2 + .empty-overlays').count(), 1);
    await panel.page.locator('.empty-notice button', { hasText: 'overlays/dev' }).click();
    const posted = await panel.posted();
    assert.deepEqual(
      posted.filter((message) => message.type === 'openOverlay'),
      [{ type: 'openOverlay', index: 1 }],
    );
    assert.deepEqual(await panel.allProblems(), []);
    await panel.page.close();
  });
});
