/**
 * The layout assertion of the timeline panel, shared by the webview tests (the page alone, at 480 px) and the
 * end-to-end tests (the page in VS Code's webview, in a side split): one evaluation in the page.
 */
import type { Frame, Page } from 'playwright-core';

/**
 * What is cut or overlaps on the timeline page now, as a list of problems (empty when the layout holds): the
 * page scrolling sideways; header or summary text, the axis's labels, a scenario step, rollout names or statuses cut; a node name not shown whole in
 * its lane, or missing from its tooltip or accessible name; a badge cut or overlapping another; a chip's label
 * cut by CSS or a chip without an accessible name.
 */
export async function layoutProblems(page: Page | Frame): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    // No helper functions in here: the test's TypeScript loader would name them with a helper the page lacks.
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > width) {
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px`);
    }
    const texts = '.title, .meta-item, .summary-value, .axis-tick, .axis-skip, .scenario-step';
    for (const element of Array.from(document.querySelectorAll(texts))) {
      if (element.scrollWidth > element.clientWidth + 0.5) {
        problems.push(`text cut: ${element.textContent ?? ''}`);
      }
    }
    for (const lane of Array.from(document.querySelectorAll<HTMLElement>('.lane'))) {
      const node = lane.dataset['node'] ?? '';
      const name = lane.querySelector<HTMLElement>('.lane-name');
      if (name === null || name.textContent !== node || name.scrollWidth > name.clientWidth + 0.5) {
        problems.push(`node name not shown in full: ${node} as "${name?.textContent ?? ''}"`);
      }
      if (name?.getAttribute('title') !== node || !(lane.getAttribute('aria-label') ?? '').includes(node)) {
        problems.push(`node name missing from the tooltip or accessible name: ${node}`);
      }
      const laneBox = lane.getBoundingClientRect();
      const badges = Array.from(lane.querySelectorAll('.badge')).map((badge) => ({
        text: badge.textContent ?? '',
        box: badge.getBoundingClientRect(),
        isCut: badge.scrollWidth > badge.clientWidth + 0.5,
      }));
      badges.forEach((badge, index) => {
        if (badge.isCut || badge.box.right > laneBox.right || badge.box.bottom > laneBox.bottom) {
          problems.push(`${node}: badge ${badge.text} cut`);
        }
        for (const other of badges.slice(index + 1)) {
          const overlaps =
            badge.box.left < other.box.right &&
            other.box.left < badge.box.right &&
            badge.box.top < other.box.bottom &&
            other.box.top < badge.box.bottom;
          if (overlaps) {
            problems.push(`${node}: badges ${badge.text} and ${other.text} overlap`);
          }
        }
      });
      for (const chip of Array.from(lane.querySelectorAll<HTMLElement>('.chip[data-pod]'))) {
        if (
          chip.scrollWidth > chip.clientWidth + 0.5 ||
          !(chip.getAttribute('aria-label') ?? '').startsWith('Pod ')
        ) {
          problems.push(`${node}: chip ${chip.textContent ?? ''} cut or unnamed`);
        }
      }
    }
    for (const name of Array.from(document.querySelectorAll('.rollout-name, .rollout-status'))) {
      if (name.scrollWidth > name.clientWidth + 0.5) {
        problems.push(`rollout text cut: ${name.textContent ?? ''}`);
      }
    }
    return problems;
  });
}
