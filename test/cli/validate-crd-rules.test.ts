import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../server/src/cli';
import type { CliIo } from '../../server/src/cli/io';

const ROOT = join(__dirname, '..', '..');
const FIXTURE = 'test/fixtures/language/rules/crd-rules/input.yaml';

void describe('foresight validate on a CRD and its custom resources', () => {
  void test('CEL rule failures, list-map and set duplicates and unknown fields print as the API server words them', async () => {
    let stdout = '';
    const io: CliIo = { stdout: (text) => (stdout += text), stderr: () => undefined, cwd: ROOT };
    const code = await runCli(['validate', FIXTURE], io);
    const lines = stdout.split('\n').filter((line) => line.startsWith(FIXTURE));
    const errors = lines.filter((line) => / error /.test(line)).map((line) => line.slice(FIXTURE.length + 1));
    assert.equal(code, 1);
    assert.deepEqual(errors, [
      '78:1: error crd-validation-rule spec: Invalid value: "object": at most 2 listeners, got 3',
      '78:1: error crd-validation-rule spec: Invalid value: "object": the homepage must be served over https',
      '79:3: error crd-validation-rule spec.port: Forbidden: tls needs port 443',
      '82:3: error crd-validation-rule spec.listeners: Invalid value: "array": failed rule: self.all(l, l.port > 0 && l.name.matches(\'^(?i)[a-z]+$\'))',
      '84:7: error crd-list-duplicate spec.listeners[1]: Duplicate value: {"name":"web"}',
      '86:16: error crd-list-duplicate spec.aliases[1]: Duplicate value: "a"',
      '87:3: error schema-unknown-field unknown field "spec.extra"',
    ]);
    // The format.* rule is not evaluated: one note per custom resource, never an error.
    assert.equal(lines.filter((line) => / information crd-rule-not-evaluated /.test(line)).length, 2);
  });
});
