/**
 * The Kubernetes version the editor checks a document with, over LSP, as the CLI chooses it: the setting when the
 * user set it (the extension sends kubernetesVersionSet from VS Code's inspect()), else the version the nearest
 * capture's header records. A DeviceClass of resource.k8s.io/v1 (served from 1.34 on) shows the difference on a
 * capture of a 1.33 API server.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ConfigurationRequest } from 'vscode-languageserver-protocol/node';
import { STATUS_NOTIFICATION } from '../../protocol/messages';
import type { StatusParams } from '../../protocol/messages';
import { LspSession } from '../support/lsp-session';

const DEVICE_CLASS = 'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec: {}\n';

const CAPTURE = [
  'apiVersion: foresight/v1',
  'kind: Capture',
  'spec: {context: prod, capturedAt: "2026-11-01T10:15:00Z", serverVersion: v1.33.4, kinds: [nodes]}',
  '---',
  'apiVersion: v1',
  'kind: List',
  'items:',
  '- {apiVersion: v1, kind: Node, metadata: {name: node-1, labels: {kubernetes.io/hostname: node-1}}, status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}',
  '',
].join('\n');

describe('the version the editor checks with follows the capture unless the user set one', () => {
  let session: LspSession;
  let folder: string;
  let uri: string;
  /** What the client answers for kubernetesVersionSet; undefined: it says nothing (another editor). */
  let versionSet: boolean | undefined = false;
  const statuses: StatusParams[] = [];
  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'foresight-capture-version-'));
    mkdirSync(join(folder, '.foresight'));
    writeFileSync(join(folder, '.foresight', 'cluster.yaml'), CAPTURE);
    writeFileSync(join(folder, 'gpu.yaml'), DEVICE_CLASS);
    uri = pathToFileURL(join(folder, 'gpu.yaml')).href;
    session = await LspSession.start({ workspace: { configuration: true } }, { workspaceFolders: [folder] });
    session.connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map(() => (versionSet === undefined ? {} : { kubernetesVersionSet: versionSet })),
    );
    session.connection.onNotification(STATUS_NOTIFICATION, (params: StatusParams) => statuses.push(params));
  });
  after(async () => {
    await session.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test('not set: the capture’s 1.33 applies, and the kind served from 1.34 on is an error that says why', async () => {
    const diagnostics = await session.open(uri, DEVICE_CLASS);
    assert.equal(statuses.at(-1)?.kubernetesVersion, '1.33');
    const unknown = diagnostics.find((diagnostic) => diagnostic.code === 'unknown-kind');
    assert.match(
      unknown?.message ?? '',
      /served from Kubernetes 1\.34 on; the version checked is 1\.33 \(.*else the captured cluster's\)\.$/,
    );
  });

  test('set by the user (1.35, the default value written explicitly): the setting applies', async () => {
    versionSet = true;
    const published = session.diagnostics(uri);
    await session.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    const diagnostics = await published;
    assert.equal(statuses.at(-1)?.kubernetesVersion, '1.35');
    assert.ok(!diagnostics.some((diagnostic) => diagnostic.code === 'unknown-kind'));
  });

  test('a client that does not say keeps the setting’s value', async () => {
    versionSet = undefined;
    const published = session.diagnostics(uri);
    await session.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    const diagnostics = await published;
    assert.equal(statuses.at(-1)?.kubernetesVersion, '1.35');
    assert.ok(!diagnostics.some((diagnostic) => diagnostic.code === 'unknown-kind'));
  });
});
