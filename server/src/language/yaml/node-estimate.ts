/**
 * A cheap upper estimate of how many nodes the yaml package will build for a text, computed before parsing so
 * that a document too large to parse within the memory limits is refused instead of parsed.
 *
 * Block collections put an entry on each line, flow collections separate entries with commas, and every
 * mapping entry has a colon: counting line breaks, commas, colons and opening brackets gives about one count
 * per node for real manifests (a Deployment of 22 lines counts 44). Commas and colons inside scalars count too,
 * so prose-heavy block scalars overestimate; no text underestimates by more than a small factor.
 */

const LINE_FEED = 10;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACKET = 91;
const OPEN_BRACE = 123;

/** The estimated number of YAML nodes in a text. */
export function estimateNodeCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === LINE_FEED || ch === COMMA || ch === COLON || ch === OPEN_BRACKET || ch === OPEN_BRACE) {
      count++;
    }
  }
  return count;
}
