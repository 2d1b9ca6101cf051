/**
 * The only way the page builds DOM. Text goes in through textContent and attribute values through
 * setAttribute, so strings from manifests (names, labels, messages) are always shown as text, never parsed as
 * HTML. Attributes that could run or load something (event handlers, URLs, inline styles) are refused: styles
 * are set through the CSSOM (element.style), which the Content-Security-Policy allows.
 */

/** Options of `h`. */
interface ElementOptions {
  readonly className?: string;
  readonly text?: string;
  readonly attrs?: Readonly<Record<string, string>>;
  readonly dataset?: Readonly<Record<string, string>>;
}

const REFUSED_ATTRIBUTES = /^(on|href$|src$|srcdoc$|style$|action$|formaction$|xlink:href$)/i;

/** Creates an element with a class, text, attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: readonly Node[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className !== undefined) {
    element.className = options.className;
  }
  if (options.text !== undefined) {
    element.textContent = options.text;
  }
  for (const [name, value] of Object.entries(options.attrs ?? {})) {
    setAttribute(element, name, value);
  }
  for (const [name, value] of Object.entries(options.dataset ?? {})) {
    element.dataset[name] = value;
  }
  element.append(...children);
  return element;
}

/** Sets an attribute that cannot run or load anything; throws (a bug) for any other. */
export function setAttribute(element: Element, name: string, value: string): void {
  if (REFUSED_ATTRIBUTES.test(name)) {
    throw new Error(`refusing to set the attribute ${name}: it could run or load content`);
  }
  element.setAttribute(name, value);
}

/** Replaces an element's text, if it changed (cheap to call every frame). */
export function setText(element: Element, text: string): void {
  if (element.textContent !== text) {
    element.textContent = text;
  }
}

/** Replaces an element's children. */
export function replaceChildren(element: Element, ...children: readonly Node[]): void {
  element.replaceChildren(...children);
}

/** Toggles a class, touching the DOM only when it changes. */
export function toggleClass(element: Element, className: string, isOn: boolean): void {
  if (element.classList.contains(className) !== isOn) {
    element.classList.toggle(className, isOn);
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Icon shapes (16×16 viewBox paths, after the codicon shapes of the same name). */
const ICONS = {
  play: 'M4 2.5v11l9.5-5.5z',
  pause: 'M4 2h3v12H4zM9 2h3v12H9z',
  stepBack: 'M3 2h2v12H3zM14 2.5v11L6 8z',
  stepForward: 'M11 2h2v12h-2zM2 2.5v11L10 8z',
  reveal: 'M9 2h5v5h-1.5V4.6L7.3 9.8 6.2 8.7l5.2-5.2H9zM2 4h5v1.5H3.5v7h7V10H12v4H2z',
  refresh: 'M13.5 3v4h-4l1.6-1.6A4.5 4.5 0 1 0 12.4 10l1.4.5A6 6 0 1 1 12.2 4.3z',
} as const;

/** An inline SVG icon, hidden from assistive technology (its button carries the label). */
export function icon(name: keyof typeof ICONS): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', 'icon');
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

/** Creates an SVG element (for charts) with numeric or constant attributes. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string | number>> = {},
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    setAttribute(element, name, String(value));
  }
  return element;
}

/** A button with an icon and an accessible label. */
export function iconButton(
  name: keyof typeof ICONS,
  label: string,
  className = 'icon-button',
): HTMLButtonElement {
  const button = h('button', { className, attrs: { type: 'button', 'aria-label': label, title: label } });
  button.append(icon(name));
  return button;
}
