/**
 * IntOrString fields that hold a count or a percentage (maxSurge, maxUnavailable, minAvailable…), in one place:
 * how they are read and how a percentage is scaled to a total, as apimachinery's intstr package does for every
 * controller and for the scheduler's preemption. Each caller keeps its own rounding (a Deployment's maxSurge rounds
 * up and its maxUnavailable down; a disruption budget rounds up).
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/util/intstr/intstr.go (GetScaledValueFromIntOrPercent)
 *
 * Two reads, as upstream has two: `parseIntOrPercent` is the API server's validation of a field written in a
 * manifest (a non-negative integer, or "N%"), with a message for a finding; `asIntOrString` keeps a value as a
 * captured object holds it, and `scaledValueOf` scales it the way GetScaledValueFromIntOrPercent does
 * (strconv.Atoi on the digits before "%", so a sign is read), null where upstream returns an error.
 */

/** An IntOrString as written: an integer, or a string that should be "N%". */
export type IntOrString = number | string;

/** A parsed IntOrString field: an absolute number or a percentage of a total. */
export type IntOrPercent =
  { readonly kind: 'int'; readonly value: number } | { readonly kind: 'percent'; readonly value: number };

/** A parsed IntOrString, or why it cannot be used (the API server's validation would refuse it). */
export type IntOrPercentParse =
  { readonly ok: true; readonly value: IntOrPercent } | { readonly ok: false; readonly message: string };

/** Reads an IntOrString field as validation accepts it: a non-negative integer or a string "N%" with N an integer. */
export function parseIntOrPercent(raw: unknown): IntOrPercentParse {
  if (typeof raw === 'number') {
    if (!Number.isInteger(raw) || raw < 0) {
      return { ok: false, message: `must be a non-negative integer or a percentage, not ${String(raw)}` };
    }
    return { ok: true, value: { kind: 'int', value: raw } };
  }
  if (typeof raw === 'string') {
    const match = /^(\d+)%$/.exec(raw);
    if (match === null) {
      return { ok: false, message: `${JSON.stringify(raw)} is not an integer or a percentage ("25%")` };
    }
    return { ok: true, value: { kind: 'percent', value: Number(match[1]) } };
  }
  return { ok: false, message: 'must be an integer or a percentage ("25%")' };
}

/** An integer as IntOrPercent. */
export function intValue(value: number): IntOrPercent {
  return { kind: 'int', value };
}

/** A percentage as IntOrPercent. */
export function percentValue(value: number): IntOrPercent {
  return { kind: 'percent', value };
}

/**
 * GetScaledValueFromIntOrPercent: an integer as is; a percentage of `total`, rounded up or down. Integer arithmetic
 * gives the same result as upstream's float64 math for any count a cluster can have.
 */
export function scaledValue(value: IntOrPercent, total: number, roundUp: boolean): number {
  if (value.kind === 'int') {
    return value.value;
  }
  const product = value.value * total;
  return roundUp ? Math.ceil(product / 100) : Math.floor(product / 100);
}

/** An IntOrString field of a captured object: an integer, or a non-empty string; null when absent or neither. */
export function asIntOrString(value: unknown): IntOrString | null {
  if (typeof value === 'number' && Number.isInteger(value)) {
    return value;
  }
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * GetScaledValueFromIntOrPercent on a value as written: an integer as is, "N%" (N may carry a minus sign, as
 * strconv.Atoi reads it) scaled to `total`; null when the string is not a percentage (upstream's error).
 */
export function scaledValueOf(value: IntOrString, total: number, roundUp: boolean): number | null {
  if (typeof value === 'number') {
    return value;
  }
  const match = /^(-?\d+)%$/.exec(value);
  return match === null ? null : scaledValue(percentValue(Number(match[1])), total, roundUp);
}

/** Formats an IntOrPercent as written in a manifest ("25%", 2). */
export function formatIntOrPercent(value: IntOrPercent): string {
  return value.kind === 'percent' ? `${value.value}%` : String(value.value);
}
