import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type {
  BackoffRecord,
  IndexInterval,
  SuccessPolicyRule,
} from '../../../../server/src/engine/controllers/job/job-arithmetic';
import {
  NO_BACKOFF,
  backoffSeconds,
  firstPendingIndexes,
  formatIntervals,
  intervalsHave,
  matchSuccessPolicy,
  mergeIntervals,
  newBackoffRecord,
  parseIndexes,
  pastBackoffLimitOnFailure,
  remainingBackoffSeconds,
  wantedActivePods,
} from '../../../../server/src/engine/controllers/job/job-arithmetic';
import { crashLoopBackoffSeconds, jobPodRunSeconds } from '../../../../server/src/engine/kubelet/job-pod-run';
import { indexedGenerateName } from '../../../../server/src/engine/workloads/job';

/** Times in seconds around upstream's defaultTestTime; a millisecond is 0.001. */
const T = 1000;

describe('newBackoffRecord (backoff_utils_test.go TestNewBackoffRecord)', () => {
  const cases: {
    name: string;
    previous: BackoffRecord;
    succeeded: number[];
    failed: number[];
    expected: BackoffRecord;
  }[] = [
    {
      name: 'Empty backoff store and one new failure',
      previous: NO_BACKOFF,
      succeeded: [],
      failed: [T],
      expected: { failuresAfterLastSuccess: 1, lastFailureTime: T },
    },
    {
      name: 'Empty backoff store and two new failures',
      previous: NO_BACKOFF,
      succeeded: [],
      failed: [T, T - 0.001],
      expected: { failuresAfterLastSuccess: 2, lastFailureTime: T },
    },
    {
      name: 'Empty backoff store, two failures followed by success',
      previous: NO_BACKOFF,
      succeeded: [T],
      failed: [T - 0.002, T - 0.001],
      expected: { failuresAfterLastSuccess: 0, lastFailureTime: null },
    },
    {
      name: 'Empty backoff store, two failures, one success and two more failures',
      previous: NO_BACKOFF,
      succeeded: [T - 0.002],
      failed: [T, T - 0.004, T - 0.003, T - 0.001],
      expected: { failuresAfterLastSuccess: 2, lastFailureTime: T },
    },
    {
      name: 'Backoff store having failure count 2 and one new failure',
      previous: { failuresAfterLastSuccess: 2, lastFailureTime: null },
      succeeded: [],
      failed: [T],
      expected: { failuresAfterLastSuccess: 3, lastFailureTime: T },
    },
    {
      name: 'Empty backoff store with success and failure at same timestamp',
      previous: NO_BACKOFF,
      succeeded: [T],
      failed: [T],
      expected: { failuresAfterLastSuccess: 0, lastFailureTime: null },
    },
    {
      name: 'Empty backoff store with no success/failure',
      previous: NO_BACKOFF,
      succeeded: [],
      failed: [],
      expected: NO_BACKOFF,
    },
    {
      name: 'Empty backoff store with one success',
      previous: NO_BACKOFF,
      succeeded: [T],
      failed: [],
      expected: NO_BACKOFF,
    },
  ];
  for (const { name, previous, succeeded, failed, expected } of cases) {
    test(name, () => {
      assert.deepEqual(newBackoffRecord(previous, succeeded, failed), expected);
    });
  }
});

describe('remainingBackoffSeconds (backoff_utils_test.go TestGetRemainingBackoffTime)', () => {
  const cases: { name: string; record: BackoffRecord; now: number; expected: number }[] = [
    { name: 'no failures', record: NO_BACKOFF, now: T, expected: 0 },
    {
      name: 'one failure; current time and failure time are same',
      record: { failuresAfterLastSuccess: 1, lastFailureTime: T },
      now: T,
      expected: 5,
    },
    {
      name: 'one failure; current time == 1 second + failure time',
      record: { failuresAfterLastSuccess: 1, lastFailureTime: T },
      now: T + 1,
      expected: 4,
    },
    {
      name: 'one failure; current time == expected backoff time',
      record: { failuresAfterLastSuccess: 1, lastFailureTime: T },
      now: T + 5,
      expected: 0,
    },
    {
      name: 'one failure; current time == expected backoff time + 1 Second',
      record: { failuresAfterLastSuccess: 1, lastFailureTime: T },
      now: T + 6,
      expected: 0,
    },
    {
      name: 'three failures; current time and failure time are same',
      record: { failuresAfterLastSuccess: 3, lastFailureTime: T },
      now: T,
      expected: 20,
    },
    {
      name: 'eight failures; current time and failure time are same; backoff not exceeding maxBackoff',
      record: { failuresAfterLastSuccess: 8, lastFailureTime: T },
      now: T,
      expected: 640,
    },
    {
      name: 'nine failures; current time and failure time are same; backoff exceeding maxBackoff',
      record: { failuresAfterLastSuccess: 9, lastFailureTime: T },
      now: T,
      expected: 700,
    },
  ];
  for (const { name, record, now, expected } of cases) {
    test(name, () => {
      // Upstream's test uses a 5s default back-off and a 700s cap.
      assert.equal(remainingBackoffSeconds(record, now, 5, 700), expected);
    });
  }

  test("the controller's defaults: 10s doubling per failure, capped at 10 minutes", () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((failures) => backoffSeconds(failures)),
      [10, 20, 40, 80, 160, 320, 600, 600],
    );
  });
});

describe('wantedActivePods (manageJob)', () => {
  const cases: {
    name: string;
    input: [number, number | null, number, number];
    expected: number;
  }[] = [
    { name: 'completions 5, parallelism 2, none succeeded: 2 pods', input: [2, 5, 0, 0], expected: 2 },
    { name: 'one completion missing caps the pods at 1', input: [2, 5, 4, 1], expected: 1 },
    { name: 'completions reached: no pod', input: [2, 5, 5, 0], expected: 0 },
    { name: 'no completions, nothing succeeded: parallelism', input: [3, null, 0, 1], expected: 3 },
    { name: 'no completions, one succeeded: what runs keeps running', input: [3, null, 1, 2], expected: 2 },
  ];
  for (const { name, input, expected } of cases) {
    test(name, () => {
      assert.equal(wantedActivePods(...input), expected);
    });
  }
});

describe('pastBackoffLimitOnFailure (job_controller_test.go TestJobBackoffForOnFailure)', () => {
  const cases: { name: string; restarts: number[]; backoffLimit: number; expected: boolean }[] = [
    { name: 'backoffLimit 0 should have 1 pod active', restarts: [0], backoffLimit: 0, expected: false },
    {
      name: 'backoffLimit 1 with restartCount 0 should have 1 pod active',
      restarts: [0],
      backoffLimit: 1,
      expected: false,
    },
    {
      name: 'backoffLimit 1 with restartCount 1 and podRunning should have 0 pod active',
      restarts: [1],
      backoffLimit: 1,
      expected: true,
    },
    {
      name: 'too many job failures with podRunning - single pod',
      restarts: [2],
      backoffLimit: 2,
      expected: true,
    },
    {
      name: 'too many job failures with podRunning - multiple pods',
      restarts: [1, 1],
      backoffLimit: 2,
      expected: true,
    },
    { name: 'not enough failures', restarts: [1, 1], backoffLimit: 3, expected: false },
  ];
  for (const { name, restarts, backoffLimit, expected } of cases) {
    test(name, () => {
      assert.equal(pastBackoffLimitOnFailure(restarts, backoffLimit), expected);
    });
  }
});

const iv = (first: number, last: number): IndexInterval => ({ first, last });

describe('completion indexes (indexed_job_utils_test.go)', () => {
  const pending: {
    name: string;
    busy: IndexInterval[];
    active: number[];
    count: number;
    completions: number;
    expected: number[];
  }[] = [
    {
      name: 'cnt greater than completions',
      busy: [],
      active: [],
      count: 5,
      completions: 3,
      expected: [0, 1, 2],
    },
    { name: 'cnt less than completions', busy: [], active: [], count: 2, completions: 5, expected: [0, 1] },
    { name: 'first pods active', busy: [], active: [0, 1], count: 3, completions: 10, expected: [2, 3, 4] },
    {
      name: 'last pods active or succeeded',
      busy: [iv(4, 5)],
      active: [6],
      count: 6,
      completions: 6,
      expected: [0, 1, 2, 3],
    },
    {
      name: 'mixed',
      busy: [iv(2, 4), iv(9, 9)],
      active: [3, 5, 8],
      count: 5,
      completions: 20,
      expected: [0, 1, 6, 7, 10],
    },
    {
      name: 'with failed indexes',
      busy: mergeIntervals([iv(1, 1), iv(5, 5), iv(9, 9)], [iv(2, 2), iv(6, 7)]),
      active: [3, 9],
      count: 5,
      completions: 20,
      expected: [0, 4, 8, 10, 11],
    },
  ];
  for (const { name, busy, active, count, completions, expected } of pending) {
    test(`TestFirstPendingIndexes: ${name}`, () => {
      assert.deepEqual(firstPendingIndexes(busy, active, count, completions), expected);
    });
  }

  const has: { name: string; intervals: IndexInterval[]; index: number; expected: boolean }[] = [
    { name: 'empty', intervals: [], index: 4, expected: false },
    { name: 'before all', intervals: [iv(2, 4), iv(5, 7)], index: 1, expected: false },
    { name: 'after all', intervals: [iv(2, 4), iv(6, 8)], index: 9, expected: false },
    { name: 'in between', intervals: [iv(2, 4), iv(6, 8)], index: 5, expected: false },
    { name: 'in first', intervals: [iv(2, 4), iv(6, 8)], index: 2, expected: true },
    { name: 'in second', intervals: [iv(2, 4), iv(6, 8)], index: 8, expected: true },
  ];
  for (const { name, intervals, index, expected } of has) {
    test(`TestIntervalsHaveIndex: ${name}`, () => {
      assert.equal(intervalsHave(intervals, index), expected);
    });
  }

  test('status.completedIndexes reads and writes "1,3-5,7" (two adjacent indexes as "5,6")', () => {
    assert.deepEqual(parseIndexes('1,3-5,7', 10), [iv(1, 1), iv(3, 5), iv(7, 7)]);
    assert.deepEqual(parseIndexes('0-2,8-12', 10), [iv(0, 2), iv(8, 9)], 'cut at completions');
    assert.deepEqual(parseIndexes('invalid-form', 10), []);
    assert.equal(formatIntervals([iv(0, 2), iv(5, 6), iv(9, 9)]), '0-2,5,6,9');
  });

  const names: { name: string; job: string; expected: string }[] = [
    { name: 'short job name', job: 'indexed-job', expected: 'indexed-job-1-' },
    {
      name: 'job name exceeds MaxGeneneratedNameLength',
      job: 'hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooo',
      expected: 'hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-',
    },
    {
      name: 'job name with index suffix exceeds MaxGeneratedNameLength',
      job: 'hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhoo',
      expected: 'hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-',
    },
  ];
  for (const { name, job, expected } of names) {
    test(`TestPodGenerateNameWithIndex: ${name}`, () => {
      assert.equal(indexedGenerateName(job, 1), expected);
    });
  }
});

describe('matchSuccessPolicy (success_policy_test.go TestMatchSuccessPolicy)', () => {
  const cases: {
    name: string;
    rules: SuccessPolicyRule[] | null;
    succeeded: IndexInterval[];
    expected: string | null;
  }[] = [
    { name: 'successPolicy is null', rules: null, succeeded: [iv(0, 0)], expected: null },
    { name: 'any rules are nothing', rules: [], succeeded: [iv(0, 0)], expected: null },
    {
      name: 'rules.succeededIndexes is invalid format',
      rules: [{ succeededIndexes: 'invalid-form' }],
      succeeded: [iv(0, 0)],
      expected: null,
    },
    {
      name: 'rules.succeededIndexes is specified; succeededIndexes matched rules',
      rules: [{ succeededIndexes: '0-2' }],
      succeeded: [iv(0, 2), iv(4, 7)],
      expected: 'Matched rules at index 0',
    },
    {
      name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules",
      rules: [{ succeededIndexes: '3' }],
      succeeded: [iv(0, 2)],
      expected: null,
    },
    {
      name: 'rules.succeededCount is specified; succeededIndexes matched rules',
      rules: [{ succeededCount: 2 }],
      succeeded: [iv(0, 2)],
      expected: 'Matched rules at index 0',
    },
    {
      name: "rules.succeededCount is specified; succeededIndexes didn't match rules",
      rules: [{ succeededCount: 4 }],
      succeeded: [iv(0, 2)],
      expected: null,
    },
    {
      name: 'multiple rules; rules.succeededIndexes is specified; succeededIndexes met one of rules',
      rules: [{ succeededIndexes: '9' }, { succeededIndexes: '4,6' }],
      succeeded: [iv(0, 2), iv(4, 7)],
      expected: 'Matched rules at index 1',
    },
    {
      name: 'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes met all rules',
      rules: [{ succeededIndexes: '3-6', succeededCount: 2 }],
      succeeded: [iv(0, 2), iv(4, 7)],
      expected: 'Matched rules at index 0',
    },
    {
      name: "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes didn't match rules",
      rules: [{ succeededIndexes: '3-6', succeededCount: 2 }],
      succeeded: [iv(0, 2), iv(6, 7)],
      expected: null,
    },
    {
      name: 'rules.succeededIndexes is specified; succeededIndexes matched rules; rules is proper subset of succeededIndexes',
      rules: [{ succeededIndexes: '2-4,6-8' }],
      succeeded: [iv(1, 5), iv(6, 9)],
      expected: 'Matched rules at index 0',
    },
    {
      name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at first",
      rules: [{ succeededIndexes: '1-3,5-7' }],
      succeeded: [iv(2, 4), iv(6, 8)],
      expected: null,
    },
    {
      name: 'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at first',
      rules: [{ succeededIndexes: '1-3,5-7', succeededCount: 4 }],
      succeeded: [iv(2, 4), iv(6, 8)],
      expected: 'Matched rules at index 0',
    },
  ];
  for (const { name, rules, succeeded, expected } of cases) {
    test(name, () => {
      assert.equal(matchSuccessPolicy(rules, 10, succeeded), expected);
    });
  }
});

describe("the kubelet's part of a Job pod", () => {
  test('the crash-loop back-off doubles from 10s up to 5 minutes', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map(crashLoopBackoffSeconds), [10, 20, 40, 80, 160, 300, 300]);
  });

  test('a pod runs as long as its slowest container; images without a setting take jobPodRunSeconds', () => {
    const settings = { jobPodRunSeconds: 30, jobPodRunSecondsByImage: { 'etl:2': 90, 'quick:1': 5 } };
    assert.equal(jobPodRunSeconds(['quick:1'], settings), 5);
    assert.equal(jobPodRunSeconds(['quick:1', 'etl:2'], settings), 90);
    assert.equal(jobPodRunSeconds(['quick:1', 'other:1'], settings), 30);
  });
});
