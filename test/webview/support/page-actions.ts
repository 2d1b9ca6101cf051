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

/**
 * Clicks the time axis where `time` is (Home and End for the ends) and waits until the page shows it; returns
 * the time reached, within a pixel's worth of seconds of the one asked.
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
  await page.mouse.click(box.x + (box.width * time) / duration, box.y + box.height / 2);
  const tolerance = (duration / box.width) * 1.5;
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
