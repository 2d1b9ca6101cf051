/**
 * The timeline panel of a kustomize base whose workloads' selector an overlay supplies (issue #28 item 5: an empty
 * timeline says why it is empty): the base as written runs no pod, and the report names the files whose selector
 * comes from the overlay, for the panel to say so instead of "its manifests create no pod".
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { SIMULATION_REQUEST } from '../../protocol/messages';
import type { SimulationResult } from '../../protocol/messages';
import { LspSession } from '../support/lsp-session';

const FIXTURE = join(__dirname, '../fixtures/kustomize-files/overlay-includes-selectors');

describe('the timeline of a kustomize base, over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start({}, { workspaceFolders: [FIXTURE] });
  });
  after(async () => {
    await session.stop();
  });

  const simulate = (folder: string): Promise<SimulationResult> =>
    session.connection.sendRequest<SimulationResult>(SIMULATION_REQUEST, {
      uri: pathToFileURL(join(FIXTURE, folder)).href,
    });

  test('the base: no pod of its own, and the file whose selector the overlay supplies is named', async () => {
    const result = await simulate('base');
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(
      result.report.pods.filter((pod) => pod.owner?.name.startsWith('catalog') === true),
      [],
    );
    assert.deepEqual(result.report.selectorFromOverlay, [
      pathToFileURL(join(FIXTURE, 'base', 'deployment.yaml')).href,
    ]);
    // The overlay that includes it is named, for the panel to offer its timeline (its render).
    assert.deepEqual(result.report.includedBy, [
      { uri: pathToFileURL(join(FIXTURE, 'overlays', 'prod')).href, label: 'overlays/prod' },
    ]);
  });

  test('a folder of plain manifests (examples/web-app) has no such file: the field is absent', async () => {
    const result = await session.connection.sendRequest<SimulationResult>(SIMULATION_REQUEST, {
      uri: pathToFileURL(join(__dirname, '../../examples/web-app')).href,
    });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.report.selectorFromOverlay, undefined);
    assert.equal(result.report.includedBy, undefined);
  });
});
