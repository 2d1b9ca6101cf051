import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CronSchedule } from '../../../../server/src/engine/controllers/cronjob/cron-schedule';
import {
  nextCronTime,
  parseCronSchedule,
} from '../../../../server/src/engine/controllers/cronjob/cron-schedule';
import type {
  CronJobTimes,
  MissedSchedules,
} from '../../../../server/src/engine/controllers/cronjob/cron-job-times';
import {
  NEXT_SCHEDULE_DELTA_SECONDS,
  mostRecentScheduleTime,
  nextScheduleTime,
  nextScheduleTimeDuration,
  scheduledJobName,
} from '../../../../server/src/engine/controllers/cronjob/cron-job-times';

const epoch = (iso: string): number => Date.parse(iso) / 1000;
const iso = (seconds: number | null): string | null =>
  seconds === null ? null : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

function schedule(text: string, timeZone: string | null = null): CronSchedule {
  const parsed = parseCronSchedule(text, timeZone);
  assert.ok('schedule' in parsed, `${text} should parse: ${'error' in parsed ? parsed.error : ''}`);
  return parsed.schedule;
}

describe('parseCronSchedule (robfig/cron v3 ParseStandard)', () => {
  const errors: { name: string; text: string; timeZone?: string; expected: string }[] = [
    { name: 'four fields', text: '* * * *', expected: 'expected exactly 5 fields, found 4: [* * * *]' },
    { name: 'a minute above 59', text: '60 * * * *', expected: 'end of range (60) above maximum (59): 60' },
    { name: 'a day of month 0', text: '0 0 0 * *', expected: 'beginning of range (0) below minimum (1): 0' },
    {
      name: 'a reversed range',
      text: '0 5-2 * * *',
      expected: 'beginning of range (5) beyond end of range (2): 5-2',
    },
    { name: 'a step of 0', text: '*/0 * * * *', expected: 'step of range should be a positive number: */0' },
    {
      name: 'a weekday 7 (robfig allows 0-6)',
      text: '0 0 * * 7',
      expected: 'end of range (7) above maximum (6): 7',
    },
    { name: 'a name that is no month', text: '0 0 1 foo *', expected: 'failed to parse int from foo' },
    {
      name: 'an unknown descriptor',
      text: '@fortnightly',
      expected: 'unrecognized descriptor: @fortnightly',
    },
    {
      name: 'TZ in the schedule (the API server refuses it)',
      text: 'TZ=Europe/Rome 0 * * * *',
      expected: 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    },
    {
      name: 'a time zone with daylight saving rules is not simulated',
      text: '0 * * * *',
      timeZone: 'Europe/Rome',
      expected:
        'timeZone "Europe/Rome" is not simulated (only UTC and the fixed offsets Etc/GMT+N, Etc/GMT-N are)',
    },
  ];
  for (const { name, text, timeZone, expected } of errors) {
    test(`refuses ${name}`, () => {
      assert.deepEqual(parseCronSchedule(text, timeZone ?? null), { error: expected });
    });
  }

  test('reads lists, ranges, steps and names into the values of each field', () => {
    const parsed = schedule('0,30 9-17/4 1,15 JAN-mar mon-FRI');
    assert.deepEqual([...parsed.minutes], [0, 30]);
    assert.deepEqual([...parsed.hours], [9, 13, 17]);
    assert.deepEqual([...parsed.daysOfMonth], [1, 15]);
    assert.deepEqual([...parsed.months], [1, 2, 3]);
    assert.deepEqual([...parsed.daysOfWeek], [1, 2, 3, 4, 5]);
    assert.equal(parsed.isDayOfMonthStar || parsed.isDayOfWeekStar, false);
  });

  test('"a/n" runs from a to the maximum; "*/n" is no star for the day rule, "?" is', () => {
    assert.deepEqual([...schedule('50/5 * * * *').minutes], [50, 55]);
    assert.equal(schedule('0 0 */2 * *').isDayOfMonthStar, false);
    assert.equal(schedule('0 0 ? * 1').isDayOfMonthStar, true);
  });
});

describe('nextCronTime (robfig Next: the first matching minute after t)', () => {
  const cases: { name: string; text: string; timeZone?: string; after: string; expected: string | null }[] = [
    {
      name: 'every five minutes',
      text: '*/5 * * * *',
      after: '2026-01-01T00:00:00Z',
      expected: '2026-01-01T00:05:00Z',
    },
    {
      name: 'strictly after t',
      text: '0 * * * *',
      after: '2026-01-01T10:00:00Z',
      expected: '2026-01-01T11:00:00Z',
    },
    {
      name: 'a second before the minute',
      text: '0 * * * *',
      after: '2026-01-01T09:59:59Z',
      expected: '2026-01-01T10:00:00Z',
    },
    { name: '@hourly', text: '@hourly', after: '2026-01-01T10:30:00Z', expected: '2026-01-01T11:00:00Z' },
    { name: '@daily', text: '@daily', after: '2026-01-01T10:30:00Z', expected: '2026-01-02T00:00:00Z' },
    {
      name: '@weekly is Sunday midnight',
      text: '@weekly',
      after: '2026-01-01T00:00:00Z',
      expected: '2026-01-04T00:00:00Z',
    },
    { name: '@monthly', text: '@monthly', after: '2026-01-15T00:00:00Z', expected: '2026-02-01T00:00:00Z' },
    { name: '@yearly', text: '@yearly', after: '2026-01-01T00:00:00Z', expected: '2027-01-01T00:00:00Z' },
    {
      name: '@every 90m from t',
      text: '@every 1h30m',
      after: '2026-01-01T00:00:10Z',
      expected: '2026-01-01T01:30:10Z',
    },
    {
      name: 'weekdays skip the weekend (2026-01-02 is a Friday)',
      text: '30 6 * * 1-5',
      after: '2026-01-02T07:00:00Z',
      expected: '2026-01-05T06:30:00Z',
    },
    {
      name: 'both day fields restricted: either matches (the 13th, or a Friday)',
      text: '0 0 13 * 5',
      after: '2026-01-01T00:00:00Z',
      expected: '2026-01-02T00:00:00Z',
    },
    {
      name: 'February 29 waits for a leap year',
      text: '0 0 29 2 *',
      after: '2026-03-01T00:00:00Z',
      expected: '2028-02-29T00:00:00Z',
    },
    { name: 'February 31 never comes', text: '59 23 31 2 *', after: '2026-01-01T00:00:00Z', expected: null },
    {
      name: 'Etc/GMT-2 (two hours east): 9:00 there is 7:00 UTC',
      text: '0 9 * * *',
      timeZone: 'Etc/GMT-2',
      after: '2026-01-01T00:00:00Z',
      expected: '2026-01-01T07:00:00Z',
    },
  ];
  for (const { name, text, timeZone, after, expected } of cases) {
    test(name, () => {
      assert.equal(iso(nextCronTime(schedule(text, timeZone ?? null), epoch(after))), expected);
    });
  }
});

// cronjob/utils_test.go: topOfTheHour is 2016-05-19T10:00:00Z (a Thursday).
const TOP = epoch('2016-05-19T10:00:00Z');
const cronJob = (
  created: number,
  last: number | null = null,
  deadline: number | null = null,
): CronJobTimes => ({
  createdEpoch: created,
  lastScheduleEpoch: last,
  startingDeadlineSeconds: deadline,
});

describe('mostRecentScheduleTime (utils_test.go TestMostRecentScheduleTime)', () => {
  const cases: {
    name: string;
    text: string;
    cronJob: CronJobTimes;
    includeDeadline?: boolean;
    now: number;
    earliest: number;
    recent: number | null;
    missed?: MissedSchedules;
    wantErr?: boolean;
  }[] = [
    {
      name: 'now before next schedule',
      text: '0 * * * *',
      cronJob: cronJob(TOP),
      now: TOP + 30,
      earliest: TOP,
      recent: null,
    },
    {
      name: 'now just after next schedule',
      text: '0 * * * *',
      cronJob: cronJob(TOP),
      now: TOP + 61 * MINUTE,
      earliest: TOP,
      recent: TOP + HOUR,
    },
    {
      name: 'missed 5 schedules',
      text: '0 * * * *',
      cronJob: cronJob(TOP + 10),
      now: TOP + 301 * MINUTE,
      earliest: TOP + 10,
      recent: TOP + 300 * MINUTE,
      missed: 'few',
    },
    {
      name: 'complex schedule',
      text: '30 6-16/4 * * 1-5',
      cronJob: cronJob(TOP, TOP + 30 * MINUTE),
      now: TOP + DAY + 31 * MINUTE,
      earliest: TOP + 30 * MINUTE,
      recent: TOP + DAY + 30 * MINUTE,
      missed: 'few',
    },
    {
      name: 'another complex schedule',
      text: '30 10,11,12 * * 1-5',
      cronJob: cronJob(TOP, TOP + 30 * MINUTE),
      now: TOP + 30 * HOUR + 30 * MINUTE,
      earliest: TOP + 30 * MINUTE,
      recent: null,
      missed: 'few',
    },
    {
      name: 'complex schedule with longer diff between executions',
      text: '30 6-16/4 * * 1-5',
      cronJob: cronJob(TOP, TOP + 30 * MINUTE),
      now: TOP + 96 * HOUR + 31 * MINUTE,
      earliest: TOP + 30 * MINUTE,
      recent: TOP + 96 * HOUR + 30 * MINUTE,
      missed: 'few',
    },
    {
      name: 'complex schedule with shorter diff between executions',
      text: '30 6-16/4 * * 1-5',
      cronJob: cronJob(TOP),
      now: TOP + DAY + 31 * MINUTE,
      earliest: TOP,
      recent: TOP + DAY + 30 * MINUTE,
      missed: 'few',
    },
    {
      name: '@every schedule',
      text: '@every 1h',
      cronJob: cronJob(TOP - 59 * MINUTE, TOP + MINUTE, 10),
      now: TOP + 7 * DAY,
      earliest: TOP + MINUTE,
      recent: TOP + 6 * DAY + 23 * HOUR + MINUTE,
      missed: 'many',
    },
    {
      name: 'rogue cronjob',
      text: '59 23 31 2 *',
      cronJob: cronJob(TOP + 10),
      now: TOP + HOUR,
      earliest: TOP + 10,
      recent: null,
      wantErr: true,
    },
    {
      name: 'earliestTime being CreationTimestamp and LastScheduleTime',
      text: '0 * * * *',
      cronJob: cronJob(TOP, TOP),
      now: TOP + 30,
      earliest: TOP,
      recent: null,
    },
    {
      name: 'earliestTime being LastScheduleTime',
      text: '*/5 * * * *',
      cronJob: cronJob(TOP, TOP + 30 * MINUTE),
      now: TOP + 31 * MINUTE,
      earliest: TOP + 30 * MINUTE,
      recent: null,
    },
    {
      name: 'earliestTime being LastScheduleTime (within StartingDeadlineSeconds)',
      text: '*/5 * * * *',
      cronJob: cronJob(TOP, TOP + 30 * MINUTE, 60),
      now: TOP + 31 * MINUTE,
      earliest: TOP + 30 * MINUTE,
      recent: null,
    },
    {
      name: 'earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)',
      text: '*/5 * * * *',
      cronJob: cronJob(TOP, TOP + 30 * MINUTE, 60),
      includeDeadline: true,
      now: TOP + 32 * MINUTE,
      earliest: TOP + 31 * MINUTE,
      recent: null,
    },
  ];
  for (const row of cases) {
    test(row.name, () => {
      const result = mostRecentScheduleTime(
        row.cronJob,
        row.now,
        schedule(row.text),
        row.includeDeadline ?? false,
      );
      if (row.wantErr === true) {
        assert.notEqual(result.error, null);
        return;
      }
      assert.equal(result.error, null);
      assert.equal(iso(result.earliest), iso(row.earliest));
      assert.equal(iso(result.mostRecent), iso(row.recent));
      assert.equal(result.missed, row.missed ?? 'none');
    });
  }
});

describe('nextScheduleTime (utils_test.go TestNextScheduleTime, hourly "0 * * * ?")', () => {
  const hourly = schedule('0 * * * ?');
  const T1 = TOP;
  const T2 = TOP + HOUR;
  const cases: { name: string; cronJob: CronJobTimes; now: number; expected: number | null | 'some' }[] = [
    {
      name: 'Case 1: no known start times, and none needed yet',
      cronJob: cronJob(T1 - 10 * MINUTE),
      now: T1 - 7 * MINUTE,
      expected: null,
    },
    {
      name: 'Case 2: no known start times, and one needed',
      cronJob: cronJob(T1 - 10 * MINUTE),
      now: T1 + 2,
      expected: T1,
    },
    {
      name: 'Case 3: known LastScheduleTime, no start needed',
      cronJob: cronJob(T1 - 10 * MINUTE, T1),
      now: T1 + 2 * MINUTE,
      expected: null,
    },
    {
      name: 'Case 4: known LastScheduleTime, a start needed',
      cronJob: cronJob(T1 - 10 * MINUTE, T1),
      now: T2 + 5 * MINUTE,
      expected: T2,
    },
    {
      name: 'Case 5: known LastScheduleTime, two starts needed',
      cronJob: cronJob(T1 - 2 * HOUR, T1 - HOUR),
      now: T2 + 5 * MINUTE,
      expected: T2,
    },
    {
      name: 'Case 6: now is way way ahead of last start time, and there is no deadline',
      cronJob: cronJob(T1 - 2 * HOUR, T1 - HOUR),
      now: T2 + 10 * DAY,
      expected: 'some',
    },
    {
      name: 'Case 7: now is way way ahead of last start time, but there is a short deadline',
      cronJob: cronJob(T1 - 2 * HOUR, T1 - HOUR, 2 * HOUR),
      now: T2 + 10 * DAY,
      expected: 'some',
    },
  ];
  for (const { name, cronJob: times, now, expected } of cases) {
    test(name, () => {
      const { time } = nextScheduleTime(times, now, hourly);
      if (expected === 'some') {
        assert.notEqual(time, null);
      } else {
        assert.equal(iso(time), iso(expected));
      }
    });
  }

  test('Case 8: ensure the error from mostRecentScheduleTime gets populated up', () => {
    const result = nextScheduleTime(cronJob(T1 + 10), TOP + HOUR, schedule('59 23 31 2 *'));
    assert.equal(result.time, null);
    assert.notEqual(result.error, null);
  });
});

describe('nextScheduleTimeDuration (utils_test.go TestNextScheduleTimeDuration)', () => {
  const cases: { name: string; text: string; cronJob: CronJobTimes; now: number; expected: number }[] = [
    {
      name: 'complex schedule skipping weekend',
      text: '30 6-16/4 * * 1-5',
      cronJob: cronJob(TOP, TOP + 30 * MINUTE),
      now: TOP + DAY + 31 * MINUTE,
      expected: 3 * HOUR + 59 * MINUTE,
    },
    {
      name: 'another complex schedule skipping weekend',
      text: '30 10,11,12 * * 1-5',
      cronJob: cronJob(TOP, TOP + 30 * MINUTE),
      now: TOP + 30 * HOUR + 30 * MINUTE,
      expected: 66 * HOUR,
    },
    {
      name: 'once a week cronjob, missed two runs',
      text: '0 12 * * 4',
      cronJob: cronJob(TOP, TOP + 2 * HOUR),
      now: TOP + 19 * DAY + HOUR + 30 * MINUTE,
      expected: 48 * HOUR + 30 * MINUTE,
    },
    {
      name: 'no previous run of a cronjob',
      text: '0 12 * * 5',
      cronJob: cronJob(TOP),
      now: TOP + 6 * HOUR,
      expected: 20 * HOUR,
    },
  ];
  for (const { name, text, cronJob: times, now, expected } of cases) {
    test(name, () => {
      assert.equal(
        nextScheduleTimeDuration(times, now, schedule(text)),
        expected + NEXT_SCHEDULE_DELTA_SECONDS,
      );
    });
  }
});

test('getJobName: "<cronjob>-<scheduled time in minutes since the epoch>"', () => {
  assert.equal(scheduledJobName('mycronjob', TOP), 'mycronjob-24394200');
  assert.equal(scheduledJobName('tick', epoch('2026-01-01T00:05:00Z')), 'tick-29453765');
});
