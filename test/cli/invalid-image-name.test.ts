import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { JsonReport } from '../../server/src/cli/formats/report-json';
import { runForesight, scratch } from './cli-harness';

// An image the kubelet cannot parse, as a user meets it: a ko:// path left in a repository's source manifests
// (they are meant for `ko resolve`). The report's pods[].waiting and the finding on the image field say
// InvalidImageName in the kubelet's words.

const KO = 'ko://github.com/tektoncd/operator/cmd/kubernetes/webhook';
const MESSAGE = `Failed to apply default image tag "${KO}": couldn't parse image name "${KO}": invalid reference format`;
const WEBHOOK = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: webhook
spec:
  selector:
    matchLabels: {app: webhook}
  template:
    metadata:
      labels: {app: webhook}
    spec:
      containers:
        - name: webhook
          image: ${KO}
`;

describe('InvalidImageName in the outputs of simulate', () => {
  const file = join(scratch({ 'webhook.yaml': WEBHOOK }), 'webhook.yaml');

  test('JSON: the pod waits in InvalidImageName, and the finding is on the image line', async () => {
    const { code, stdout } = await runForesight(['simulate', '-o', 'json', file]);
    const report = JSON.parse(stdout) as JsonReport;
    assert.equal(code, 1);
    assert.deepEqual(report.pods[0]?.waiting, { reason: 'InvalidImageName', message: MESSAGE });
    const finding = report.findings.find((entry) => entry.code === 'container-cannot-start');
    assert.equal(finding?.line, 14);
    assert.deepEqual(finding?.path, ['spec', 'template', 'spec', 'containers', 0, 'image']);
  });

  test('text: the error names file, line and field, and the pods table says why the pod never starts', async () => {
    const { stdout } = await runForesight(['simulate', file]);
    assert.ok(
      stdout.includes(
        `webhook.yaml:14 spec.template.spec.containers[0].image: 1 pod of Deployment "webhook" stay in InvalidImageName and never start: ${MESSAGE} [container-cannot-start]`,
      ),
      stdout,
    );
    assert.ok(stdout.includes(`never starts: InvalidImageName: ${MESSAGE}`), stdout);
  });
});
