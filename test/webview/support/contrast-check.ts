/**
 * Text the panel shows too faintly to read: each visible element with text of its own, its colour (faded by its
 * own and its ancestors' opacity) against the background it sits on, under WCAG 2's contrast ratio for normal
 * text (4.5:1, https://www.w3.org/TR/WCAG21/#contrast-minimum). Run in the page, so it reads the colours the
 * theme's variables resolve to (a light theme breaks what a dark one hides, and the reverse).
 */
import type { Frame, Page } from 'playwright-core';

/** WCAG 2.1 AA for text under 18pt. */
const MINIMUM_RATIO = 4.5;

/**
 * "ratio 2.1: Evicted" for each element under `root` whose own text reads below `minimum`; empty when all read.
 * Elements marked as disabled or hidden from assistive technology are left out.
 */
export async function lowContrastTexts(
  target: Frame | Page,
  root = 'body',
  minimum = MINIMUM_RATIO,
): Promise<string[]> {
  const problems: unknown = await target.evaluate(
    `(${PAGE_CHECK})(document.querySelector(${JSON.stringify(root)}), ${minimum})`,
  );
  return Array.isArray(problems) ? problems.map(String) : [String(problems)];
}

/**
 * The check as it runs in the page, in plain JavaScript: a function given to Playwright would be compiled by the
 * tests' TypeScript loader, which names inner functions with a helper the page lacks.
 */
const PAGE_CHECK = String.raw`(top, threshold) => {
  const parse = (text) => {
    const rgb = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(text);
    if (rgb !== null) {
      return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
    }
    const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/.exec(text);
    return srgb === null
      ? undefined
      : [
          Number(srgb[1]) * 255,
          Number(srgb[2]) * 255,
          Number(srgb[3]) * 255,
          srgb[4] === undefined ? 1 : Number(srgb[4]),
        ];
  };
  const over = (front, back, alpha) => [
    front[0] * alpha + back[0] * (1 - alpha),
    front[1] * alpha + back[1] * (1 - alpha),
    front[2] * alpha + back[2] * (1 - alpha),
    1,
  ];
  /** The opaque background behind an element: its ancestors' backgrounds layered from the page's down. */
  const backgroundOf = (element) => {
    const layers = [];
    for (let node = element; node !== null; node = node.parentElement) {
      const colour = parse(getComputedStyle(node).backgroundColor);
      if (colour !== undefined && colour[3] > 0) {
        layers.push(colour);
        if (colour[3] >= 1) {
          break;
        }
      }
    }
    return layers.reverse().reduce((back, layer) => over(layer, back, layer[3]), [255, 255, 255, 1]);
  };
  const opacityOf = (element) => {
    let opacity = 1;
    for (let node = element; node !== null; node = node.parentElement) {
      opacity *= Number(getComputedStyle(node).opacity);
    }
    return opacity;
  };
  const luminance = ([r, g, b]) => {
    const channel = (value) => {
      const s = value / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const problems = [];
  for (const element of [top, ...Array.from(top.querySelectorAll('*'))]) {
    const own = Array.from(element.childNodes)
      .filter((child) => child.nodeType === Node.TEXT_NODE)
      .map((child) => child.textContent || '')
      .join('')
      .trim();
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (
      own === '' ||
      box.width === 0 ||
      box.height === 0 ||
      style.visibility === 'hidden' ||
      element.closest('[disabled], [aria-hidden="true"]') !== null
    ) {
      continue;
    }
    const colour = parse(style.color);
    if (colour === undefined) {
      continue;
    }
    const back = backgroundOf(element);
    const front = over(colour, back, colour[3] * opacityOf(element));
    const [light, dark] = [luminance(front), luminance(back)].sort((a, b) => b - a);
    const ratio = (light + 0.05) / (dark + 0.05);
    if (ratio < threshold) {
      problems.push('ratio ' + ratio.toFixed(1) + ': ' + own.slice(0, 40));
    }
  }
  return problems;
}`;
