/**
 * CronJob schedules, as the CronJob controller reads them with robfig/cron v3's ParseStandard: five fields
 * (minute, hour, day of month, month, day of week), each a list of `*` or `?`, values, ranges `a-b` and steps
 * `/n` (`a/n` runs from a to the field's maximum), month and weekday names (jan…dec, sun…sat, any case), and the
 * descriptors @yearly (@annually), @monthly, @weekly, @daily (@midnight), @hourly and `@every <duration>`. When
 * both day fields are restricted a day matches either; when one is `*` both must match. Next(t) is the first
 * matching minute after t, searched up to five years ahead (then none, as robfig returns the zero time).
 * https://github.com/robfig/cron/blob/v3/parser.go
 * https://github.com/robfig/cron/blob/v3/spec.go
 * Time zones: spec.timeZone "UTC" (and its aliases) and the fixed offsets "Etc/GMT+N" / "Etc/GMT-N" are computed;
 * other IANA zones (daylight saving rules) are not: parseCronSchedule says so. "TZ=" inside the schedule is refused,
 * as the API server's validation refuses it.
 */

/** A parsed schedule, in its zone's wall-clock time (a fixed offset from UTC). */
export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly daysOfWeek: ReadonlySet<number>;
  /** Whether the day fields were `*` or `?` (robfig's star bit). */
  readonly isDayOfMonthStar: boolean;
  readonly isDayOfWeekStar: boolean;
  /** `@every`: a constant delay in whole seconds (then the fields are unused). */
  readonly everySeconds: number | null;
  /** The zone's offset from UTC in seconds (east positive). */
  readonly offsetSeconds: number;
}

/** A schedule, or why it does not parse. */
export type CronParse = { readonly schedule: CronSchedule } | { readonly error: string };

interface FieldBounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: readonly FieldBounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(MONTH_NAMES.map((name, index) => [name, index + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(DAY_NAMES.map((name, index) => [name, index])) },
];

const DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Names of UTC in the tz database. */
const UTC_ZONES = new Set([
  'UTC',
  'Etc/UTC',
  'Etc/UCT',
  'UCT',
  'Etc/GMT',
  'GMT',
  'Etc/Zulu',
  'Zulu',
  'Etc/Universal',
]);

/** The offset of a zone the simulation computes, or null ("Etc/GMT+5" is five hours west of UTC). */
export function fixedZoneOffset(timeZone: string | null): number | null {
  if (timeZone === null || UTC_ZONES.has(timeZone)) {
    return 0;
  }
  const match = /^Etc\/GMT([+-])(\d{1,2})$/.exec(timeZone);
  const hours = Number(match?.[2]);
  if (match === null || hours > 14) {
    return null;
  }
  return (match[1] === '+' ? -hours : hours) * 3600;
}

/** ParseStandard, in `timeZone`. */
export function parseCronSchedule(text: string, timeZone: string | null = null): CronParse {
  const offsetSeconds = fixedZoneOffset(timeZone);
  if (offsetSeconds === null) {
    return {
      error: `timeZone "${timeZone ?? ''}" is not simulated (only UTC and the fixed offsets Etc/GMT+N, Etc/GMT-N are)`,
    };
  }
  const trimmed = text.trim();
  if (/^(CRON_)?TZ=/.test(trimmed)) {
    return { error: 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead' };
  }
  if (trimmed.startsWith('@every ')) {
    const seconds = parseGoDuration(trimmed.slice('@every '.length).trim());
    if (seconds === null) {
      return { error: `failed to parse duration ${trimmed}` };
    }
    return { schedule: { ...everyField(), everySeconds: Math.max(1, Math.floor(seconds)), offsetSeconds } };
  }
  const expanded = trimmed.startsWith('@') ? DESCRIPTORS[trimmed] : trimmed;
  if (expanded === undefined) {
    return { error: `unrecognized descriptor: ${trimmed}` };
  }
  const parts = expanded.split(/\s+/).filter((part) => part !== '');
  if (parts.length !== 5) {
    return { error: `expected exactly 5 fields, found ${parts.length}: [${parts.join(' ')}]` };
  }
  const fields: { values: Set<number>; isStar: boolean }[] = [];
  for (const [index, part] of parts.entries()) {
    const field = parseField(part, FIELDS[index] ?? { min: 0, max: 0 });
    if ('error' in field) {
      return field;
    }
    fields.push(field);
  }
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = fields;
  if (
    minutes === undefined ||
    hours === undefined ||
    daysOfMonth === undefined ||
    months === undefined ||
    daysOfWeek === undefined
  ) {
    return { error: 'expected exactly 5 fields' };
  }
  return {
    schedule: {
      minutes: minutes.values,
      hours: hours.values,
      daysOfMonth: daysOfMonth.values,
      months: months.values,
      daysOfWeek: daysOfWeek.values,
      isDayOfMonthStar: daysOfMonth.isStar,
      isDayOfWeekStar: daysOfWeek.isStar,
      everySeconds: null,
      offsetSeconds,
    },
  };
}

function everyField(): Omit<CronSchedule, 'everySeconds' | 'offsetSeconds'> {
  const none = new Set<number>();
  return {
    minutes: none,
    hours: none,
    daysOfMonth: none,
    months: none,
    daysOfWeek: none,
    isDayOfMonthStar: true,
    isDayOfWeekStar: true,
  };
}

/** One field: a comma-separated list of ranges (getField, getRange). */
function parseField(
  text: string,
  bounds: FieldBounds,
): { values: Set<number>; isStar: boolean } | { error: string } {
  const values = new Set<number>();
  let isStar = false;
  for (const expr of text.split(',')) {
    const rangeAndStep = expr.split('/');
    const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
    let start: number;
    let end: number;
    let star = false;
    if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
      start = bounds.min;
      end = bounds.max;
      star = true;
    } else {
      const low = parseIntOrName(lowAndHigh[0] ?? '', bounds);
      if (typeof low === 'string') {
        return { error: low };
      }
      start = low;
      if (lowAndHigh.length === 1) {
        end = start;
      } else if (lowAndHigh.length === 2) {
        const high = parseIntOrName(lowAndHigh[1] ?? '', bounds);
        if (typeof high === 'string') {
          return { error: high };
        }
        end = high;
      } else {
        return { error: `too many hyphens: ${expr}` };
      }
    }
    let step = 1;
    if (rangeAndStep.length === 2) {
      const parsed = parseNonNegative(rangeAndStep[1] ?? '');
      if (typeof parsed === 'string') {
        return { error: parsed };
      }
      step = parsed;
      if (lowAndHigh.length === 1) {
        end = bounds.max;
      }
      if (step > 1) {
        star = false;
      }
    } else if (rangeAndStep.length > 2) {
      return { error: `too many slashes: ${expr}` };
    }
    if (start < bounds.min) {
      return { error: `beginning of range (${start}) below minimum (${bounds.min}): ${expr}` };
    }
    if (end > bounds.max) {
      return { error: `end of range (${end}) above maximum (${bounds.max}): ${expr}` };
    }
    if (start > end) {
      return { error: `beginning of range (${start}) beyond end of range (${end}): ${expr}` };
    }
    if (step === 0) {
      return { error: `step of range should be a positive number: ${expr}` };
    }
    for (let value = start; value <= end; value += step) {
      values.add(value);
    }
    isStar ||= star;
  }
  return { values, isStar };
}

function parseIntOrName(text: string, bounds: FieldBounds): number | string {
  const named = bounds.names?.[text.toLowerCase()];
  return named ?? parseNonNegative(text);
}

function parseNonNegative(text: string): number | string {
  if (!/^[+-]?\d+$/.test(text)) {
    return `failed to parse int from ${text}`;
  }
  const value = Number(text);
  return value < 0 ? `negative number (${value}) not allowed: ${text}` : value;
}

/** A Go duration ("1h30m", "90s", "1.5h") in seconds, or null. */
function parseGoDuration(text: string): number | null {
  const units: Readonly<Record<string, number>> = {
    h: 3600,
    m: 60,
    s: 1,
    ms: 1e-3,
    us: 1e-6,
    µs: 1e-6,
    ns: 1e-9,
  };
  const pattern = /(\d+(?:\.\d*)?|\.\d+)(h|ms|m|s|us|µs|ns)/gy;
  let total = 0;
  let consumed = 0;
  for (const match of text.matchAll(pattern)) {
    total += Number(match[1]) * (units[match[2] ?? ''] ?? 0);
    consumed += match[0].length;
  }
  return text === '0' ? 0 : consumed === text.length && consumed > 0 ? total : null;
}

/** How many years ahead Next searches before giving up (robfig's yearLimit). */
const YEAR_LIMIT = 5;

/** Next(t): the first time after `epochSeconds` the schedule fires, in epoch seconds, or null when none. */
export function nextCronTime(schedule: CronSchedule, epochSeconds: number): number | null {
  if (schedule.everySeconds !== null) {
    return Math.floor(epochSeconds) + schedule.everySeconds;
  }
  // Wall-clock fields of the zone, computed on a UTC date shifted by the offset.
  const firstMinute = Math.ceil((Math.floor(epochSeconds) + 1) / 60) * 60;
  let date = new Date((firstMinute + schedule.offsetSeconds) * 1000);
  const yearLimit = date.getUTCFullYear() + YEAR_LIMIT;
  for (;;) {
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth();
    const day = date.getUTCDate();
    const hour = date.getUTCHours();
    if (year > yearLimit) {
      return null;
    }
    if (!schedule.months.has(month + 1)) {
      date = new Date(Date.UTC(year, month + 1, 1));
    } else if (!dayMatches(schedule, date)) {
      date = new Date(Date.UTC(year, month, day + 1));
    } else if (!schedule.hours.has(hour)) {
      date = new Date(Date.UTC(year, month, day, hour + 1));
    } else if (!schedule.minutes.has(date.getUTCMinutes())) {
      date = new Date(Date.UTC(year, month, day, hour, date.getUTCMinutes() + 1));
    } else {
      return date.getTime() / 1000 - schedule.offsetSeconds;
    }
  }
}

function dayMatches(schedule: CronSchedule, date: Date): boolean {
  const domMatch = schedule.daysOfMonth.has(date.getUTCDate());
  const dowMatch = schedule.daysOfWeek.has(date.getUTCDay());
  if (schedule.isDayOfMonthStar || schedule.isDayOfWeekStar) {
    return domMatch && dowMatch;
  }
  return domMatch || dowMatch;
}
