import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonReport } from '../../server/src/cli/formats/report-json';
import { FIXTURES, ROOT, runForesight, scratch } from './cli-harness';

// Template text is data inside strings: istio's istio-sidecar-injector ConfigMap holds Go templates (naming
// .Values) in block strings that istiod renders; the object is plain YAML that kubectl applies as it is.

const INJECTOR = `${FIXTURES}/istio-injector/injector-configmap.yaml`;

describe('Go templates in the strings of a plain object', () => {
  test('validate checks the ConfigMap and gives no "render it with helm template" advice', async () => {
    const { code, stdout } = await runForesight(['validate', '-o', 'json', INJECTOR]);
    const report = JSON.parse(stdout) as { findings: { code: string }[] };
    assert.equal(code, 0);
    assert.deepEqual(
      report.findings.map((finding) => finding.code),
      [],
    );
  });

  test('the ConfigMap is validated: a wrong field in it is found', async () => {
    const text = readFileSync(join(ROOT, INJECTOR), 'utf8').replace('  labels:\n', '  labelz:\n');
    const { code, stdout } = await runForesight(['validate', join(scratch({ 'i.yaml': text }), 'i.yaml')]);
    assert.equal(code, 1);
    assert.match(stdout, /i\.yaml:9:3: error schema-unknown-field .*labelz/);
    assert.doesNotMatch(stdout, /helm-template-skipped/);
  });

  test('simulate applies the ConfigMap: the pod reading its key starts, one reading another key never does', async () => {
    const good = await runForesight(['simulate', '-o', 'json', INJECTOR]);
    const report = JSON.parse(good.stdout) as JsonReport;
    assert.equal(good.code, 0);
    assert.deepEqual(report.findings, []);
    const text = readFileSync(join(ROOT, INJECTOR), 'utf8').replace('key: config', 'key: mesh');
    const bad = await runForesight(['simulate', join(scratch({ 'i.yaml': text }), 'i.yaml')]);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /couldn't find key mesh in ConfigMap istio-system\/istio-sidecar-injector/);
  });
});
