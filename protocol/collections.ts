/**
 * Reductions and appends over collections of any size. Spreading a collection into a call (`Math.max(...pods)`,
 * `list.push(...items)`) passes every element as an argument on the stack, and V8 throws "RangeError: Maximum call
 * stack size exceeded" somewhere past ~100,000 of them: a capture of the largest cluster Kubernetes supports
 * (150,000 pods) crossed it. eslint.config.mjs refuses those spreads everywhere; these helpers replace them.
 */

/** The largest of `values`, or `floor` when it is larger or there are none (Math.max(floor, ...values)). */
export function maxOf(values: Iterable<number>, floor = Number.NEGATIVE_INFINITY): number {
  let most = floor;
  for (const value of values) {
    // Math.max, not `>`: a NaN among the values makes the result NaN, as Math.max(...values) does.
    most = Math.max(most, value);
  }
  return most;
}

/** The smallest of `values`, or `ceiling` when it is smaller or there are none (Math.min(ceiling, ...values)). */
export function minOf(values: Iterable<number>, ceiling = Number.POSITIVE_INFINITY): number {
  let least = ceiling;
  for (const value of values) {
    least = Math.min(least, value);
  }
  return least;
}

/** Appends every item of `items` to `target` in order (target.push(...items) for any count); returns target. */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) {
    target.push(item);
  }
  return target;
}

/**
 * Copies the own properties of each of `sources` onto `target` in order, later ones winning
 * (Object.assign(target, ...sources) for any count); returns target.
 */
export function assignAll<T extends object>(target: T, sources: Iterable<Partial<T>>): T {
  for (const source of sources) {
    Object.assign(target, source);
  }
  return target;
}
