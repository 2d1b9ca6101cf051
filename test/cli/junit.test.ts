import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatJunit } from '../../server/src/cli/formats/junit';
import type { CliRun } from '../../server/src/language/service/run-findings';
import type { XmlElement } from './cli-harness';
import { childrenNamed, FIXTURES, parseXml, runForesight, scratch } from './cli-harness';

// --output junit of both commands: a testsuite per input file, a testcase per object, a failure per error or
// predicted failure, warnings and notes in system-out, counts that match, and XML that a strict reader accepts
// whatever the messages and file names hold.

async function junitOf(args: readonly string[], cwd?: string): Promise<{ code: number; root: XmlElement }> {
  const result = await runForesight([...args, '--output', 'junit'], cwd === undefined ? {} : { cwd });
  assert.match(result.stdout, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
  return { code: result.code, root: parseXml(result.stdout) };
}

/** Each suite's name and its cases: name, classname, failure types, system-out lines. */
function summary(root: XmlElement): unknown[] {
  return childrenNamed(root, 'testsuite').map((suite) => ({
    suite: suite.attributes['name'],
    cases: childrenNamed(suite, 'testcase').map((testCase) => ({
      name: testCase.attributes['name'],
      classname: testCase.attributes['classname'],
      failures: childrenNamed(testCase, 'failure').map((failure) => failure.attributes['type']),
      out: childrenNamed(testCase, 'system-out').flatMap((out) => out.text.trimEnd().split('\n')),
    })),
  }));
}

/** Checks that every count attribute matches the elements. */
function assertCounts(root: XmlElement): void {
  let tests = 0;
  let failures = 0;
  for (const suite of childrenNamed(root, 'testsuite')) {
    const cases = childrenNamed(suite, 'testcase');
    const failed = cases.filter((testCase) => childrenNamed(testCase, 'failure').length > 0).length;
    assert.equal(suite.attributes['tests'], String(cases.length), suite.attributes['name']);
    assert.equal(suite.attributes['failures'], String(failed), suite.attributes['name']);
    assert.equal(suite.attributes['errors'], '0');
    assert.equal(suite.attributes['skipped'], '0');
    tests += cases.length;
    failures += failed;
  }
  assert.equal(root.attributes['tests'], String(tests));
  assert.equal(root.attributes['failures'], String(failures));
}

const MIXED = `${FIXTURES}/mixed`;

describe('foresight --output junit', () => {
  test('validate: a suite per file, a case per object (List items too), a failure per error, warnings in system-out', async () => {
    const { code, root } = await junitOf(['validate', MIXED]);
    assert.equal(code, 1);
    assert.equal(root.attributes['name'], 'foresight validate');
    assertCounts(root);
    assert.equal(root.attributes['tests'], '5');
    assert.equal(root.attributes['failures'], '1');
    assert.deepEqual(summary(root), [
      {
        suite: `${MIXED}/broken.yaml`,
        cases: [
          { name: 'ConfigMap default/settings', classname: `${MIXED}/broken.yaml`, failures: [], out: [] },
          {
            name: 'Service default/web',
            classname: `${MIXED}/broken.yaml`,
            failures: ['schema-type'],
            out: [],
          },
        ],
      },
      {
        suite: `${MIXED}/huge.yaml`,
        cases: [{ name: 'Deployment default/huge', classname: `${MIXED}/huge.yaml`, failures: [], out: [] }],
      },
      {
        suite: `${MIXED}/team.yaml`,
        cases: [
          {
            name: 'ConfigMap team/team-settings',
            classname: `${MIXED}/team.yaml`,
            failures: [],
            out: [
              `${MIXED}/team.yaml:10:3: warning yaml-duplicate-key Duplicate key "mode": this mapping already sets it. kubectl apply -f keeps this later value and silently drops the earlier one; kustomize refuses the file (kubectl apply -k: mapping key "mode" already defined).`,
            ],
          },
        ],
      },
      {
        suite: `${MIXED}/web.yaml`,
        cases: [{ name: 'Deployment default/web', classname: `${MIXED}/web.yaml`, failures: [], out: [] }],
      },
    ]);
    const failure = childrenNamed(childrenNamed(root, 'testsuite')[0] as XmlElement, 'testcase')
      .flatMap((testCase) => childrenNamed(testCase, 'failure'))
      .at(0);
    assert.equal(
      failure?.attributes['message'],
      '"spec.ports[0].port" must be integer, not string "eighty".',
    );
    assert.equal(
      failure?.text,
      `${MIXED}/broken.yaml:19:17: error schema-type ${failure?.attributes['message']}`,
    );
  });

  test('simulate: a Pending replica and a refused object are failures; a finding on no file is in the "cluster" suite', async () => {
    const { code, root } = await junitOf([
      'simulate',
      '--drain',
      'no-such-node@10',
      `${MIXED}/huge.yaml`,
      `${FIXTURES}/refused`,
    ]);
    assert.equal(code, 1);
    assert.equal(root.attributes['name'], 'foresight simulate');
    assertCounts(root);
    const cases = summary(root) as { suite: string; cases: { name: string; failures: string[] }[] }[];
    const failuresOf = (suite: string): unknown =>
      cases
        .find((entry) => entry.suite === suite)
        ?.cases.map((testCase) => [testCase.name, testCase.failures]);
    assert.deepEqual(failuresOf(`${MIXED}/huge.yaml`), [['Deployment default/huge', ['pod-unschedulable']]]);
    assert.deepEqual(failuresOf(`${FIXTURES}/refused/debug.yaml`), [
      ['Pod locked/debug', ['admission-refused']],
    ]);
    assert.deepEqual(failuresOf(`${FIXTURES}/refused/namespace.yaml`), [['Namespace locked', []]]);
    assert.deepEqual(failuresOf('cluster'), [['cluster', ['scenario-invalid']]]);
    assert.equal(root.attributes['failures'], '3');
  });

  test('a finding on no object is a case named after its document', async () => {
    const dir = scratch({
      'two.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\nkind: [unclosed\n',
    });
    const { root } = await junitOf(['validate', 'two.yaml'], dir);
    assertCounts(root);
    assert.deepEqual(summary(root), [
      {
        suite: 'two.yaml',
        cases: [
          { name: 'ConfigMap default/a', classname: 'two.yaml', failures: [], out: [] },
          { name: 'document 2', classname: 'two.yaml', failures: ['yaml-syntax'], out: [] },
        ],
      },
    ]);
  });

  test('file names and messages with <, &, quotes and control characters stay well-formed XML', async () => {
    const odd = 'odd <&"\'\u0007>.yaml';
    const config = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n';
    const dir = scratch({ 'a.yaml': config, [odd]: config });
    const result = await runForesight(['validate', '--output', 'junit', '.'], { cwd: dir });
    assert.ok(!result.stdout.includes('\u0007'), 'the control character is not written');
    const root = parseXml(result.stdout);
    assertCounts(root);
    const names = childrenNamed(root, 'testsuite').map((suite) => suite.attributes['name']);
    assert.deepEqual(names, ['a.yaml', 'odd <&"\'\\u0007>.yaml']);
    // a.yaml's ConfigMap is defined again in the odd file: the warning names it.
    const out = childrenNamed(childrenNamed(root, 'testsuite')[0] as XmlElement, 'testcase')[0];
    assert.match(childrenNamed(out as XmlElement, 'system-out')[0]?.text ?? '', /odd <&"'\\u0007>\.yaml/);
  });

  test('a failure message with markup, quotes, line breaks and control characters round-trips', () => {
    const message = 'a <b> & "c" \'d\'\r\nnext\tline \u0007 \u001b[0m \ud800 end';
    const run: CliRun = {
      command: 'validate',
      files: [{ file: 'k8s/web&<.yaml', subjects: ['Deployment default/web'] }],
      findings: [
        {
          code: 'schema-type',
          severity: 'error',
          message,
          object: {
            file: 'k8s/web&<.yaml',
            documentIndex: 0,
            path: [],
            kind: 'Deployment',
            namespace: 'default',
            name: 'web',
          },
          place: { file: 'k8s/web&<.yaml', start: { line: 2, character: 4 }, end: { line: 2, character: 8 } },
        },
      ],
    };
    const xml = formatJunit(run);
    assert.ok(!xml.includes('\u0007') && !xml.includes('\u001b'), 'no control character is written');
    const root = parseXml(xml);
    const testCase = childrenNamed(childrenNamed(root, 'testsuite')[0] as XmlElement, 'testcase')[0];
    assert.equal(testCase?.attributes['classname'], 'k8s/web&<.yaml');
    const failure = testCase === undefined ? undefined : childrenNamed(testCase, 'failure')[0];
    const expected = 'a <b> & "c" \'d\'\r\nnext\tline \\u0007 \\u001B[0m \\uD800 end';
    assert.equal(failure?.attributes['message'], expected);
    assert.equal(failure?.text, `k8s/web&<.yaml:3:5: error schema-type ${expected}`);
  });

  test('the strict reader used here refuses what XML refuses', () => {
    const BROKEN = ['<a b="<"/>', '<a>&</a>', '<a>&nbsp;</a>', '<a>\u0007</a>', '<a><b></a></b>', '<a/><b/>'];
    for (const xml of BROKEN) {
      assert.throws(() => parseXml(xml), Error, xml);
    }
  });
});
