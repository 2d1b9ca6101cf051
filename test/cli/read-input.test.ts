import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../../server/src/cli';
import type { JsonReport } from '../../server/src/cli/formats/report-json';

// Both commands read their input one way (kubectl's rules, standard input, Helm charts, duplicates) and agree.

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(args: readonly string[], cwd: string, stdin?: string): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd,
    ...(stdin === undefined ? {} : { readStdin: () => stdin }),
  });
  return { code, stdout, stderr };
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'foresight-input-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

const deployment = (replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          resources: {requests: {cpu: 100m, memory: 64Mi}}
`;

const CHART = {
  'chart/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'chart/values.yaml': 'replicaCount: 2\n',
  'chart/templates/deployment.yaml':
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicaCount }}\n',
};

describe('the input of foresight validate and simulate', () => {
  test('- reads standard input in validate', async () => {
    const result = await run(
      ['validate', '-'],
      tmpdir(),
      deployment(2).replace('replicas: 2', 'replicas: "2"'),
    );
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^<stdin>:6:\d+: error schema-type/m);
  });

  test('- reads standard input in simulate, as `kubectl kustomize DIR | foresight simulate -` does', async () => {
    const result = await run(['simulate', '--output', 'json', '-'], tmpdir(), deployment(2));
    assert.equal(result.code, 0);
    const report = JSON.parse(result.stdout) as JsonReport;
    assert.equal(report.pods.length, 2);
  });

  test('a Helm chart folder is skipped as a unit with one note, and both commands exit 0', async () => {
    const root = tree(CHART);
    const validate = await run(['validate', '-R', '.'], root);
    const simulate = await run(['simulate', '-R', '.'], root);
    assert.equal(validate.code, 0);
    assert.equal(simulate.code, 0);
    assert.match(
      validate.stdout,
      /^chart\/Chart\.yaml:1:1: information helm-chart-skipped chart is a Helm chart/m,
    );
    assert.match(simulate.stdout, /^note: chart\/Chart\.yaml: chart is a Helm chart/m);
    assert.ok(simulate.stdout.split('\n').length < 20, simulate.stdout);
  });

  test('a file named inside a chart folder is skipped as the editor skips it, even without template text', async () => {
    const root = tree({
      ...CHART,
      'chart/templates/configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 9_bad\n',
    });
    const validate = await run(['validate', 'chart/templates/configmap.yaml'], root);
    assert.equal(validate.code, 0);
    assert.match(
      validate.stdout,
      /^chart\/templates\/configmap\.yaml:1:1: information helm-chart-skipped This file is part of the Helm chart chart \(/m,
    );
    assert.doesNotMatch(validate.stdout, /invalid-name/);
  });

  test('a folder gives its own files only; -R adds its sub-folders, as kubectl apply -f DIR -R', async () => {
    const root = tree({
      'top.yaml': deployment(1),
      'sub/more.yaml': deployment(1).replace('name: web', 'name: api'),
    });
    const flat = JSON.parse((await run(['simulate', '--output', 'json', '.'], root)).stdout) as JsonReport;
    const deep = JSON.parse(
      (await run(['simulate', '--output', 'json', '-R', '.'], root)).stdout,
    ) as JsonReport;
    assert.deepEqual(
      flat.pods.map((pod) => pod.owner?.name),
      ['web'],
    );
    assert.deepEqual(
      deep.pods.map((pod) => pod.owner?.name),
      ['api', 'web'], // lexical order of the walk, as filepath.Walk: sub/ before top.yaml
    );
  });

  test('a Deployment defined in two files is one workload with the later replicas, and both commands warn', async () => {
    const root = tree({ 'a.yaml': deployment(4), 'b.yaml': deployment(1) });
    const simulate = await run(['simulate', '--output', 'json', '.'], root);
    const report = JSON.parse(simulate.stdout) as JsonReport;
    assert.equal(report.pods.length, 1);
    const duplicate = report.findings.find((finding) => finding.code === 'duplicate-object');
    assert.equal(duplicate?.file, 'a.yaml');
    assert.equal(duplicate?.line, 4);
    assert.match(duplicate?.message ?? '', /Deployment default\/web is defined again in b\.yaml:1/);
    const validate = await run(['validate', '.'], root);
    assert.equal(validate.code, 0);
    assert.match(
      validate.stdout,
      /^a\.yaml:4:9: warning duplicate-object Deployment default\/web is defined again in b\.yaml:1/m,
    );
  });

  test('generateName with apply is an error in both commands', async () => {
    const pod =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: job-\nspec:\n  containers: [{name: a, image: busybox}]\n';
    const validate = await run(['validate', '-'], tmpdir(), pod);
    const simulate = await run(['simulate', '-'], tmpdir(), pod);
    assert.equal(validate.code, 1);
    assert.equal(simulate.code, 1);
    assert.match(
      validate.stdout,
      /error generate-name-with-apply error: from job-: cannot use generate name with apply/,
    );
    assert.match(
      simulate.stdout,
      /error: <stdin>:4 metadata\.generateName: error: from job-: cannot use generate name with apply/,
    );
  });
});
