import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, scratch } from './cli-harness';
import { CAPTURE, CAPTURED_MANIFESTS, runPlanCli, validPlanDocument } from './plan-support';

// The plan follows each unit to its cluster as simulate does (cli/unit-clusters.ts groupUnitsByCluster): units on
// different cluster files are planned apart, one plan each; a unit with no cluster file is named as not planned.

/**
 * A repository of three units: `live` on the captured cluster (its manifests as captured), `next` on its own copy
 * of the capture with catalog's image changed, and `bare` with no cluster file above it.
 */
function threeUnits(): string {
  const root = scratch({});
  for (const unit of ['live', 'next']) {
    mkdirSync(join(root, unit, '.foresight'), { recursive: true });
    cpSync(join(ROOT, CAPTURE), join(root, unit, '.foresight', 'cluster.yaml'));
  }
  writeFileSync(join(root, 'live', 'web.yaml'), CAPTURED_MANIFESTS);
  writeFileSync(
    join(root, 'next', 'web.yaml'),
    CAPTURED_MANIFESTS.replace('image: nginx:1.27.3', 'image: nginx:1.27.4'),
  );
  mkdirSync(join(root, 'bare'));
  writeFileSync(join(root, 'bare', 'web.yaml'), CAPTURED_MANIFESTS);
  return root;
}

describe('foresight plan: each unit on its cluster', () => {
  test('units on two cluster files give two plans, each against its own cluster, and the bare unit is not planned', () => {
    const root = threeUnits();
    const json = runPlanCli(['-o', 'json', 'live', 'next', 'bare'], root);
    assert.equal(json.code, 0, json.stderr);
    const list = validPlanDocument(json.stdout);
    assert.equal(list.kind, 'PlanList');
    if (list.kind !== 'PlanList') {
      return;
    }
    assert.deepEqual(
      list.plans.map((entry) => [entry.cluster, entry.units, entry.plan.verdict.summary]),
      [
        [
          'live/.foresight/cluster.yaml',
          ['live'],
          'safe: no changes (3 unchanged); 0 rollout(s); 0 failure(s), 0 warning(s)',
        ],
        [
          'next/.foresight/cluster.yaml',
          ['next'],
          'safe: 0 to create, 1 to configure, 2 unchanged; 1 rollout(s); 0 failure(s), 0 warning(s)',
        ],
      ],
    );
    // Each plan read its own unit's files only: next's change is not seen on live's cluster.
    assert.deepEqual(
      list.plans.map((entry) => new Set(entry.plan.objects.map((object) => object.file))),
      [new Set(['live/web.yaml']), new Set(['next/web.yaml'])],
    );
    assert.equal(list.notPlanned.length, 1);
    assert.equal(list.notPlanned[0]?.unit, 'bare');
    assert.match(list.notPlanned[0]?.reason ?? '', /^no \.foresight\/cluster\.yaml at or above it/);
  });

  test('the text groups each plan under its cluster and lists the unit not planned with why', () => {
    const text = runPlanCli(['live', 'next', 'bare'], threeUnits());
    assert.equal(text.code, 0, text.stderr);
    const headers = text.stdout.split('\n').filter((line) => line.startsWith('=== '));
    assert.deepEqual(headers, [
      '=== live/.foresight/cluster.yaml: 1 apply unit (live)',
      '=== next/.foresight/cluster.yaml: 1 apply unit (next)',
      '=== not planned: 1 apply unit(s)',
    ]);
    assert.match(
      text.stdout,
      /\n {2}bare: no \.foresight\/cluster\.yaml at or above it: the embedded default/,
    );
  });

  test('the markdown comment has its marker once, a heading per cluster and a section of the units not planned', () => {
    const markdown = runPlanCli(['-o', 'markdown', 'live', 'next', 'bare'], threeUnits());
    assert.equal(markdown.code, 0, markdown.stderr);
    assert.equal(markdown.stdout.split('<!-- foresight-plan -->').length, 2);
    assert.deepEqual(
      markdown.stdout.split('\n').filter((line) => line.startsWith('#### ')),
      [
        '#### On `live/.foresight/cluster.yaml`: 1 apply unit (live)',
        '#### On `next/.foresight/cluster.yaml`: 1 apply unit (next)',
        '#### Not planned',
      ],
    );
    assert.equal(
      markdown.stdout.split('<details>').length,
      markdown.stdout.split('</details>').length,
      'every section is closed',
    );
  });

  test('--cluster puts every unit on that one cluster, one plan, and no unit is left out', () => {
    const root = threeUnits();
    const plan = validPlanDocument(
      runPlanCli(['--cluster', join(ROOT, CAPTURE), '-o', 'json', 'bare'], root).stdout,
    );
    assert.equal(plan.kind, 'Plan');
  });

  test('units none of which has a cluster file are refused as a plan without a cluster is (exit 2)', () => {
    const result = runPlanCli(['bare'], threeUnits());
    assert.equal(result.code, 2);
    assert.match(result.stderr, /or put a \.foresight\/cluster\.yaml at or above the units/);
    assert.equal(result.stdout, '');
  });
});
