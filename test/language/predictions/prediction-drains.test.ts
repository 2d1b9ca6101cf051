/**
 * A prediction keeps, of the report's drains (one per node), only those a disruption budget blocks: the budget's
 * hover is their one reader in the editor (prediction-simulation.ts). The kept drains are exactly the report's
 * blocked ones, in order, and a cluster without budgets keeps none. The engine is asked to analyse only the drains
 * a budget can hold up ('budget-held'), which it gives as it gives them for every node.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { getAnalysisContext, TEST_SERVICE, apiServingFor } from '../../support/language-service';
import { analyzeText } from '../../../server/src/language/analyzer';
import { readManifests } from '../../../server/src/language/manifests/read-manifests';
import { prepareScope } from '../../../server/src/language/service/scope-simulation';
import { simulate } from '../../../server/src/engine/simulate/simulate';
import type { DrainCoverage } from '../../../server/src/engine/scenario/report/timeline-report';

const CONTEXT = getAnalysisContext('1.35', 1_000_000);
const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'engine', 'timeline', 'pdb-blocks-drain');

function predicted(manifestsText: string) {
  const clusterPath = join(FIXTURE, 'cluster.yaml');
  // A third node nothing lands on (tainted): its drain is blocked by nothing.
  const clusterText = `${readFileSync(clusterPath, 'utf8')}---
apiVersion: v1
kind: Node
metadata: {name: spare}
spec:
  taints: [{key: spare, effect: NoSchedule}]
status:
  allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
`;
  const uri = 'file:///work/drains/manifests.yaml';
  const manifests = readManifests([{ id: uri, analysis: analyzeText(manifestsText, CONTEXT) }]).objects;
  const prepared = prepareScope(
    manifests,
    '1.35',
    CONTEXT,
    { uri: `file://${clusterPath}`, name: 'cluster.yaml', path: clusterPath },
    clusterText,
  );
  const drainsOf = (drains: DrainCoverage) =>
    simulate({
      manifests: prepared.input.manifests,
      cluster: prepared.input.cluster,
      clusterDescription: 'cluster.yaml',
      maxPods: 5_000,
      version: '1.35',
      apiServing: apiServingFor('1.35'),
      drains,
    }).report.drains ?? [];
  const kept = TEST_SERVICE.simulateScope(prepared.input).simulation.report.drains ?? [];
  return { full: drainsOf('every-node'), held: drainsOf('budget-held'), kept };
}

describe("a prediction's drains", () => {
  test('only the drains a budget blocks are kept, as the report gives them', () => {
    const { full, kept } = predicted(readFileSync(join(FIXTURE, 'manifests.yaml'), 'utf8'));
    const blocked = full.filter((drain) => drain.blockedBy.some((block) => block.disruptionBudget !== null));
    assert.ok(full.length > blocked.length, 'the report has drains no budget blocks');
    assert.ok(blocked.length > 0, 'and the budget blocks some');
    assert.deepEqual(kept, blocked);
    assert.ok(
      kept.every((drain) => drain.blockedBy.some((block) => block.disruptionBudget === 'default/payments')),
    );
  });

  test("the engine's 'budget-held' drains: every node running a pod a budget selects, as 'every-node' gives them", () => {
    const { full, held } = predicted(readFileSync(join(FIXTURE, 'manifests.yaml'), 'utf8'));
    assert.deepEqual(
      held.map((drain) => drain.node),
      ['worker-1', 'worker-2'],
      'not the spare node, which runs nothing',
    );
    assert.deepEqual(
      held,
      full.filter((drain) => drain.node !== 'spare'),
    );
  });

  test('without a budget none is kept', () => {
    const { full, kept } = predicted(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\n',
    );
    assert.ok(full.length > 0);
    assert.deepEqual(kept, []);
  });
});
