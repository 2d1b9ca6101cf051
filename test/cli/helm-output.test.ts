import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { JsonReport } from '../../server/src/cli/formats/report-json';
import { runCli } from '../../server/src/cli';

// `helm template … | foresight simulate -`, or a committed render: each finding names the chart template of its
// document (`# Source:`) in text, JSON, SARIF, JUnit and GitHub annotations, and is related to the template's file when the chart is in the
// working directory.

const RENDER = `---
# Source: web/templates/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: shop-web
spec:
  selector:
    app: web
  ports:
    - port: 80
      protocol: TCPP
---
# Source: web/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx:1.27
          resources:
            requests:
              cpu: "64"
`;

const CHART = {
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'charts/web/templates/deployment.yaml':
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n',
};

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'foresight-helm-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

async function run(args: readonly string[], cwd: string, stdin?: string) {
  let stdout = '';
  const code = await runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: () => undefined,
    cwd,
    ...(stdin === undefined ? {} : { readStdin: () => stdin }),
  });
  return { code, stdout };
}

describe('findings of helm template output name their chart template', () => {
  test('validate text: the finding line ends with the template it was rendered from', async () => {
    const root = tree({ 'rendered.yaml': RENDER });
    const { code, stdout } = await run(['validate', 'rendered.yaml'], root);
    assert.equal(code, 1);
    assert.match(
      stdout,
      /^rendered\.yaml:12:17: error schema-enum .*"TCPP".* \(from web\/templates\/service\.yaml\)$/m,
    );
  });

  test('simulate from standard input: JSON source on every finding, related to the chart template in the workspace', async () => {
    const root = tree(CHART);
    const { stdout } = await run(['simulate', '-o', 'json', '-'], root, RENDER);
    const report = JSON.parse(stdout) as JsonReport;
    const byCode = new Map(report.findings.map((finding) => [finding.code, finding]));
    assert.equal(byCode.get('schema-enum')?.source, 'web/templates/service.yaml');
    assert.equal(byCode.get('schema-enum')?.related, undefined);
    const pending = byCode.get('pod-unschedulable');
    assert.equal(pending?.file, '<stdin>');
    assert.equal(pending?.source, 'web/templates/deployment.yaml');
    assert.deepEqual(pending?.related, [
      {
        file: join('charts', 'web', 'templates', 'deployment.yaml'),
        message: 'rendered by helm template from web/templates/deployment.yaml',
      },
    ]);
  });

  test('simulate text names the template of the Pending pod', async () => {
    const { stdout } = await run(['simulate', '-'], tree({}), RENDER);
    assert.match(
      stdout,
      /^warning: <stdin>:\d+: .* \(from web\/templates\/deployment\.yaml\) \[pod-unschedulable\]$/m,
    );
  });

  test('SARIF: a related location naming the template, with its file when the chart is in the workspace', async () => {
    const root = tree({ ...CHART, 'rendered.yaml': RENDER });
    const { stdout } = await run(['simulate', '-o', 'sarif', 'rendered.yaml'], root);
    const results = (
      JSON.parse(stdout) as { runs: { results: { ruleId: string; relatedLocations?: unknown[] }[] }[] }
    ).runs[0]?.results;
    const related = new Map(results?.map((result) => [result.ruleId, result.relatedLocations]));
    assert.deepEqual(related.get('schema-enum'), [
      { id: 0, message: { text: 'rendered by helm template from web/templates/service.yaml' } },
    ]);
    assert.deepEqual(related.get('pod-unschedulable'), [
      {
        id: 0,
        message: { text: 'rendered by helm template from web/templates/deployment.yaml' },
        physicalLocation: { artifactLocation: { uri: 'charts/web/templates/deployment.yaml' } },
      },
    ]);
  });

  test('JUnit and GitHub annotations name the template too, as the text output does', async () => {
    const root = tree({ 'rendered.yaml': RENDER });
    const junit = await run(['simulate', '-o', 'junit', 'rendered.yaml'], root);
    assert.match(
      junit.stdout,
      /<failure message="[^"]*Pending[^"]* \(from web\/templates\/deployment\.yaml\)" type="pod-unschedulable">rendered\.yaml:\d+:\d+: warning pod-unschedulable .* \(from web\/templates\/deployment\.yaml\)<\/failure>/,
    );
    assert.match(
      junit.stdout,
      /rendered\.yaml:12:17: error schema-enum .* \(from web\/templates\/service\.yaml\)/,
    );
    let stdout = '';
    await runCli(['simulate', 'rendered.yaml'], {
      stdout: (text) => (stdout += text),
      stderr: () => undefined,
      cwd: root,
      env: { GITHUB_ACTIONS: 'true' },
    });
    assert.match(
      stdout,
      /^::error file=rendered\.yaml,line=12,[^:]*title=schema-enum::.* \(from web\/templates\/service\.yaml\)$/m,
    );
    assert.match(
      stdout,
      /^::warning file=rendered\.yaml,[^:]*title=pod-unschedulable::.* \(from web\/templates\/deployment\.yaml\)$/m,
    );
  });

  test('plain manifests without # Source: comments get no source', async () => {
    const root = tree({ 'plain.yaml': RENDER.replace(/^# Source: .*\n/gm, '') });
    const { stdout } = await run(['simulate', '-o', 'json', 'plain.yaml'], root);
    const report = JSON.parse(stdout) as JsonReport;
    assert.ok(report.findings.length > 0);
    assert.ok(
      report.findings.every((finding) => finding.source === undefined && finding.related === undefined),
    );
    const junit = await run(['simulate', '-o', 'junit', 'plain.yaml'], root);
    assert.doesNotMatch(junit.stdout, /\(from /);
  });
});
