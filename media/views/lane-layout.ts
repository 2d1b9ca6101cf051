/**
 * The node lanes' two layouts and the fitting of chip labels (views/lanes.ts uses them): wide, the node's facts in
 * a column beside three rows of chips; narrow (below NARROW_BELOW px: a panel in half a window), the facts across
 * the lane and two rows of chips under them. Lane heights are fixed per layout, so that the virtualised lanes'
 * positions are computed, never measured; chips share a row evenly, at least MIN_CHIP_WIDTH wide.
 */
import { chipLabel } from '../format';

/** The lanes' width below which the narrow layout is used. */
const NARROW_BELOW = 640;
/** A lane's layout: its height in CSS pixels, how many rows of chips, and the width its chips share. */
export interface LaneLayout {
  readonly isNarrow: boolean;
  readonly height: number;
  readonly chipRows: number;
  /** Width of one chip, and how many fit a row. */
  readonly chipWidth: number;
  readonly perRow: number;
}
const WIDE_LANE_HEIGHT = 92;
const NARROW_LANE_HEIGHT = 124;
/** The wide layout's column of node facts, and the lane's padding and gap (cluster.css). */
const META_WIDTH = 272;
const LANE_PADDING = 12;
const LANE_GAP = 8;
const MIN_CHIP_WIDTH = 180;
const MAX_CHIP_WIDTH = 280;
const CHIP_GAP = 4;
/** A chip's padding, borders and phase stripe, in CSS pixels (chips.css). */
export const CHIP_CHROME = 17;
/** The shortest label a chip is given, however narrow. */
const MIN_LABEL_CHARS = 8;

/** The layout for lanes this wide (CSS pixels). */
export function layoutFor(width: number): LaneLayout {
  const isNarrow = width < NARROW_BELOW;
  const chipsWidth = Math.max(
    MIN_CHIP_WIDTH,
    width - 2 * LANE_PADDING - (isNarrow ? 0 : META_WIDTH + LANE_GAP),
  );
  const perRow = Math.max(1, Math.floor((chipsWidth + CHIP_GAP) / (MIN_CHIP_WIDTH + CHIP_GAP)));
  const chipWidth = Math.min(MAX_CHIP_WIDTH, Math.floor((chipsWidth + CHIP_GAP) / perRow - CHIP_GAP));
  return {
    isNarrow,
    height: isNarrow ? NARROW_LANE_HEIGHT : WIDE_LANE_HEIGHT,
    chipRows: isNarrow ? 2 : 3,
    chipWidth,
    perRow,
  };
}

/**
 * Shortens pod names (in the middle, keeping the replica's suffix: format.ts chipLabel) to what `width` pixels of
 * the chips' font (0.88em of the lanes' font) show, measured on a canvas, so that a label is cut by no ellipsis of
 * CSS whatever font the theme sets. Each name is measured once per width.
 */
export function labelFitter(element: HTMLElement, width: number): (name: string) => string {
  const context = document.createElement('canvas').getContext('2d');
  if (context === null) {
    return chipLabel;
  }
  const style = getComputedStyle(element);
  context.font = `${Number.parseFloat(style.fontSize) * 0.88}px ${style.fontFamily}`;
  // Canvas and layout round glyph widths differently: keep a few percent in hand.
  const room = width * 0.96;
  const cache = new Map<string, string>();
  return (name) => {
    const cached = cache.get(name);
    if (cached !== undefined) {
      return cached;
    }
    const average = Math.max(1, context.measureText(name).width / Math.max(1, name.length));
    let max = Math.min(name.length, Math.ceil(room / average) + 2);
    let label = chipLabel(name, max);
    while (max > MIN_LABEL_CHARS && context.measureText(label).width > room) {
      max -= 1;
      label = chipLabel(name, max);
    }
    cache.set(name, label);
    return label;
  };
}
