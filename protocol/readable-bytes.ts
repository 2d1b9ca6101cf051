/**
 * A memory figure as a person reads it, for the plan in every form (`foresight plan` text and markdown, the
 * Preview Apply page): node allocatable memory is reported in Ki ("26438848Ki"), which nobody compares with
 * "896Mi" at a glance.
 */

/** A byte count with a binary suffix, to a tenth of the largest unit ("26438848Ki" → "25.2Gi", "896Mi" as is). */
export function readableBytes(text: string): string {
  const match = /^(\d+)(Ki|Mi|Gi|Ti)?$/.exec(text);
  if (match === null) {
    return text;
  }
  const scale: Record<string, number> = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
  const bytes = Number(match[1]) * (match[2] === undefined ? 1 : (scale[match[2]] ?? 1));
  for (const [unit, size] of [
    ['Ti', 1024 ** 4],
    ['Gi', 1024 ** 3],
    ['Mi', 1024 ** 2],
  ] as const) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(1)}${unit}`;
    }
  }
  return text;
}
