/**
 * The prediction worker's answers, sent as what changed since its last one. Keystroke after keystroke, most of a
 * scope's simulation is the data it was: an edit of one Deployment changes that workload's prediction, pod samples,
 * rollout and findings, and the other workloads' are the same (the engine is deterministic). So the worker compares
 * each item of the answer's arrays with the item at the same place in its last answer (same-plain-data.ts) and
 * sends only those that differ; the server's thread takes the others from the last answer it decoded. Comparing
 * costs the worker about what serialising them did; the server's thread, which places the findings and publishes
 * right after, no longer deserialises them (the bench's 1,000 resources answer about 800 KB: 3 to 5 ms).
 *
 * What is decoded is the same plain data as the full answer, item for item (an item is kept only when it is the
 * same data, Maps, undefined and -0 included). Only identity differs: a kept item is an object of an earlier
 * answer; nothing reads an answer's objects by identity, and nothing mutates them. An array the answer holds in two
 * places (the report's findings are the simulation's) is sent once and decoded as one array again.
 */
import { isSamePlainData } from './same-plain-data';

/** An array of the answer sent as differences: per item, the index of the equal item of the last answer, or -1. */
interface ArrayPatch {
  /** Where the array is, as keys from the answer's root (plain objects only). */
  readonly path: readonly string[];
  readonly kept: readonly number[];
}

/** An answer as sent: the value with each patched array holding only its items sent, and the patches. */
export interface EncodedAnswer {
  /** The number of the answer this one is relative to; 0 when it is relative to none (everything is sent). */
  readonly base: number;
  readonly value: unknown;
  readonly patches: readonly ArrayPatch[];
}

/** The worker's side: remembers its last answer and encodes the next against it. */
export class AnswerEncoder {
  private last: { readonly id: number; readonly value: unknown } | undefined;

  /** The message for the answer of request `id`, which becomes the last answer. */
  encode(id: number, value: unknown): EncodedAnswer {
    const patches: ArrayPatch[] = [];
    const encoded =
      this.last === undefined ? value : encodeValue(value, this.last.value, [], patches, new Map());
    const message = { base: this.last?.id ?? 0, value: encoded, patches };
    this.last = { id, value };
    return message;
  }
}

/** The server's side: rebuilds each answer from the last one it decoded. */
export class AnswerDecoder {
  private last: { readonly id: number; readonly value: unknown } | undefined;

  /** The answer of request `id`; throws when the message is relative to an answer not held (a protocol error). */
  decode(id: number, message: EncodedAnswer): unknown {
    const heldId = this.last?.id ?? 0;
    if (message.base !== heldId) {
      throw new Error(`prediction worker: an answer relative to answer ${message.base}, ${heldId} held`);
    }
    const patches = new Map(message.patches.map((patch) => [patch.path.join('\0'), patch.kept]));
    const value =
      this.last === undefined
        ? message.value
        : decodeValue(message.value, this.last.value, [], patches, new Map());
    this.last = { id, value };
    return value;
  }
}

/**
 * The value with each array that has a counterpart at the same path of `last` holding only the items that differ
 * from it (a patch records which are kept); plain objects on the way are copied, the rest is the value's own.
 */
function encodeValue(
  value: unknown,
  last: unknown,
  path: readonly string[],
  patches: ArrayPatch[],
  sent: Map<readonly unknown[], readonly unknown[]>,
): unknown {
  if (Array.isArray(value)) {
    const items = value as readonly unknown[];
    const again = sent.get(items);
    if (again !== undefined) {
      return again; // the same array met again: the same items sent, its patch already recorded
    }
    if (!Array.isArray(last)) {
      sent.set(items, items);
      return items;
    }
    const kept = keptItems(items, last as readonly unknown[]);
    const differing = kept.some((index) => index >= 0) ? items.filter((_, at) => kept[at] === -1) : items;
    if (differing !== items) {
      patches.push({ path, kept });
    }
    sent.set(items, differing);
    return differing;
  }
  if (!isPlainRecord(value) || !isPlainRecord(last)) {
    return value;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    copy[key] = encodeValue(value[key], last[key], [...path, key], patches, sent);
  }
  return copy;
}

/** The inverse of encodeValue: each patched array rebuilt from the items sent and those of `last`. */
function decodeValue(
  value: unknown,
  last: unknown,
  path: readonly string[],
  patches: ReadonlyMap<string, readonly number[]>,
  rebuilt: Map<readonly unknown[], readonly unknown[]>,
): unknown {
  if (Array.isArray(value)) {
    const items = value as readonly unknown[];
    const again = rebuilt.get(items);
    if (again !== undefined) {
      return again;
    }
    const kept = patches.get(path.join('\0'));
    const whole = kept === undefined || !Array.isArray(last) ? items : withKept(items, last, kept);
    rebuilt.set(items, whole);
    return whole;
  }
  if (!isPlainRecord(value)) {
    return value;
  }
  const lastRecord = isPlainRecord(last) ? last : {};
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    copy[key] = decodeValue(value[key], lastRecord[key], [...path, key], patches, rebuilt);
  }
  return copy;
}

/**
 * Per item, the index of the equal item of `last`: the one at the same place, or, when items were added or
 * removed, the one as far from the end (an edit in the middle shifts those after it); -1 when neither is.
 */
function keptItems(items: readonly unknown[], last: readonly unknown[]): number[] {
  const shift = last.length - items.length;
  return items.map((item, at) => {
    if (at < last.length && isSamePlainData(item, last[at])) {
      return at;
    }
    const shifted = at + shift;
    return shift !== 0 && shifted >= 0 && shifted < last.length && isSamePlainData(item, last[shifted])
      ? shifted
      : -1;
  });
}

/** The array whose kept items come from `last` and the others, in order, from `sent`. */
function withKept(sent: readonly unknown[], last: readonly unknown[], kept: readonly number[]): unknown[] {
  let next = 0;
  return kept.map((index) => (index >= 0 ? last[index] : sent[next++]));
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
