/**
 * Which cluster the editor's predictions use, over LSP: the status names it and says why (the setting, the nearest
 * .foresight/cluster.yaml, a profile, the embedded default), as the cluster picker shows it; `profile:NAME` in
 * kubeForesight.cluster predicts on a profile, whose Pending warning names the cluster it assumed; the server lists
 * the profiles for the picker; and after a capture is written, the open manifests are predicted again with it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ConfigurationRequest } from 'vscode-languageserver-protocol/node';
import { CLUSTER_WRITTEN_NOTIFICATION, PROFILES_REQUEST, STATUS_NOTIFICATION } from '../../protocol/messages';
import type { ProfilesResult, StatusParams } from '../../protocol/messages';
import { LspSession } from '../support/lsp-session';

/** A Deployment of one replica asking 3 cpu whose container reads a Secret. */
const MANIFEST = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata: {name: api, namespace: default}',
  'spec:',
  '  replicas: 1',
  '  selector: {matchLabels: {app: api}}',
  '  template:',
  '    metadata: {labels: {app: api}}',
  '    spec:',
  '      containers:',
  '        - name: api',
  '          image: registry.example/api:1',
  '          resources: {requests: {cpu: "3"}}',
  '          env: [{name: TOKEN, valueFrom: {secretKeyRef: {name: api-token, key: token}}}]',
  '',
].join('\n');

/** A capture of one 8-cpu node whose header covers Secrets (and lists none). */
const CAPTURE = [
  'apiVersion: foresight/v1',
  'kind: Capture',
  'spec: {context: prod, capturedAt: "2026-03-02T10:15:00Z", serverVersion: v1.35.0, kinds: [nodes, namespaces, secrets]}',
  '---',
  'apiVersion: v1',
  'kind: List',
  'items:',
  '- {apiVersion: v1, kind: Node, metadata: {name: node-1, labels: {kubernetes.io/hostname: node-1}}, status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}',
  '- {apiVersion: v1, kind: Namespace, metadata: {name: default}}',
  '',
].join('\n');

describe('the cluster the editor predicts on, over LSP', () => {
  let session: LspSession;
  let folder: string;
  let uri: string;
  let cluster = '';
  const statuses: StatusParams[] = [];
  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'foresight-cluster-choice-'));
    writeFileSync(join(folder, 'api.yaml'), MANIFEST);
    uri = pathToFileURL(join(folder, 'api.yaml')).href;
    session = await LspSession.start({ workspace: { configuration: true } }, { workspaceFolders: [folder] });
    session.connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map(() => ({ cluster })),
    );
    session.connection.onNotification(STATUS_NOTIFICATION, (params: StatusParams) => statuses.push(params));
  });
  after(async () => {
    await session.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test('without a setting or a cluster file: the embedded default, and the status says so', async () => {
    const diagnostics = await session.open(uri, MANIFEST);
    assert.deepEqual(statuses.at(-1), {
      kubernetesVersion: '1.35',
      cluster: 'embedded default',
      choice: { reason: 'embedded' },
    });
    // The Secret is assumed to exist on the embedded default.
    assert.ok(diagnostics.some((diagnostic) => diagnostic.code === 'config-object-assumed'));
  });

  test('profile:minikube: predicted on its 2-cpu node, the warning names the assumed cluster', async () => {
    cluster = 'profile:minikube';
    const published = session.diagnostics(uri);
    await session.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    const diagnostics = await published;
    const pending = diagnostics.find((diagnostic) => diagnostic.code === 'pod-unschedulable');
    assert.match(
      pending?.message ?? '',
      /0\/1 nodes are available: 1 Insufficient cpu\..*\(assumed cluster: profile "minikube"\)$/,
    );
    assert.equal(pending?.severity, 2);
    assert.deepEqual(statuses.at(-1), {
      kubernetesVersion: '1.35',
      cluster: 'profile minikube',
      choice: { reason: 'profile', profile: 'minikube' },
    });
  });

  test('the server lists the profiles for the picker', async () => {
    const profiles = await session.connection.sendRequest<ProfilesResult>(PROFILES_REQUEST, {});
    assert.deepEqual(
      profiles.map((profile) => profile.name),
      ['default', 'gke', 'eks', 'aks', 'kind', 'k3d', 'minikube'],
    );
    assert.ok(profiles.every((profile) => profile.title.length > 20));
  });

  test('a capture written as .foresight/cluster.yaml is predicted on once the server is told: the Secret is missing', async () => {
    cluster = '';
    await session.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await session.diagnostics(uri);
    mkdirSync(join(folder, '.foresight'));
    writeFileSync(join(folder, '.foresight', 'cluster.yaml'), CAPTURE);
    const published = session.diagnostics(uri);
    await session.connection.sendNotification(CLUSTER_WRITTEN_NOTIFICATION);
    const diagnostics = await published;
    assert.deepEqual(
      diagnostics
        .filter((diagnostic) => diagnostic.severity === 1)
        .map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [
        [
          'container-cannot-start',
          '1 pod of Deployment "api" stay in CreateContainerConfigError and never start: secret "api-token" not found',
        ],
      ],
    );
    assert.deepEqual(statuses.at(-1), {
      kubernetesVersion: '1.35',
      cluster: 'cluster.yaml',
      choice: { reason: 'nearest', path: join(folder, '.foresight', 'cluster.yaml') },
    });
  });
});
