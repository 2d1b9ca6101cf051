import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyEpochSeconds, DEFAULT_TIMING } from '../../../server/src/engine/sim/timing-settings';
import { readScenario } from '../../../server/src/engine/scenario/scenario-spec';
import type { Finding } from '../../../protocol/finding';

const SOURCE = { file: 'cluster.yaml', documentIndex: 0, path: [] };

function read(timing: Record<string, unknown>): { timing: unknown; findings: Finding[] } {
  const findings: Finding[] = [];
  const scenario = readScenario({ kind: 'Scenario', spec: { timing } }, SOURCE, findings);
  return { timing: scenario.timing, findings };
}

describe("a Scenario's Job timing settings", () => {
  test('reads jobPodRunSeconds, per image, failures, applyTime and the CronJob horizon', () => {
    const { timing, findings } = read({
      jobPodRunSeconds: 60,
      jobPodRunSecondsByImage: { 'etl:2': 300 },
      jobPodFailures: { 'default/migrate': { count: 2, exitCode: 3 }, 'batch/nightly': {} },
      applyTime: '2026-03-01T09:30:00+02:00',
      cronJobHorizonSeconds: 7200,
    });
    assert.deepEqual(findings, []);
    assert.deepEqual(timing, {
      jobPodRunSeconds: 60,
      jobPodRunSecondsByImage: { 'etl:2': 300 },
      jobPodFailures: {
        'default/migrate': { count: 2, exitCode: 3 },
        'batch/nightly': { count: null, exitCode: 1 },
      },
      applyTime: '2026-03-01T09:30:00+02:00',
      cronJobHorizonSeconds: 7200,
    });
  });

  const problems: {
    name: string;
    timing: Record<string, unknown>;
    path: (string | number)[];
    message: string;
  }[] = [
    {
      name: 'a failure key without a namespace',
      timing: { jobPodFailures: { migrate: { count: 1 } } },
      path: ['spec', 'timing', 'jobPodFailures', 'migrate'],
      message:
        'Scenario: timing.jobPodFailures["migrate"]: the key must be "<namespace>/<Job or CronJob name>"',
    },
    {
      name: 'an exit code 0 (a failure must not exit 0)',
      timing: { jobPodFailures: { 'default/a': { exitCode: 0 } } },
      path: ['spec', 'timing', 'jobPodFailures', 'default/a', 'exitCode'],
      message: 'Scenario: timing.jobPodFailures["default/a"].exitCode must be an integer from 1 to 255',
    },
    {
      name: 'a negative count',
      timing: { jobPodFailures: { 'default/a': { count: -1 } } },
      path: ['spec', 'timing', 'jobPodFailures', 'default/a', 'count'],
      message:
        'Scenario: timing.jobPodFailures["default/a"].count must be a non-negative integer (leave it out: every run fails)',
    },
    {
      name: 'an unknown field of a failure',
      timing: { jobPodFailures: { 'default/a': { times: 2 } } },
      path: ['spec', 'timing', 'jobPodFailures', 'default/a'],
      message: 'Scenario: timing.jobPodFailures["default/a"] must be an object with count and exitCode',
    },
    {
      name: 'an applyTime that is no RFC 3339 time',
      timing: { applyTime: 'tomorrow' },
      path: ['spec', 'timing', 'applyTime'],
      message: 'Scenario: timing.applyTime must be an RFC 3339 time such as "2026-01-01T00:00:00Z"',
    },
    {
      name: 'a run time per image that is not a number',
      timing: { jobPodRunSecondsByImage: { 'etl:2': 'long' } },
      path: ['spec', 'timing', 'jobPodRunSecondsByImage', 'etl:2'],
      message: 'Scenario: timing.jobPodRunSecondsByImage["etl:2"] must be a non-negative number of seconds',
    },
    {
      name: 'a negative jobPodRunSeconds',
      timing: { jobPodRunSeconds: -5 },
      path: ['spec', 'timing', 'jobPodRunSeconds'],
      message: 'Scenario: timing.jobPodRunSeconds must be a non-negative number of seconds',
    },
  ];
  for (const { name, timing, path, message } of problems) {
    test(`reports ${name}`, () => {
      const { findings } = read(timing);
      assert.deepEqual(
        findings.map((finding) => [finding.code, finding.path, finding.message]),
        [['scenario-invalid', path, message]],
      );
    });
  }

  test('the default apply time is 2026-01-01T00:00:00Z', () => {
    assert.equal(applyEpochSeconds(DEFAULT_TIMING), Date.UTC(2026, 0, 1) / 1000);
    assert.equal(applyEpochSeconds({ applyTime: '2026-01-01T02:00:00+02:00' }), Date.UTC(2026, 0, 1) / 1000);
  });
});
