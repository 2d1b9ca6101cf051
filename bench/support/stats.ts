/**
 * Summaries of repeated measurements: the median with the range, as every figure of the report is given, and a
 * least-squares power-law fit for how a cost grows with a size.
 */

/** The median and the extremes of repeated measurements. */
export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly runs: number;
}

/** Summarises the values of repeated runs (the median of an even count is the mean of the middle two). */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) {
    return { median: NaN, min: NaN, max: NaN, runs: 0 };
  }
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] ?? NaN)
      : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
  return { median, min: sorted[0] ?? NaN, max: sorted[sorted.length - 1] ?? NaN, runs: values.length };
}

/**
 * The exponent k of cost ≈ c·size^k, fitted by least squares on log-log axes; NaN with fewer than two distinct
 * sizes. k ≈ 1 is linear growth, k ≈ 0 is flat.
 */
export function fitExponent(points: readonly { size: number; cost: number }[]): number {
  const usable = points.filter((point) => point.size > 0 && point.cost > 0);
  const xs = usable.map((point) => Math.log(point.size));
  const ys = usable.map((point) => Math.log(point.cost));
  const n = xs.length;
  const meanX = xs.reduce((sum, x) => sum + x, 0) / n;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] ?? 0) - meanX;
    covariance += dx * ((ys[i] ?? 0) - meanY);
    variance += dx * dx;
  }
  return n < 2 || variance === 0 ? NaN : covariance / variance;
}

/** A number rounded to a given count of decimals (for the JSON report). */
export function round(value: number, decimals = 1): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
