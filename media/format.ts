/**
 * Display formatting for the panel: times, cpu and memory amounts for people (not Kubernetes quantities, which
 * the engine formats exactly in the report), and short chip labels.
 */

/** Simulated seconds as "m:ss.s" ("0:07.5", "12:30.0"). */
export function formatTime(seconds: number): string {
  const safe = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  const minutes = Math.floor(safe / 60);
  const rest = safe - minutes * 60;
  const text = rest.toFixed(1);
  return `${minutes}:${rest < 10 ? '0' : ''}${text}`;
}

/** Simulated seconds as a clock without tenths, for axis labels: "0:00", "5:07", "1:02:30". */
export function formatClock(seconds: number): string {
  const safe = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(safe / 3600);
  const minutes = Math.floor((safe % 3600) / 60);
  const rest = String(safe % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/**
 * A duration in at most four characters, for a break of the axis (its tooltip has the exact one): "46s", "4.4m",
 * "12m", "2.5h", "30h".
 */
export function formatShortDuration(seconds: number): string {
  const safe = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  if (safe < 99.5) {
    return `${Math.round(safe)}s`;
  }
  const minutes = safe / 60;
  if (minutes < 99.5) {
    return minutes < 9.95 ? `${trimZeros(minutes.toFixed(1))}m` : `${Math.round(minutes)}m`;
  }
  const hours = minutes / 60;
  return hours < 9.95 ? `${trimZeros(hours.toFixed(1))}h` : `${Math.round(hours)}h`;
}

/** A duration in words for the summary ("45 s", "3 min 20 s"). */
export function formatDuration(seconds: number): string {
  const safe = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0;
  if (safe < 60) {
    return `${safe} s`;
  }
  const minutes = Math.floor(safe / 60);
  const rest = safe % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** Millicores for people: "750m", "1.5", "4". */
export function formatCpu(milli: number): string {
  if (milli < 1000) {
    return `${Math.round(milli)}m`;
  }
  return trimZeros((milli / 1000).toFixed(2));
}

const BINARY_UNITS = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi'] as const;

/** Bytes for people, in binary units with at most one decimal: "512Mi", "2.2Gi". */
export function formatMemory(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = value >= 100 || Number.isInteger(value) ? 0 : 1;
  return `${trimZeros(value.toFixed(digits))}${BINARY_UNITS[unit] ?? ''}`;
}

/** A share as a whole percentage, or "–" when the whole is unknown. */
export function formatPercent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : '–';
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** A chip label's length when the chip's width is not known. */
const DEFAULT_LABEL = 20;

/**
 * A chip's label: the pod name, shortened in the middle when longer than `max` characters, keeping the generated
 * suffix that tells replicas apart ("storefront-659c8dc46c-z4tv7" → "storefront-65…-z4tv7" at 20).
 */
export function chipLabel(name: string, max = DEFAULT_LABEL): string {
  if (name.length <= max) {
    return name;
  }
  const dash = name.lastIndexOf('-');
  const suffix = dash > 0 && name.length - dash <= 8 ? name.slice(dash) : name.slice(-6);
  return `${name.slice(0, Math.max(1, max - suffix.length - 1))}…${suffix}`;
}

/**
 * Text for display with Unicode direction controls made visible: a manifest string with an RTL override must not
 * reorder the text around it. Each control character becomes its escaped code point.
 */
export function visibleText(text: string): string {
  return text.replace(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g, (char) => {
    const code = char.codePointAt(0) ?? 0;
    return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}
