import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../server/src/cli';
import type { CliIo } from '../../server/src/cli/io';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(args: string[], cwd: string): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

const VALID = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n';
const BROKEN =
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: "3"\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: app\n          image: nginx\n';

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'foresight-cli-'));
  mkdirSync(join(root, 'k8s', 'nested'), { recursive: true });
  writeFileSync(join(root, 'k8s', 'config.yaml'), VALID);
  writeFileSync(join(root, 'k8s', 'nested', 'deploy.yml'), BROKEN);
  writeFileSync(join(root, 'k8s', 'nested', 'notes.txt'), 'not a manifest');
  writeFileSync(
    join(root, 'k8s', 'service.json'),
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { ports: [{ port: 'eighty' }] },
    }),
  );
  return root;
}

describe('foresight validate', () => {
  test('a clean file exits 0 and says how many files, units and objects were checked', async () => {
    const root = workspace();
    const result = await run(['validate', 'k8s/config.yaml'], root);
    assert.equal(result.code, 0);
    assert.equal(
      result.stdout,
      '1 file(s) read, 1 apply unit, 1 object(s), checked against Kubernetes 1.35: 0 error(s), 0 other finding(s).\n',
    );
  });

  test('a directory is read as kubectl apply -f reads it: its .yaml, .yml and .json files, no sub-folder', async () => {
    const root = workspace();
    const result = await run(['validate', 'k8s'], root);
    assert.equal(result.code, 1);
    const lines = result.stdout.trim().split('\n');
    assert.deepEqual(lines.slice(0, -2), [
      'k8s/service.json:1:88: error schema-type "spec.ports[0].port" must be integer, not string "eighty".',
    ]);
    assert.match(
      lines.at(-2) ?? '',
      /^2 file\(s\) read, 1 apply unit, \d+ object\(s\), checked against Kubernetes 1\.35: 1 error\(s\)/,
    );
    assert.equal(lines.at(-1), 'exit 1: 1 error (--fail-on error)');
  });

  test('with -R each sub-folder is a unit of its own, and errors exit 1 as file:line:col lines under their unit', async () => {
    const root = workspace();
    const result = await run(['validate', '-R', 'k8s'], root);
    assert.equal(result.code, 1);
    const lines = result.stdout.trim().split('\n');
    assert.deepEqual(lines.slice(0, -2), [
      '== k8s (kubectl apply -f)',
      'k8s/service.json:1:88: error schema-type "spec.ports[0].port" must be integer, not string "eighty".',
      '== k8s/nested (kubectl apply -f)',
      'k8s/nested/deploy.yml:6:13: error schema-type "spec.replicas" must be integer, not string "3"; remove the quotes.',
    ]);
    assert.match(
      lines.at(-2) ?? '',
      /^3 file\(s\) read, 2 apply units, \d+ object\(s\), checked against Kubernetes 1\.35: 2 error\(s\)/,
    );
    assert.equal(lines.at(-1), 'exit 1: 2 errors (--fail-on error)');
  });

  test('--output json gives the same findings as data', async () => {
    const root = workspace();
    const result = await run(['validate', '--output', 'json', 'k8s/nested'], root);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as {
      summary: { errors: number };
      findings: { file: string; line: number; column: number; code: string }[];
    };
    assert.equal(report.summary.errors, 1);
    assert.deepEqual(
      report.findings.map((f) => [f.file, f.line, f.column, f.code]),
      [['k8s/nested/deploy.yml', 6, 13, 'schema-type']],
    );
  });

  test('--kubernetes-version selects the schemas', async () => {
    const root = workspace();
    const result = await run(['validate', '--kubernetes-version', '1.33', 'k8s/config.yaml'], root);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /Kubernetes 1\.33/);
  });

  const usageErrors: { name: string; args: string[]; message: RegExp }[] = [
    { name: 'no path', args: ['validate'], message: /no PATH given/ },
    {
      name: 'an unknown option',
      args: ['validate', '--frobnicate', 'k8s'],
      message: /unknown option --frobnicate/,
    },
    {
      name: 'an unsupported version',
      args: ['validate', '--kubernetes-version', '1.9', 'k8s'],
      message: /must be one of 1\.33, 1\.34, 1\.35/,
    },
    { name: 'a missing path', args: ['validate', 'nowhere'], message: /no such file or directory: nowhere/ },
    { name: 'an unknown command', args: ['frobnicate'], message: /unknown command "frobnicate"/ },
  ];
  for (const { name, args, message } of usageErrors) {
    test(`${name} is a usage error: exit 2 with a message on stderr`, async () => {
      const result = await run(args, workspace());
      assert.equal(result.code, 2);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    });
  }
});

describe('foresight validate: apply units', () => {
  test('with -R two folders defining the same objects are two applies: one overlap note, no duplicate-object', async () => {
    const root = mkdtempSync(join(tmpdir(), 'foresight-units-'));
    for (const folder of ['install', 'ha']) {
      mkdirSync(join(root, folder));
      writeFileSync(join(root, folder, 'install.yaml'), `${VALID}---\n${VALID.replace('settings', 'other')}`);
    }
    const result = await run(['validate', '-R', '.'], root);
    assert.equal(result.code, 0, result.stdout);
    assert.doesNotMatch(result.stdout, /duplicate-object/);
    assert.equal(result.stdout.match(/information kustomizations-overlap/g)?.length, 1, result.stdout);
    assert.match(result.stdout, /^== ha \(kubectl apply -f\)$/m);
    assert.match(result.stdout, /^2 file\(s\) read, 2 apply units, 4 object\(s\)/m);
  });

  test('a file named on the command line is a unit of its own, and standard input another', async () => {
    const root = workspace();
    let stdout = '';
    const code = await runCli(['validate', 'k8s/config.yaml', '-'], {
      stdout: (text) => (stdout += text),
      stderr: () => undefined,
      cwd: root,
      readStdin: () => VALID,
    });
    assert.equal(code, 0, stdout);
    assert.doesNotMatch(stdout, /duplicate-object/);
    assert.match(stdout, /^2 file\(s\) read, 2 apply units, 2 object\(s\)/m);
  });

  test('input left unchecked (a file over the size limit) fails the run, as an error would, and says so', async () => {
    const root = workspace();
    // Over 1 KiB: the limit set for this run, so the file is not analysed at all.
    writeFileSync(join(root, 'k8s', 'large.yaml'), `${VALID}${'# padding\n'.repeat(150)}`);
    const args = ['validate', '--max-file-size-kb', '1', 'k8s/large.yaml'];
    const failed = await run(args, root);
    assert.equal(failed.code, 1, failed.stdout);
    assert.match(failed.stdout, /^k8s\/large\.yaml:1:1: information file-too-large /m);
    assert.match(failed.stdout, /: 0 error\(s\), 1 input\(s\) not checked, 0 other finding\(s\)\.\n/);
    assert.equal(
      failed.stdout.trimEnd().split('\n').at(-1),
      'exit 1: 1 input not checked [1 file-too-large] (--fail-on error)',
    );
    const reported = await run([...args, '--fail-on', 'never'], root);
    assert.equal(reported.code, 0, 'reported, not failed, when the run is told never to fail');
    const junit = await run([...args, '--output', 'junit'], root);
    assert.equal(junit.code, 1);
    assert.match(junit.stdout, /<failure [^>]*file-too-large/);
    assert.equal(
      junit.stderr,
      'foresight validate: exit 1: 1 input not checked [1 file-too-large] (--fail-on error)\n',
    );
  });
});
