/**
 * Severity follows certainty: replicas that stay Pending on a capture (a cluster file with a Capture header) are
 * what a real apply gets, an error of their own code; the same nodes in a file without the header give the
 * warning; on a profile the warning names the cluster it assumed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runForesight, scratch } from '../cli-harness';

const NODES = [
  'apiVersion: v1',
  'kind: List',
  'items:',
  '- {apiVersion: v1, kind: Node, metadata: {name: node-1, labels: {kubernetes.io/hostname: node-1}}, status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}}',
  '- {apiVersion: v1, kind: Namespace, metadata: {name: default}}',
  '',
].join('\n');

const HEADER = [
  'apiVersion: foresight/v1',
  'kind: Capture',
  'spec: {context: prod, capturedAt: "2026-03-02T10:15:00Z", serverVersion: v1.35.0, kinds: [nodes, namespaces, pods]}',
  '---',
  '',
].join('\n');

const DEPLOYMENT = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata: {name: api}',
  'spec:',
  '  replicas: 1',
  '  selector: {matchLabels: {app: api}}',
  '  template:',
  '    metadata: {labels: {app: api}}',
  '    spec:',
  '      containers: [{name: api, image: "registry.example/api:1", resources: {requests: {cpu: "3"}}}]',
  '',
].join('\n');

/** The SARIF results of a simulation: level, rule and message. */
async function findings(args: readonly string[], folder: string): Promise<{ code: number; found: string[] }> {
  const result = await runForesight(['simulate', '--output', 'sarif', ...args], { cwd: folder });
  const sarif = JSON.parse(result.stdout) as {
    runs: { results: { ruleId: string; level: string; message: { text: string } }[] }[];
  };
  return {
    code: result.code,
    found: (sarif.runs[0]?.results ?? []).map(
      (entry) => `${entry.level} ${entry.ruleId}: ${entry.message.text}`,
    ),
  };
}

const PENDING =
  'Its only replica stays Pending: 0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';

describe('the severity of a Pending prediction follows the cluster', () => {
  test('on a capture it is an error, pod-unschedulable-on-capture', async () => {
    const folder = scratch({ 'cluster.yaml': `${HEADER}${NODES}`, 'api.yaml': DEPLOYMENT });
    const { code, found } = await findings(['--cluster', 'cluster.yaml', 'api.yaml'], folder);
    assert.deepEqual(found, [`error pod-unschedulable-on-capture: ${PENDING}`]);
    assert.equal(code, 1);
  });

  test('the same nodes without the header: the warning', async () => {
    const folder = scratch({ 'cluster.yaml': NODES, 'api.yaml': DEPLOYMENT });
    const { code, found } = await findings(['--cluster', 'cluster.yaml', 'api.yaml'], folder);
    assert.deepEqual(found, [`warning pod-unschedulable: ${PENDING}`]);
    assert.equal(code, 1, 'a predicted failure either way: --fail-on prediction counts it');
  });

  test('on the minikube profile: the warning, saying which cluster it assumed', async () => {
    const folder = scratch({ 'api.yaml': DEPLOYMENT });
    const { found } = await findings(['--profile', 'minikube', 'api.yaml'], folder);
    assert.deepEqual(found, [`warning pod-unschedulable: ${PENDING} (assumed cluster: profile "minikube")`]);
  });
});
