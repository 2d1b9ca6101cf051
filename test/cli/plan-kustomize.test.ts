import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CAPTURE, CAPTURED_MANIFESTS, runPlanCli, validPlan } from './plan-support';

// `foresight plan OVERLAY` plans what `kubectl apply -k OVERLAY` applies: the render of the real kustomize in
// kubectl, each object placed back on the file and line it comes from.

describe('foresight plan of a kustomize overlay', () => {
  test('an overlay that bumps an image plans the rolling update, with the change placed on the base file', () => {
    const root = mkdtempSync(join(tmpdir(), 'foresight-plan-kustomize-'));
    mkdirSync(join(root, 'base'));
    mkdirSync(join(root, 'overlay'));
    writeFileSync(join(root, 'base', 'web.yaml'), CAPTURED_MANIFESTS);
    writeFileSync(join(root, 'base', 'kustomization.yaml'), 'resources:\n  - web.yaml\n');
    writeFileSync(
      join(root, 'overlay', 'kustomization.yaml'),
      'resources:\n  - ../base\nimages:\n  - name: nginx\n    newTag: 1.27.4\n',
    );
    const result = runPlanCli(['--cluster', CAPTURE, '-o', 'json', join(root, 'overlay')]);
    const plan = validPlan(result.stdout);
    const configured = plan.objects.filter((object) => object.action === 'configured');
    assert.deepEqual(
      configured.map((object) => [
        object.kind,
        object.name,
        object.file.endsWith('base/web.yaml'),
        object.line,
      ]),
      [['Deployment', 'catalog', true, 3]],
    );
    assert.deepEqual(configured[0]?.changes, [
      { path: 'spec.template.spec.containers[0].image', old: 'nginx:1.27.3', new: 'nginx:1.27.4' },
    ]);
    assert.deepEqual(
      plan.rollouts.map((rollout) => [rollout.name, rollout.podsReplaced, rollout.outcome]),
      [['catalog', 2, 'Complete']],
    );
    // The other objects of the base are re-applied unchanged.
    assert.deepEqual(
      plan.objects.filter((object) => object.action === 'unchanged').map((object) => object.name),
      ['cart-db', 'node-exporter'],
    );
  });
});
