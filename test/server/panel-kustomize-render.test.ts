/**
 * The timeline panel and Preview Apply read a kustomization folder as `kubectl apply -k` applies it (issue #28:
 * the panel reads as people apply): an overlay's render, through the editor's one render path (the real
 * kustomize, host/overlay-renders.ts renderForPanel), with each pod located on the line of the file its object
 * came from; a base read as written names the overlays that include it; a kustomization that cannot be rendered
 * is a message, never its files read raw. Fixture: test/fixtures/kustomize-overlays (README.md there). Requires
 * `npm run build` first.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { PLAN_REQUEST, SIMULATION_REQUEST } from '../../protocol/messages';
import type { PlanResult, SimulationResult } from '../../protocol/messages';
import { findKustomize } from '../../server/src/files/kustomize/render-kustomization';
import { LspSession } from '../support/lsp-session';

const ROOT = join(__dirname, '..', 'fixtures', 'kustomize-overlays');
const kustomize = findKustomize(process.env['FORESIGHT_KUSTOMIZE'], process.env['PATH']);
const MISSING = 'neither kubectl nor kustomize is on PATH';
/** Skips when kustomize is missing, except in CI, where the test fails instead (the image has kubectl). */
const needsKustomize = { skip: kustomize === undefined && process.env['CI'] !== 'true' ? MISSING : false };

const uriOf = (folder: string): string => pathToFileURL(join(ROOT, folder)).href;

/** The 1-based line of the first line of `file` (under ROOT) that matches. */
function lineOf(file: string, pattern: RegExp): number {
  const index = readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .findIndex((line) => pattern.test(line));
  assert.ok(index >= 0, `${file} has no line matching ${String(pattern)}`);
  return index + 1;
}

describe('the panels of a kustomization folder, over LSP (real kustomize, trusted workspace)', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start({}, { workspaceFolders: [ROOT] });
  });
  after(async () => {
    await session.stop();
  });

  const simulate = (folder: string): Promise<SimulationResult> =>
    session.connection.sendRequest<SimulationResult>(SIMULATION_REQUEST, { uri: uriOf(folder) });

  test(
    "an overlay's timeline replays its render: the namePrefix and patched replicas, located on the base's lines",
    needsKustomize,
    async () => {
      const result = await simulate('shop/overlays/prod');
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.report.renderOf, 'shop/overlays/prod');
      const web = result.report.pods.filter((pod) => pod.owner?.name.startsWith('prod-web') === true);
      // replicas.yaml sets 6; as written, the base alone runs 2 pods named web-….
      assert.equal(web.length, 6, JSON.stringify(result.report.pods.map((pod) => pod.name)));
      assert.equal(
        result.report.pods.some((pod) => pod.owner?.name.startsWith('web') === true),
        false,
      );
      // 3 CPUs each (the JSON 6902 patch) on three 4-CPU workers: three stay Pending.
      assert.equal(web.filter((pod) => pod.nodeName === null).length, 3);
      // Each pod's manifest is the base's Deployment, on its own line (not a line of the rendered text).
      const location = web[0]?.location;
      assert.equal(location?.uri, pathToFileURL(join(ROOT, 'shop/base/deployment.yaml')).href);
      // The pod template's first line (0-based: the line after `template:`), as the base read alone locates it.
      assert.equal(
        location?.line,
        lineOf('shop/base/deployment.yaml', /^ {2}template:/),
        JSON.stringify(location),
      );
    },
  );

  test(
    'a file of the overlay names the same folder: its render is replayed too',
    needsKustomize,
    async () => {
      const result = await simulate('shop/overlays/prod/replicas.yaml');
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.report.renderOf, 'shop/overlays/prod');
    },
  );

  test(
    'Preview Apply plans the render: the prefixed Deployment, its Pending replicas on the patch',
    needsKustomize,
    async () => {
      const result = await session.connection.sendRequest<PlanResult>(PLAN_REQUEST, {
        uri: uriOf('shop/overlays/prod'),
      });
      assert.ok(result.ok, JSON.stringify(result));
      const names = JSON.stringify(result.plan);
      assert.match(names, /prod-web/);
      assert.doesNotMatch(names, /"name":"web"/);
      // The replicas that do not fit are put on the JSON 6902 patch that asks for 3 CPUs (as `foresight plan`
      // puts them), named by a file URI the panel links.
      const patch = pathToFileURL(join(ROOT, 'shop/overlays/prod/cpu.json-patch.yaml')).href;
      assert.ok(
        result.plan.problems.some((problem) => problem.file === patch),
        JSON.stringify(result.plan.problems),
      );
      assert.ok(result.plan.problems.every((problem) => problem.file?.startsWith('file:') ?? true));
    },
  );

  test('a base is read as written, and names the overlays that include it', needsKustomize, async () => {
    const result = await simulate('shop/base');
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.report.renderOf, undefined);
    assert.deepEqual(result.report.includedBy, [
      { uri: uriOf('shop/overlays/prod'), label: 'shop/overlays/prod' },
      { uri: uriOf('shop/overlays/zonal'), label: 'shop/overlays/zonal' },
    ]);
  });

  test(
    "an overlay kustomize cannot render is kustomize's message, not its files",
    needsKustomize,
    async () => {
      const result = await simulate('failing/overlay');
      assert.equal(result.ok, false);
      assert.match(
        result.ok ? '' : result.message,
        /^overlay is a kustomization: kubectl apply -k applies its render, not its files as written, and kustomize could not render it: .+, so it is not replayed\. Fix what kustomize says/s,
      );
    },
  );

  test('a kustomization with a remote base is not fetched: the message says how to allow it', async () => {
    const result = await simulate('remote');
    assert.equal(result.ok, false);
    assert.match(
      result.ok ? '' : result.message,
      /it names remote bases \(.+\) that rendering would fetch, so it is not replayed\. Set kubeForesight\.kustomize\.allowRemote/,
    );
  });
});

describe("the timeline of an overlay that supplies its base's selector, over LSP", () => {
  const fixture = join(__dirname, '..', 'fixtures', 'kustomize-files', 'overlay-includes-selectors');
  const base = join(fixture, 'base', 'deployment.yaml');
  let session: LspSession;
  before(async () => {
    session = await LspSession.start({}, { workspaceFolders: [fixture] });
  });
  after(async () => {
    await session.stop();
  });

  test(
    'pods that exist only in the render run, located on the lines of the base file (below its comment)',
    needsKustomize,
    async () => {
      const result = await session.connection.sendRequest<SimulationResult>(SIMULATION_REQUEST, {
        uri: pathToFileURL(join(fixture, 'overlays', 'prod')).href,
      });
      assert.ok(result.ok, JSON.stringify(result));
      const catalog = result.report.pods.filter((pod) => pod.owner?.name.startsWith('catalog') === true);
      // As written the base has no selector and runs no pod (panel-kustomize-base.test.ts); its render runs 2.
      assert.equal(catalog.length, 2);
      assert.equal(result.report.selectorFromOverlay, undefined);
      // The render's template has labels the base's lacks: the pod is put on the base's `template:` (line 10;
      // the rendered text has neither its 3 comment lines nor its line numbers).
      const templateLine = readFileSync(base, 'utf8')
        .split('\n')
        .findIndex((line) => line === '  template:');
      assert.deepEqual(catalog[0]?.location, {
        uri: pathToFileURL(base).href,
        line: templateLine,
        character: 2,
      });
    },
  );
});

describe("the panels reuse the editor's render of an overlay, over LSP", () => {
  let fakeBin: string;
  let runs: string;
  before(() => {
    fakeBin = mkdtempSync(join(tmpdir(), 'foresight-counting-kubectl-'));
    runs = join(fakeBin, 'runs');
    // A kubectl that writes a line per run (shell built-ins only: PATH holds only this folder), then runs the real one.
    writeFileSync(
      join(fakeBin, 'kubectl'),
      `#!/bin/sh\necho run >> '${runs}'\nexec '${kustomize?.file ?? 'kubectl'}' "$@"\n`,
    );
    chmodSync(join(fakeBin, 'kubectl'), 0o755);
  });
  after(() => {
    rmSync(fakeBin, { recursive: true, force: true });
  });
  const runCount = (): number => {
    try {
      return readFileSync(runs, 'utf8')
        .split('\n')
        .filter((line) => line === 'run').length;
    } catch {
      return 0;
    }
  };

  test(
    'a base opened in the editor renders both overlays once: their timelines run no kustomize again',
    needsKustomize,
    async () => {
      const session = await LspSession.start(
        {},
        { workspaceFolders: [ROOT], env: { ...process.env, PATH: fakeBin } },
      );
      try {
        const base = join(ROOT, 'split', 'base', 'deployment.yaml');
        const uri = pathToFileURL(base).href;
        await session.open(uri, readFileSync(base, 'utf8'));
        // split/wide's 3 Pending replicas arrive on the base once both overlays are rendered.
        await session.diagnosticsWhere(uri, (published) =>
          published.some((diagnostic) => diagnostic.message.includes('`split/wide`')),
        );
        const rendered = runCount();
        assert.equal(rendered, 2, 'the editor rendered split/wide and split/narrow');
        for (const folder of ['split/wide', 'split/narrow', 'split/wide']) {
          const result = await session.connection.sendRequest<SimulationResult>(SIMULATION_REQUEST, {
            uri: uriOf(folder),
          });
          assert.ok(result.ok && result.report.renderOf === folder, JSON.stringify(result));
        }
        assert.equal(runCount(), rendered, 'no kustomize run for the panels');
      } finally {
        await session.stop();
      }
    },
  );
});

describe('the panels of a kustomization folder without kustomize, or untrusted', () => {
  test('no kubectl or kustomize on PATH: the message says so and how to install one', async () => {
    const session = await LspSession.start(
      {},
      { workspaceFolders: [ROOT], env: { ...process.env, PATH: '/nonexistent' } },
    );
    try {
      const result = await session.connection.sendRequest<SimulationResult>(SIMULATION_REQUEST, {
        uri: uriOf('shop/overlays/prod'),
      });
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.message, /neither kubectl nor kustomize is on PATH to render it/);
    } finally {
      await session.stop();
    }
  });

  test('an untrusted workspace runs no kustomize: the message says to trust it', async () => {
    const session = await LspSession.start(
      {},
      { workspaceFolders: [ROOT], initializationOptions: { workspaceTrusted: false } },
    );
    try {
      const result = await session.connection.sendRequest<SimulationResult>(SIMULATION_REQUEST, {
        uri: uriOf('shop/overlays/prod'),
      });
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.message, /kustomize is run only in a trusted workspace/);
    } finally {
      await session.stop();
    }
  });
});
