import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES, runForesight } from './cli-harness';

// --fail-on for both commands: which findings make the exit code 1, the default of each command (validate: errors;
// simulate: errors and predicted failures, as before the flag existed), and the last line that says why.

const MIXED = `${FIXTURES}/mixed`;

/** A run, the --fail-on given (none: the default), and the exit code and last line expected. */
interface FailOnCase {
  readonly name: string;
  readonly args: readonly string[];
  readonly failOn?: string;
  readonly code: 0 | 1;
  /** The last line of the text output; a RegExp for a clean run's summary. */
  readonly last: string | RegExp;
}

const CASES: readonly FailOnCase[] = [
  {
    name: 'validate fails on an error by default',
    args: ['validate', MIXED],
    code: 1,
    last: 'exit 1: 1 error (--fail-on error)',
  },
  {
    name: 'validate with --fail-on prediction fails on the same errors (it predicts nothing)',
    args: ['validate', MIXED],
    failOn: 'prediction',
    code: 1,
    last: 'exit 1: 1 error (--fail-on prediction)',
  },
  {
    name: 'validate with --fail-on warning counts warnings too',
    args: ['validate', MIXED],
    failOn: 'warning',
    code: 1,
    last: 'exit 1: 1 error, 1 warning (--fail-on warning)',
  },
  {
    name: 'validate with --fail-on never reports and exits 0',
    args: ['validate', MIXED],
    failOn: 'never',
    code: 0,
    last: /^4 file\(s\) read, 1 apply unit, 6 object\(s\), checked against Kubernetes 1\.35: 1 error\(s\), 1 other finding\(s\)\.$/,
  },
  {
    name: 'validate passes a warning by default',
    args: ['validate', `${MIXED}/team.yaml`],
    code: 0,
    last: /^1 file\(s\) read, 1 apply unit, 1 object\(s\), checked against Kubernetes 1\.35: 0 error\(s\), 1 other finding\(s\)\.$/,
  },
  {
    name: 'validate fails a warning with --fail-on warning',
    args: ['validate', `${MIXED}/team.yaml`],
    failOn: 'warning',
    code: 1,
    last: 'exit 1: 1 warning (--fail-on warning)',
  },
  {
    name: 'simulate fails on an error and a Pending replica by default',
    args: ['simulate', MIXED],
    code: 1,
    last: 'exit 1: 1 error, 1 predicted failure [1 pod-unschedulable] (--fail-on prediction)',
  },
  {
    name: 'simulate fails on a Pending replica alone by default, as before --fail-on',
    args: ['simulate', `${MIXED}/huge.yaml`],
    code: 1,
    last: 'exit 1: 1 predicted failure [1 pod-unschedulable] (--fail-on prediction)',
  },
  {
    name: 'simulate fails on an object the API server refuses by default, as before --fail-on',
    args: ['simulate', `${FIXTURES}/refused`],
    code: 1,
    last: 'exit 1: 1 predicted failure [1 admission-refused] (--fail-on prediction)',
  },
  {
    name: 'simulate with --fail-on error passes a Pending replica',
    args: ['simulate', `${MIXED}/huge.yaml`],
    failOn: 'error',
    code: 0,
    last: /^1 file\(s\) read, 1 apply unit, 1 object\(s\); 1 pod: 0 placed, 1 Pending\.$/,
  },
  {
    name: 'simulate with --fail-on error still fails on an error of the input',
    args: ['simulate', MIXED],
    failOn: 'error',
    code: 1,
    last: 'exit 1: 1 error (--fail-on error)',
  },
  {
    name: 'simulate passes a warning by default',
    args: ['simulate', `${MIXED}/team.yaml`],
    code: 0,
    last: /^1 file\(s\) read, 1 apply unit, \d+ object\(s\); 0 pods: 0 placed, 0 Pending\.$/,
  },
  {
    name: 'simulate with --fail-on warning fails on a warning (a namespace not found)',
    args: ['simulate', `${MIXED}/team.yaml`],
    failOn: 'warning',
    code: 1,
    last: 'exit 1: 1 warning (--fail-on warning)',
  },
  {
    name: 'simulate with --fail-on never exits 0 with the report as usual',
    args: ['simulate', MIXED],
    failOn: 'never',
    code: 0,
    last: /^note: test\/fixtures\/cli\/mixed\/web\.yaml:16: ServiceAccount "builder" is not in the manifests/,
  },
  {
    name: 'simulate never fails on a note, even with --fail-on warning',
    args: ['simulate', `${MIXED}/web.yaml`],
    failOn: 'warning',
    code: 0,
    last: /^note: \S+web\.yaml:\d+: ServiceAccount "builder"/,
  },
];

/** What the JSON output says of pods, findings and refusals. */
interface SimulationReport {
  readonly pods: { nodeName: string | null }[];
  readonly findings: { severity: string }[];
  readonly rejected: unknown[];
}

/** The JSON output: one report, or a list of them (schemas/simulations.schema.json). */
type SimulationOutput = Partial<SimulationReport> & { simulations?: { report: SimulationReport }[] };

describe('--fail-on', () => {
  for (const { name, args, failOn, code, last } of CASES) {
    test(name, async () => {
      const result = await runForesight(failOn === undefined ? args : [...args, '--fail-on', failOn]);
      assert.equal(result.code, code, result.stdout);
      assert.equal(result.stderr, '');
      const lastLine = result.stdout.trimEnd().split('\n').at(-1) ?? '';
      if (typeof last === 'string') {
        assert.equal(lastLine, last);
      } else {
        assert.match(lastLine, last);
      }
      assert.equal(result.stdout.match(/^exit 1: /gm)?.length ?? 0, code);
    });
  }

  const BEFORE_THE_FLAG: readonly (readonly string[])[] = [
    ['-R', '--cluster', 'examples/.foresight/cluster.yaml', 'examples/'],
    ['-R', 'examples/'],
    [MIXED],
    [`${MIXED}/web.yaml`],
    [`${MIXED}/team.yaml`],
    [`${FIXTURES}/refused`],
    ['--drain', 'no-such-node@10', `${MIXED}/web.yaml`],
  ];
  for (const args of BEFORE_THE_FLAG) {
    test(`simulate ${args.join(' ')} exits as before --fail-on: 1 on a Pending pod, an error or a refusal`, async () => {
      const json = await runForesight(['simulate', '--output', 'json', ...args]);
      // One simulation is its report; units on several cluster files are a list of reports.
      const output = JSON.parse(json.stdout) as SimulationOutput;
      const reports = output.simulations?.map((entry) => entry.report) ?? [output as SimulationReport];
      const failed = reports.some(
        (report) =>
          report.pods.some((pod) => pod.nodeName === null) ||
          report.findings.some((finding) => finding.severity === 'error') ||
          report.rejected.length > 0,
      );
      const text = await runForesight(['simulate', ...args]);
      assert.equal(text.code, failed ? 1 : 0);
      assert.equal(json.code, text.code);
    });
  }

  test('with a machine format the reason goes to stderr and stdout holds the document alone', async () => {
    const result = await runForesight([
      'simulate',
      '--fail-on=prediction',
      '-o',
      'junit',
      `${MIXED}/huge.yaml`,
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /<\/testsuites>\n$/);
    assert.equal(
      result.stderr,
      'foresight simulate: exit 1: 1 predicted failure [1 pod-unschedulable] (--fail-on prediction)\n',
    );
    const json = await runForesight(['validate', '-o', 'json', '--fail-on', 'never', MIXED]);
    assert.equal(json.code, 0);
    assert.equal(json.stderr, '');
    assert.equal((JSON.parse(json.stdout) as { summary: { errors: number } }).summary.errors, 1);
  });

  const USAGE: readonly { name: string; args: readonly string[]; error: RegExp }[] = [
    {
      name: 'an unknown --fail-on value for validate',
      args: ['validate', '--fail-on', 'sometimes', MIXED],
      error: /--fail-on must be one of warning, prediction, error, never, not "sometimes"/,
    },
    {
      name: 'a missing --fail-on value for simulate',
      args: ['simulate', MIXED, '--fail-on'],
      error: /--fail-on must be one of warning, prediction, error, never, not ""/,
    },
    {
      name: 'an unknown --output format',
      args: ['validate', '--output', 'yaml', MIXED],
      error: /--output must be one of text, json, sarif, junit, not "yaml"/,
    },
  ];
  for (const { name, args, error } of USAGE) {
    test(`${name} is a usage error: exit 2, nothing on stdout`, async () => {
      const result = await runForesight(args);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, error);
    });
  }

  test('foresight --help says what each --fail-on value means, each default, and the exit codes', async () => {
    const { code, stdout } = await runForesight(['--help']);
    assert.equal(code, 0);
    for (const line of [
      /^ {2}--fail-on LEVEL +when the exit code is 1:$/m,
      /^ +error +an error in the input, or input not checked \(a file or document$/m,
      /^ +over an analysis limit; the default of validate\)$/m,
      /^ +prediction +an error, or a predicted failure: a pod that stays Pending/m,
      /\(the default of simulate; validate predicts nothing,/,
      /^ +warning +an error, a predicted failure or a warning$/m,
      /^ +never +never: report only$/m,
      /^exit codes: 0 clean \(nothing that --fail-on counts\), 1 failed per --fail-on \(the last line of text output says$/m,
      /^why\), 2 usage error/m,
      /^ {2}-o, --output FORMAT +text \(default\), json, sarif \(SARIF 2\.1\.0, for code scanning\), or junit/m,
    ]) {
      assert.match(stdout, line);
    }
  });

  for (const command of ['validate', 'simulate']) {
    test(`foresight ${command} --help shows --output and --fail-on with their values`, async () => {
      const { code, stdout } = await runForesight([command, '--help']);
      assert.equal(code, 0);
      assert.match(
        stdout,
        new RegExp(`^usage: foresight ${command} .*\\[--output text\\|json\\|sarif\\|junit\\]`),
      );
      assert.match(stdout, /\[--fail-on error\|warning\|prediction\|never\]/);
      assert.match(stdout, /^exit codes: 0 clean/m);
    });
  }
});
