/**
 * Repeated collections of a kubectl capture read once (kubectl-yaml.ts). A capture lists the pods of a ReplicaSet
 * one after another, and most of each pod's text is its neighbour's: the same labels, owner references,
 * containers, status. Each such collection read again was 5 to 10 more objects per pod that live as long as the
 * capture (150,000 pods: about a million objects for the collector to copy and mark). A collection whose text is
 * the text of the last collection that began with the same line is that same object, unread.
 *
 * Sharing is safe because nothing changes what a capture reader returns (the engine copies before it changes, as
 * js-yaml's aliases already require: `*ref` is the object of `&ref`), and the engine's caches by object
 * (null-items.ts, qos.ts, pod-startup.ts…) answer from the object's content only. The exceptions are a spec
 * (`spec`) and a pod template (`template`): admission (admit-pod.ts) and the pod factory remember what they made by
 * the spec object, with the pod's namespace and owner around it; and the objects themselves, which keep an
 * identity each: a document's root and the entries of a List's `items`. Those are never shared (what they hold
 * may be).
 */

/**
 * The keys whose values are never shared: specs and templates (see above), and a List's items (nor are the
 * entries of a sequence there).
 */
const NEVER_SHARED_KEYS: ReadonlySet<string> = new Set(['spec', 'template', 'items']);

/** Whether the value of `key` (a sequence's entries too) may be a collection shared with another place of the text. */
export function mayShareValueOf(key: string): boolean {
  return !NEVER_SHARED_KEYS.has(key);
}

/** How many first lines are kept: a direct-mapped table, since a capture repeats what it just wrote. */
const SLOTS = 4096;

/**
 * The last collection read per first line (by a hash of that line and the collection's indentation, in a table
 * of SLOTS): where its text lies (first line's start to the line after it) and what it read to. Finding is exact:
 * the whole text must match, and the line after it must close the collection as the first one's did.
 */
export class SubtreeMemo {
  private readonly starts = new Int32Array(SLOTS);
  private readonly ends = new Int32Array(SLOTS);
  private readonly values: unknown[] = new Array<unknown>(SLOTS).fill(undefined);

  /** The offset of the line after the collection find last returned. */
  foundEnd = 0;

  constructor(private readonly text: string) {}

  /**
   * The slot of the collection at `indent` whose first line is `[lineStart, lineEnd)`: a hash of its indentation,
   * its length and its last 12 characters (where neighbours differ: a name's number, a label's value). Hashing the
   * whole line cost a tenth of the reading; two lines alike there only miss each other, as find compares the text.
   */
  slotOf(lineStart: number, lineEnd: number, indent: number): number {
    const text = this.text;
    let hash = Math.imul(indent ^ ((lineEnd - lineStart) << 8), 0x01000193);
    for (let at = Math.max(lineStart + indent, lineEnd - 12); at < lineEnd; at++) {
      hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
    }
    return (hash ^ (hash >>> 16)) & (SLOTS - 1);
  }

  /**
   * The value of the collection at `indent` starting on the line at `lineStart` if it is one read before (and
   * foundEnd the offset of the line after it); else undefined.
   */
  find(slot: number, lineStart: number, indent: number): unknown {
    const value = this.values[slot];
    if (value === undefined) {
      return undefined;
    }
    const text = this.text;
    const knownStart = this.starts[slot] ?? 0;
    const length = (this.ends[slot] ?? 0) - knownStart;
    const end = lineStart + length;
    if (end > text.length || !closes(text, end, indent)) {
      return undefined;
    }
    // Two slices compared as strings: V8 compares their characters a word at a time, where a loop over
    // charCodeAt took fifteen times as long (a tenth of the reading).
    if (text.substring(lineStart, end) !== text.substring(knownStart, knownStart + length)) {
      return undefined;
    }
    this.foundEnd = end;
    return value;
  }

  /**
   * Keeps the collection at `indent` read from `lineStart` to `end` (the line the reader stopped at) when that
   * line closes it for the reason any later copy's will: the end of the text, or a line less deep than `indent`.
   * A sequence that stopped at a line as deep as itself (a mapping's next key) is not kept.
   */
  remember(slot: number, lineStart: number, end: number, indent: number, value: unknown): void {
    const text = this.text;
    if (end > text.length || text.charCodeAt(end - 1) !== 0x0a || !closes(text, end, indent)) {
      return;
    }
    this.starts[slot] = lineStart;
    this.ends[slot] = end;
    this.values[slot] = value;
  }
}

/**
 * Whether the line at `line` closes every collection at `indent` or deeper without a look further on: the end of
 * the text, or a line with content (neither blank nor a comment) less deep than `indent`. Then the reader's every
 * decision inside the collection's text (where a node ends, whether a scalar goes on) is the same wherever that
 * text stands.
 */
function closes(text: string, line: number, indent: number): boolean {
  if (line === text.length) {
    return true;
  }
  let content = line;
  while (text.charCodeAt(content) === 0x20) {
    content++;
  }
  const code = text.charCodeAt(content);
  return content - line < indent && code !== 0x0a && code !== 0x23 && content < text.length;
}
