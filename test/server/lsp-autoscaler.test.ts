/**
 * The cluster autoscaler in the editor: on a cluster file with a NodeGroup, a Deployment too big for the current
 * nodes gets information (not a warning) saying how long it waits for the scale-up and which group grows, and its
 * code lens says "scales workers +1"; a Deployment no group's template fits keeps its Pending warning plus the
 * autoscaler's reason.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CodeLensRequest } from 'vscode-languageserver-protocol/node';
import { LspSession } from '../support/lsp-session';

const CLUSTER = `apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels: {kubernetes.io/hostname: worker-1, pool: workers}
status:
  allocatable: {cpu: "2", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: worker-2
  labels: {kubernetes.io/hostname: worker-2, pool: workers}
status:
  allocatable: {cpu: "2", memory: 8Gi, pods: "110"}
---
apiVersion: foresight/v1
kind: NodeGroup
metadata: {name: workers}
spec:
  minSize: 1
  maxSize: 5
  selector: {matchLabels: {pool: workers}}
  template:
    metadata: {labels: {pool: workers}}
    status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
`;

function deployment(name: string, replicas: number, cpu: string, extra = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:${extra}
      containers:
        - name: app
          image: nginx:1.27
          resources: {requests: {cpu: ${cpu}, memory: 256Mi}}
`;
}

function open(
  session: LspSession,
  text: string,
): Promise<{ uri: string; codes: [string, number, string][]; related: string[] }> {
  const folder = mkdtempSync(join(tmpdir(), 'foresight-autoscaler-'));
  mkdirSync(join(folder, '.foresight'));
  writeFileSync(join(folder, '.foresight', 'cluster.yaml'), CLUSTER);
  writeFileSync(join(folder, 'app.yaml'), text);
  const uri = pathToFileURL(join(folder, 'app.yaml')).href;
  return session.open(uri, text).then((diagnostics) => ({
    uri,
    codes: diagnostics.map((d) => [String(d.code), d.severity ?? 0, d.message]),
    related: diagnostics.flatMap((d) => (d.relatedInformation ?? []).map((entry) => entry.message)),
  }));
}

describe('the cluster autoscaler over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  test('a Deployment too big for the nodes: information with the wait and the group, and "scales workers +1"', async () => {
    const { uri, codes } = await open(session, deployment('web', 6, '900m'));
    assert.deepEqual(
      codes.filter(([code]) => code.startsWith('pod-')),
      [
        [
          'pod-waits-for-scale-up',
          3,
          '2 pods of Deployment web: Pending for ~100 s until the cluster autoscaler adds a node to group `workers` (2 → 3 of max 5).',
        ],
      ],
    );
    const lenses = await session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    assert.match(
      lenses?.[0]?.command?.title ?? '',
      /^6\/6 scheduled · scales workers \+1 · Burstable · rollout/,
    );
  });

  test("a Deployment no group fits stays a warning, with the autoscaler's reason", async () => {
    const { codes, related } = await open(
      session,
      deployment('gpu', 1, '500m', '\n      nodeSelector: {accelerator: gpu}'),
    );
    // One cause, one entry in Problems (issue #28): the autoscaler's verdict is the Pending warning's related
    // information, not a second diagnostic on the same pod spec.
    assert.deepEqual(
      codes.map(([code, severity]) => [code, severity]),
      [['pod-unschedulable', 2]],
    );
    assert.equal(related.length, 1, JSON.stringify(related));
    assert.match(
      related[0] ?? '',
      /^Pod gpu-\S+ stays Pending, and the cluster autoscaler cannot help: pod didn't trigger scale-up: 1 node\(s\) didn't match Pod's node affinity\/selector$/,
    );
  });
});
