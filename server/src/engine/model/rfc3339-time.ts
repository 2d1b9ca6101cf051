/**
 * RFC 3339 times as the API server writes them (metav1.Time: "2026-01-01T00:00:00Z"), read into epoch seconds: a
 * capture's capturedAt, a taint's timeAdded, a Scenario's applyTime, a CronJob's lastScheduleTime. A value, not a
 * clock: nothing here reads the current time.
 */

/** An RFC 3339 time ("2026-01-01T00:00:00Z", "2026-01-01T09:30:00+02:00") in epoch seconds, or null. */
export function parseRfc3339(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(text)) {
    return null;
  }
  const millis = Date.parse(text);
  return Number.isFinite(millis) ? millis / 1000 : null;
}
