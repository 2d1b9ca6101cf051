/**
 * Small actions and reads shared by the webview tests: seek by clicking the time axis, read texts.
 */
import type { Locator, Page } from 'playwright-core';
import { PanelBrowser } from './panel-page';
import type { PanelPage } from './panel-page';

/** Starts Chromium (callers skip the suite first when it is missing). */
export function launchOrSkip(): Promise<PanelBrowser> {
  return PanelBrowser.launch();
}

/** Where a time is on the broken axis: its x in the page and the seconds one pixel of its piece spans. */
export async function axisXOf(page: Page, time: number): Promise<{ x: number; secondsPerPixel: number }> {
  return page.evaluate((wanted) => {
    const pieces = Array.from(document.querySelectorAll<HTMLElement>('.axis-segment, .axis-break'));
    const piece =
      pieces.find(
        (element) => Number(element.dataset['from']) <= wanted && wanted <= Number(element.dataset['to']),
      ) ?? pieces[pieces.length - 1];
    if (piece === undefined) {
      throw new Error('the time axis has no pieces');
    }
    const box = piece.getBoundingClientRect();
    const from = Number(piece.dataset['from']);
    const to = Number(piece.dataset['to']);
    const share = to > from ? (wanted - from) / (to - from) : 0;
    return { x: box.left + share * box.width, secondsPerPixel: box.width > 0 ? (to - from) / box.width : 0 };
  }, time);
}

/** The time the broken axis maps a page x to (the inverse of axisXOf). */
export async function axisTimeAt(page: Page, x: number): Promise<number> {
  return page.evaluate((at) => {
    const pieces = Array.from(document.querySelectorAll<HTMLElement>('.axis-segment, .axis-break'));
    for (const piece of pieces) {
      const box = piece.getBoundingClientRect();
      if (at <= box.right || piece === pieces[pieces.length - 1]) {
        const from = Number(piece.dataset['from']);
        const to = Number(piece.dataset['to']);
        const share = box.width > 0 ? Math.min(1, Math.max(0, (at - box.left) / box.width)) : 0;
        return from + share * (to - from);
      }
    }
    return 0;
  }, x);
}

/**
 * Clicks the time axis where `time` is (on its broken scale; Home and End for the ends) and waits until the page
 * shows it; returns the time reached, within a pixel's worth of seconds of the one asked.
 */
export async function seekTo(panel: PanelPage, time: number): Promise<number> {
  const { page } = panel;
  const axis = page.locator('.axis');
  const duration = Number(await axis.getAttribute('aria-valuemax'));
  if (time <= 0 || time >= duration) {
    await axis.press(time <= 0 ? 'Home' : 'End');
    const expected = time <= 0 ? 0 : duration;
    await page.waitForFunction(
      (value) => Number(document.getElementById('app')?.dataset['time']) === value,
      expected,
    );
    return expected;
  }
  const box = await axis.boundingBox();
  if (box === null) {
    throw new Error('the time axis is not visible');
  }
  const { x, secondsPerPixel } = await axisXOf(page, time);
  await page.mouse.click(x, box.y + box.height / 2);
  const tolerance = secondsPerPixel * 1.5;
  await page.waitForFunction(
    ({ value, tolerance }) =>
      Math.abs(Number(document.getElementById('app')?.dataset['time']) - value) <= tolerance,
    { value: time, tolerance },
  );
  return (await panel.playhead()).time;
}

/** The chip of a pod (its label may be shortened; its accessible name is not). */
export function chipOf(page: Page, podName: string): Locator {
  return page.locator(`.chip[aria-label^="Pod ${podName},"]`);
}

/** The text of the first element matching a selector. */
export async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).first().textContent()) ?? '';
}

/** The texts of every element matching a selector, in document order. */
export function texts(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .evaluateAll((elements) => elements.map((element) => element.textContent ?? ''));
}

/** An attribute of every element matching a selector, in document order. */
export function attributes(page: Page, selector: string, name: string): Promise<(string | null)[]> {
  return page
    .locator(selector)
    .evaluateAll((elements, attribute) => elements.map((element) => element.getAttribute(attribute)), name);
}
