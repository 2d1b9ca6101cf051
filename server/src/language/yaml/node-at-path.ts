/**
 * Finds YAML nodes by instance path (["spec", "template", "spec", "containers", 0, "image"]) and the path at an
 * offset. Every finding is placed through these functions, on the node at its path or, when that node does not
 * exist (a missing required field), on the nearest parent — never by searching the text.
 */
import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Node, Pair } from 'yaml';

/** A path into a plain object: keys for maps, indexes for sequences. */
export type InstancePath = readonly (string | number)[];

/** An offset range [start, end). */
export type OffsetRange = readonly [number, number];

/** What was found for a path: the key and value ranges of the deepest node reached. */
interface PathLocation {
  /** Range of the key of the deepest pair reached (absent for the root or for sequence items). */
  readonly keyRange?: OffsetRange;
  /** Range of the value node reached. */
  readonly valueRange?: OffsetRange;
  /** How many segments of the path were resolved: path.length when the whole path exists. */
  readonly depth: number;
  /** Whether the node reached is a scalar (false when the deepest pair reached has no value). */
  readonly isScalar: boolean;
  /** The node reached (absent when the deepest pair reached has no value), to walk on from (locateBelow). */
  readonly node?: Node | undefined;
}

/** Range of a node without trailing comments and whitespace. */
export function nodeRange(node: Node | null | undefined): OffsetRange | undefined {
  const range = node?.range;
  if (!range) {
    return undefined;
  }
  return [range[0], Math.max(range[1], range[0])];
}

/** Walks a path down from a node, as far as it exists. */
export function locatePath(root: Node | null | undefined, path: InstancePath): PathLocation {
  return walkOn(root, undefined, 0, path);
}

/** Walks on from where a walk of `depth` segments ended: the same location as locatePath of the paths joined. */
function locateBelow(location: PathLocation, depth: number, path: InstancePath): PathLocation {
  return location.depth < depth || location.node === undefined
    ? location
    : walkOn(location.node, location.keyRange, depth, path);
}

/** locatePath's walk, from a node reached after `startDepth` segments (with the range of its key). */
function walkOn(
  start: Node | null | undefined,
  startKeyRange: OffsetRange | undefined,
  startDepth: number,
  path: InstancePath,
): PathLocation {
  let current: Node | null | undefined = start;
  let keyRange = startKeyRange;
  let depth = startDepth;
  for (const segment of path) {
    if (isMap(current)) {
      const pair = findPair(current.items, segment);
      if (pair === undefined) {
        break;
      }
      keyRange = nodeRange(pair.key as Node);
      current = pair.value as Node | null;
      depth++;
      if (current === null || current === undefined) {
        return { keyRange, depth, isScalar: false };
      }
    } else if (isSeq(current) && typeof segment === 'number') {
      const item = current.items[segment] as Node | undefined;
      if (item === undefined) {
        break;
      }
      keyRange = undefined;
      current = item;
      depth++;
    } else {
      break;
    }
  }
  return {
    keyRange,
    valueRange: nodeRange(current),
    depth,
    isScalar: isScalar(current),
    node: current ?? undefined,
  };
}

/**
 * The range to report a problem of a value at a path: the value itself when it exists, else the key of the
 * deepest existing parent (so a missing field is reported on the key of the object that lacks it).
 */
export function rangeForValue(root: Node | null | undefined, path: InstancePath): OffsetRange | undefined {
  const location = locatePath(root, path);
  if (location.depth === path.length) {
    return location.valueRange ?? location.keyRange;
  }
  return location.keyRange ?? location.valueRange;
}

/** The range to report a problem of a key at a path: the key itself, else as rangeForValue. */
export function rangeForKey(root: Node | null | undefined, path: InstancePath): OffsetRange | undefined {
  const location = locatePath(root, path);
  if (location.depth === path.length && location.keyRange !== undefined) {
    return location.keyRange;
  }
  return rangeForValue(root, path);
}

/**
 * The range to report a finding on a field: its value when that is a scalar (a request, an image), else as
 * rangeForKey. The same range as `isScalar(nodeAtPath(…)) ? rangeForValue(…) : rangeForKey(…)` in one walk down
 * the path instead of two or three: a file of hundreds of Pending workloads places a finding per cause.
 */
export function rangeForField(root: Node | null | undefined, path: InstancePath): OffsetRange | undefined {
  return fieldRange(locatePath(root, path), path.length);
}

/**
 * rangeForField for many paths under one prefix (the findings of a workload, under its template): the walk down
 * to the prefix is done once, on the first call, and each path walks on from there.
 */
export function fieldRangesUnder(
  root: Node | null | undefined,
  prefix: InstancePath,
): (path: InstancePath) => OffsetRange | undefined {
  let prefixAt: PathLocation | undefined;
  return (path) => {
    prefixAt ??= locatePath(root, prefix);
    return fieldRange(locateBelow(prefixAt, prefix.length, path), prefix.length + path.length);
  };
}

/** rangeForField's range from the location of a path of `length` segments. */
function fieldRange(location: PathLocation, length: number): OffsetRange | undefined {
  if (location.depth === length) {
    return location.isScalar || location.keyRange === undefined
      ? (location.valueRange ?? location.keyRange)
      : location.keyRange;
  }
  return location.keyRange ?? location.valueRange;
}

/** The node at a path, or undefined when the path does not exist in full. */
export function nodeAtPath(root: Node | null | undefined, path: InstancePath): Node | undefined {
  let current: Node | null | undefined = root;
  for (const segment of path) {
    if (isMap(current)) {
      const pair = findPair(current.items, segment);
      current = pair?.value as Node | null | undefined;
    } else if (isSeq(current) && typeof segment === 'number') {
      current = current.items[segment] as Node | undefined;
    } else {
      return undefined;
    }
    if (current === null || current === undefined) {
      return undefined;
    }
  }
  return current ?? undefined;
}

/** Where an offset falls: the path of the innermost node and whether it is on a key or a value. */
interface OffsetLocation {
  readonly path: (string | number)[];
  /** True when the offset is on a mapping key (the path then ends with that key). */
  readonly isKey: boolean;
  /** Range of the key or value under the offset. */
  readonly range?: OffsetRange;
}

/** The path of the innermost key or value containing an offset. */
export function pathAtOffset(root: Node | null | undefined, offset: number): OffsetLocation {
  const path: (string | number)[] = [];
  let current: Node | null | undefined = root;
  let range: OffsetRange | undefined = nodeRange(current);
  for (;;) {
    if (isMap(current)) {
      let next: Node | null | undefined;
      for (const pair of current.items) {
        const keyNode = pair.key as Node | null;
        const keyRange = nodeRange(keyNode);
        if (keyRange && offset >= keyRange[0] && offset <= keyRange[1]) {
          path.push(keyString(pair));
          return { path, isKey: true, range: keyRange };
        }
        const valueNode = pair.value as Node | null;
        const valueRange = nodeRange(valueNode);
        if (valueRange && offset >= valueRange[0] && offset <= valueRange[1]) {
          path.push(keyString(pair));
          next = valueNode;
          range = valueRange;
          break;
        }
      }
      if (!next) {
        return { path, isKey: false, range };
      }
      current = next;
    } else if (isSeq(current)) {
      const index = current.items.findIndex((item) => {
        const itemRange = nodeRange(item as Node);
        return itemRange !== undefined && offset >= itemRange[0] && offset <= itemRange[1];
      });
      if (index === -1) {
        return { path, isKey: false, range };
      }
      path.push(index);
      current = current.items[index] as Node;
      range = nodeRange(current);
    } else {
      return { path, isKey: false, range };
    }
  }
}

function keyString(pair: Pair): string {
  const key = pair.key;
  return isScalar(key) ? String(key.value) : String(key);
}

function findPair(items: readonly Pair[], segment: string | number): Pair | undefined {
  const wanted = String(segment);
  for (const item of items) {
    if (isPair(item) && isScalar(item.key) && String(item.key.value) === wanted) {
      return item;
    }
  }
  return undefined;
}
