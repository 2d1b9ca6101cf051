/**
 * A cheap upper bound on how deeply a YAML text nests, measured before parsing. The yaml package composes
 * documents recursively; past a few hundred levels it reports one "Maximum call stack size exceeded" error per
 * level. Measuring first lets the analysis refuse such input with one clear diagnostic instead.
 */

import { MAX_NESTING_DEPTH } from '../limits';

export { MAX_NESTING_DEPTH } from '../limits';

/** Where the text first nests deeper than the limit, or undefined when it never does. */
export function findExcessiveNesting(text: string, limit: number = MAX_NESTING_DEPTH): number | undefined {
  let flowDepth = 0;
  let lineStart = 0;
  const indentLevels: number[] = [];
  let atLineStart = true;
  let inQuote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (atLineStart) {
      let j = i;
      while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 45 /* - */) {
        j++;
      }
      const indent = j - lineStart;
      if (j < text.length && text.charCodeAt(j) !== 10 && text.charCodeAt(j) !== 35 /* # */) {
        // The levels only ever grow from bottom to top, so dropping those at or past this indent is popping.
        while (indentLevels.length > 0 && (indentLevels[indentLevels.length - 1] ?? 0) >= indent) {
          indentLevels.pop();
        }
        indentLevels.push(indent);
        if (indentLevels.length + flowDepth > limit) {
          return i;
        }
      }
      atLineStart = false;
    }
    if (ch === 10) {
      atLineStart = true;
      lineStart = i + 1;
      continue;
    }
    if (inQuote !== undefined) {
      if (text[i] === inQuote) {
        inQuote = undefined;
      }
      continue;
    }
    if (ch === 34 || ch === 39) {
      const previous = text.charCodeAt(i - 1);
      if (
        i === lineStart ||
        previous === 32 ||
        previous === 91 ||
        previous === 123 ||
        previous === 44 ||
        previous === 58
      ) {
        inQuote = text[i];
      }
    } else if (ch === 91 || ch === 123) {
      flowDepth++;
      if (flowDepth + indentLevels.length > limit) {
        return i;
      }
    } else if ((ch === 93 || ch === 125) && flowDepth > 0) {
      flowDepth--;
    }
  }
  return undefined;
}
