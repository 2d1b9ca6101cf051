import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonReport } from '../../server/src/cli/formats/report-json';
import { FIXTURES, runForesight } from './cli-harness';

// `-n/--namespace` as `kubectl apply -n`: on an install file whose objects name no namespace (the shape of Argo
// CD's manifests/install.yaml), every pod lands in the namespace given; an object pinned elsewhere is refused in
// kubectl's words, on its metadata.namespace, and the command exits 1.

const INSTALL = `${FIXTURES}/namespace-install/install.yaml`;
const ELSEWHERE = `${FIXTURES}/namespace-install/elsewhere.yaml`;
const NAMESPACE = `${FIXTURES}/namespace-install/namespace.yaml`;
const MISMATCH = `error: the namespace from the provided object "shop-staging" does not match the namespace "shop". You must pass '--namespace=shop-staging' to perform this operation.`;

describe('foresight -n/--namespace', () => {
  test('simulate -n shop puts every pod of the install in shop, and exits 0', async () => {
    const { code, stdout } = await runForesight(['simulate', '-n', 'shop', '-o', 'json', NAMESPACE, INSTALL]);
    const report = JSON.parse(stdout) as JsonReport;
    assert.equal(code, 0);
    assert.deepEqual(
      report.pods.map((pod) => pod.namespace),
      ['shop', 'shop', 'shop'],
    );
    assert.deepEqual(report.findings, []);
  });

  test('without -n the same install is simulated in default, as kubectl with the default context would', async () => {
    const { stdout } = await runForesight(['simulate', '-o', 'json', NAMESPACE, INSTALL]);
    const report = JSON.parse(stdout) as JsonReport;
    assert.deepEqual(
      report.pods.map((pod) => pod.namespace),
      ['default', 'default', 'default'],
    );
  });

  test('--namespace=NS is read as -n NS', async () => {
    const { stdout } = await runForesight(['simulate', '--namespace=shop', '-o', 'json', NAMESPACE, INSTALL]);
    const report = JSON.parse(stdout) as JsonReport;
    assert.deepEqual(
      report.pods.map((pod) => pod.namespace),
      ['shop', 'shop', 'shop'],
    );
  });

  test('simulate: an object naming another namespace is one error with kubectl message, the rest is applied', async () => {
    const { code, stdout } = await runForesight(['simulate', '-n', 'shop', NAMESPACE, INSTALL, ELSEWHERE]);
    assert.equal(code, 1);
    assert.ok(
      stdout.includes(`error: ${ELSEWHERE}:6 metadata.namespace: ${MISMATCH} [namespace-mismatch]`),
      stdout,
    );
    assert.equal(stdout.split('namespace-mismatch').length - 1, 1);
    assert.match(stdout, /shop\/shop-server-\S+ +Deployment\/shop-server/);
  });

  test('validate -n: the same error, at the line and column of metadata.namespace, exit 1', async () => {
    const { code, stdout } = await runForesight(['validate', '-n', 'shop', INSTALL, ELSEWHERE]);
    assert.equal(code, 1);
    // Two files on the command line are two units: the finding is under its unit's header.
    assert.ok(stdout.includes(`\n${ELSEWHERE}:6:14: error namespace-mismatch ${MISMATCH}\n`), stdout);
  });

  test('validate -n with the namespace the objects name: no finding', async () => {
    const { code, stdout } = await runForesight(['validate', '-n', 'shop-staging', ELSEWHERE]);
    assert.equal(code, 0);
    assert.match(stdout, /0 error\(s\), 0 other finding\(s\)/);
  });

  test('-n without a namespace is a usage error', async () => {
    const { code, stderr } = await runForesight(['validate', INSTALL, '-n']);
    assert.equal(code, 2);
    assert.match(stderr, /-n needs a namespace/);
    assert.match(stderr, /\[-n NAMESPACE\]/);
  });
});
