import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeData,
  escapeProperty,
  formatGithubAnnotations,
} from '../../server/src/cli/formats/github-annotations';
import { FIXTURES, runForesight } from './cli-harness';

// With GITHUB_ACTIONS=true and text output, each finding is also a workflow command, escaped as GitHub's toolkit
// escapes them, so the runner turns it into an annotation.

const GITHUB = { GITHUB_ACTIONS: 'true' };
const MIXED = `${FIXTURES}/mixed`;

describe('GitHub workflow commands', () => {
  test('validate prints one command per finding after the report, and the exit line last', async () => {
    const { code, stdout } = await runForesight(['validate', MIXED], { env: GITHUB });
    assert.equal(code, 1);
    const lines = stdout.trimEnd().split('\n');
    assert.deepEqual(lines.slice(-3), [
      `::error file=${MIXED}/broken.yaml,line=19,col=17,endLine=19,endColumn=25,title=schema-type::"spec.ports[0].port" must be integer, not string "eighty".`,
      `::warning file=${MIXED}/team.yaml,line=10,col=3,endLine=10,endColumn=7,title=yaml-duplicate-key::Duplicate key "mode": this mapping already sets it. kubectl apply -f keeps this later value and silently drops the earlier one; kustomize refuses the file (kubectl apply -k: mapping key "mode" already defined).`,
      'exit 1: 1 error (--fail-on error)',
    ]);
  });

  test('simulate: a note is ::notice, a Pending replica ::warning on its request, a finding on no file has no file', async () => {
    const { stdout } = await runForesight(
      ['simulate', '--drain', 'no-such-node@10', `${MIXED}/huge.yaml`, `${MIXED}/web.yaml`],
      { env: GITHUB },
    );
    const commands = stdout.split('\n').filter((line) => line.startsWith('::'));
    assert.deepEqual(
      commands.map((line) => line.slice(0, line.indexOf('::', 2))),
      [
        `::notice file=${MIXED}/web.yaml,line=16,col=27,endLine=16,endColumn=34,title=service-account-assumed`,
        '::error title=scenario-invalid',
        // The embedded default can add nodes: the autoscaler's reason why none helps comes first, on the template.
        `::warning file=${MIXED}/huge.yaml,line=16,col=5,endLine=16,endColumn=9,title=pod-no-scale-up`,
        `::warning file=${MIXED}/huge.yaml,line=22,col=20,endLine=22,endColumn=25,title=pod-unschedulable`,
      ],
    );
    assert.match(
      commands[1] ?? '',
      /::Scenario step at t=10s: drain: the cluster has no node "no-such-node"$/,
    );
  });

  const QUIET: readonly { name: string; args: readonly string[]; env: Record<string, string> }[] = [
    { name: 'outside GitHub Actions', args: ['validate', MIXED], env: {} },
    {
      name: 'with GITHUB_ACTIONS set to something else',
      args: ['validate', MIXED],
      env: { GITHUB_ACTIONS: '1' },
    },
    { name: 'with JSON output', args: ['validate', '--output', 'json', MIXED], env: GITHUB },
    { name: 'with SARIF output', args: ['simulate', '-o', 'sarif', `${MIXED}/huge.yaml`], env: GITHUB },
  ];
  for (const { name, args, env } of QUIET) {
    test(`no workflow command is printed ${name}`, async () => {
      const { code, stdout } = await runForesight(args, { env });
      assert.equal(code, 1);
      assert.doesNotMatch(stdout, /^::/m);
    });
  }

  test('messages and properties are escaped as the toolkit escapes them', () => {
    assert.equal(escapeData('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext: a, b');
    assert.equal(escapeProperty('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext%3A a%2C b');
    assert.equal(
      formatGithubAnnotations([
        {
          code: 'schema-type',
          severity: 'warning',
          message: 'line one\nline two: 50%',
          place: {
            file: 'k8s\\a,b:c.yaml',
            start: { line: 1, character: 2 },
            end: { line: 3, character: 4 },
          },
        },
      ]),
      '::warning file=k8s/a%2Cb%3Ac.yaml,line=2,col=3,endLine=4,endColumn=5,title=schema-type::line one%0Aline two: 50%25\n',
    );
  });

  test('a finding read from standard input has no file property', () => {
    assert.equal(
      formatGithubAnnotations([
        {
          code: 'yaml-syntax',
          severity: 'error',
          message: 'bad',
          place: { file: '<stdin>', start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
        },
      ]),
      '::error title=yaml-syntax::bad\n',
    );
  });
});
