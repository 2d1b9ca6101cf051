/**
 * The language server's answer to kubeForesight/plan (server/src/host/plan-request.ts), behind "Kube Foresight:
 * Preview Apply": the folder of a document planned against the cluster the editor chose for it, by the same
 * planApply as `foresight plan`, open documents winning over the disk, and the embedded default refused with how
 * to make a cluster file.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import type { PlanResult } from '../../protocol/messages';
import type { Plan } from '../../protocol/plan';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import { answerPlanRequest } from '../../server/src/host/plan-request';
import { TEST_SERVICE } from '../support/language-service';
import { runForesight } from '../cli/cli-harness';

const CAPTURED = resolve(__dirname, '../../examples/captured');
const WEB = join(CAPTURED, 'web.yaml');
const WEB_TEXT = readFileSync(WEB, 'utf8');
const context = (open: { uri: string; getText(): string }[] = []) => ({
  openDocuments: () => open,
  settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
  service: TEST_SERVICE,
});

async function planOf(uri: string, open: { uri: string; getText(): string }[] = []): Promise<Plan> {
  const result: PlanResult = await answerPlanRequest({ uri }, context(open));
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.plan;
}

/** The open editor of web.yaml with catalog's image changed (not saved). */
const CHANGED_IMAGE = [
  {
    uri: pathToFileURL(WEB).href,
    getText: () => WEB_TEXT.replace('image: nginx:1.27.3', 'image: nginx:1.27.4'),
  },
];

describe('kubeForesight/plan', () => {
  const temporary = mkdtempSync(join(tmpdir(), 'foresight-plan-request-'));
  after(() => rmSync(temporary, { recursive: true, force: true }));

  test("re-applying examples/captured on its capture plans no changes, each object at its file's line", async () => {
    const result = await answerPlanRequest({ uri: pathToFileURL(WEB).href }, context());
    assert.ok(result.ok, result.ok ? '' : result.message);
    assert.deepEqual(result.folder, { uri: pathToFileURL(CAPTURED).href, name: 'captured' });
    assert.equal(result.cluster, 'cluster.yaml');
    assert.equal(
      result.plan.verdict.summary,
      'safe: no changes (3 unchanged); 0 rollout(s); 0 failure(s), 0 warning(s)',
    );
    assert.deepEqual(
      result.plan.objects.map((object) => [object.action, object.name, object.file, object.line]),
      [
        ['unchanged', 'catalog', pathToFileURL(WEB).href, 3],
        ['unchanged', 'cart-db', pathToFileURL(WEB).href, 25],
        ['unchanged', 'node-exporter', pathToFileURL(WEB).href, 55],
      ],
    );
  });

  test('a changed image in the open editor plans one rolling update, as foresight plan does for the saved change', async () => {
    const plan = await planOf(pathToFileURL(CAPTURED).href, CHANGED_IMAGE);
    assert.deepEqual(
      plan.objects.map((object) => [object.action, object.name]),
      [
        ['configured', 'catalog'],
        ['unchanged', 'cart-db'],
        ['unchanged', 'node-exporter'],
      ],
    );
    assert.deepEqual(plan.objects[0]?.changes, [
      { path: 'spec.template.spec.containers[0].image', old: 'nginx:1.27.3', new: 'nginx:1.27.4' },
    ]);
    assert.equal(plan.rollouts.length, 1);
    // The one planApply: the CLI on the same text gives the same rollout and verdict.
    const folder = join(temporary, 'changed');
    const cliDir = mkdtempSync(`${folder}-`);
    writeFileSync(join(cliDir, 'web.yaml'), CHANGED_IMAGE[0]?.getText() ?? '');
    const cli = await runForesight([
      'plan',
      '--cluster',
      join(CAPTURED, '.foresight', 'cluster.yaml'),
      '-o',
      'json',
      join(cliDir, 'web.yaml'),
    ]);
    assert.equal(cli.code, 0, cli.stderr);
    const cliPlan = JSON.parse(cli.stdout) as Plan;
    assert.deepEqual(plan.rollouts, cliPlan.rollouts);
    assert.deepEqual(plan.verdict, cliPlan.verdict);
    assert.equal(plan.rollouts[0]?.waves, 2);
  });

  test('a capture of a 1.33 server is planned with 1.33 unless the user set the version, as foresight plan does', async () => {
    const folder = mkdtempSync(join(temporary, 'v133-'));
    mkdirSync(join(folder, '.foresight'));
    const header =
      'apiVersion: foresight/v1\nkind: Capture\nspec: {context: prod, capturedAt: "2026-11-01T00:00:00Z", serverVersion: v1.33.4}\n---\n';
    writeFileSync(
      join(folder, '.foresight', 'cluster.yaml'),
      header + readFileSync(join(CAPTURED, '.foresight', 'cluster.yaml'), 'utf8'),
    );
    writeFileSync(join(folder, 'web.yaml'), WEB_TEXT);
    const planWith = async (isKubernetesVersionSet: boolean | undefined): Promise<string> => {
      const settings = {
        ...DEFAULT_SETTINGS,
        ...(isKubernetesVersionSet === undefined ? {} : { isKubernetesVersionSet }),
      };
      const result = await answerPlanRequest(
        { uri: pathToFileURL(join(folder, 'web.yaml')).href },
        { ...context(), settingsFor: () => Promise.resolve(settings) },
      );
      assert.ok(result.ok, result.ok ? '' : result.message);
      return result.plan.kubernetesVersion;
    };
    assert.equal(await planWith(false), '1.33');
    // The user chose 1.35 (or the client did not say): the setting applies.
    assert.equal(await planWith(true), '1.35');
    assert.equal(await planWith(undefined), '1.35');
    const cli = await runForesight(['plan', '-o', 'json', join(folder, 'web.yaml')], { cwd: folder });
    assert.equal((JSON.parse(cli.stdout) as Plan).kubernetesVersion, '1.33');
  });

  test('a folder on the embedded default cluster gets no plan but how to make a cluster file', async () => {
    const folder = mkdtempSync(join(temporary, 'bare-'));
    writeFileSync(join(folder, 'web.yaml'), WEB_TEXT);
    const result = await answerPlanRequest({ uri: pathToFileURL(join(folder, 'web.yaml')).href }, context());
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.equal(result.needsCluster, true);
    assert.match(result.message, /embedded default cluster, which runs nothing to compare with/);
    assert.match(result.message, /`foresight capture`/);
  });

  test('a relative kubeForesight.cluster setting is read from the workspace folder, as Select Cluster writes it', async () => {
    const examples = resolve(CAPTURED, '..');
    const withSetting = (roots: readonly string[]) => ({
      ...context(),
      settingsFor: () =>
        Promise.resolve({ ...DEFAULT_SETTINGS, cluster: 'captured/.foresight/cluster.yaml' }),
      workspaceRoots: () => roots,
    });
    const result = await answerPlanRequest({ uri: pathToFileURL(WEB).href }, withSetting([examples]));
    assert.ok(result.ok, result.ok ? '' : result.message);
    assert.equal(result.plan.verdict.unchanged, 3);
    // Without the workspace folder the same setting names a file under the folder itself, which does not exist.
    const unresolved = await answerPlanRequest({ uri: pathToFileURL(WEB).href }, withSetting([]));
    assert.ok(!unresolved.ok);
    assert.equal(unresolved.needsCluster, true);
    assert.match(
      unresolved.message,
      /names \(.*captured\/captured\/\.foresight\/cluster\.yaml\) does not exist/,
    );
  });

  const untrusted: { name: string; params: unknown; message: RegExp }[] = [
    { name: 'no params', params: undefined, message: /needs a file or folder on disk/ },
    { name: 'a URI that is no string', params: { uri: 42 }, message: /needs a file or folder on disk/ },
    { name: 'a URI of another scheme', params: { uri: 'untitled:web.yaml' }, message: /on disk/ },
    {
      name: 'a folder that does not exist',
      params: { uri: 'file:///no/such/folder' },
      message: /does not exist/,
    },
  ];
  for (const entry of untrusted) {
    test(`untrusted params are an answer, not an exception: ${entry.name}`, async () => {
      const result = await answerPlanRequest(entry.params, context());
      assert.ok(!result.ok);
      assert.equal(result.needsCluster, false);
      assert.match(result.message, entry.message);
    });
  }
});
