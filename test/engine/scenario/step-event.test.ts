import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TimelineEvent } from '../../../protocol/timeline';
import type { Finding } from '../../../protocol/finding';
import { simulateTimeline } from '../../../server/src/engine/scenario/run-timeline';
import type { Scenario } from '../../../server/src/engine/scenario/scenario-spec';
import { parseStepFlag, readScenario } from '../../../server/src/engine/scenario/scenario-spec';
import { nodes, sourced, workload } from '../../support/timeline-builders';

const CLUSTER_FILE = 'file:///work/app/.foresight/cluster.yaml';

/** The ScenarioStep events of a run on three workers and Deployment web, with the steps of `scenario`. */
function stepEvents(scenario: Scenario | null, scenarioDocument: unknown = null): TimelineEvent[] {
  const cluster = sourced(
    [...nodes(3), ...(scenarioDocument === null ? [] : [scenarioDocument])],
    CLUSTER_FILE,
  );
  const result = simulateTimeline({
    cluster,
    manifests: sourced([workload('Deployment', 'web', 'web:1', { replicas: 2 })], 'app.yaml'),
    version: '1.35',
    ...(scenario === null ? {} : { scenario }),
  });
  return result.events.filter((event) => event.type === 'ScenarioStep');
}

function flagStep(flag: string, value: string): Scenario {
  const step = parseStepFlag(flag, value);
  if (typeof step === 'string') {
    throw new Error(step);
  }
  return { steps: [step], until: null, timing: {} };
}

describe('the ScenarioStep event names each step and where it was written', () => {
  test('a step of the cluster file’s Scenario names the document and the file, before what it causes', () => {
    const findings: Finding[] = [];
    const document = {
      apiVersion: 'foresight/v1',
      kind: 'Scenario',
      metadata: { name: 'maintenance' },
      spec: { steps: [{ at: 60, drain: { node: 'worker-1' } }] },
    };
    // The scenario as run-timeline reads it from the cluster file.
    readScenario(document, { file: CLUSTER_FILE, documentIndex: 3, path: [] }, findings);
    assert.deepEqual(findings, []);
    const events = stepEvents(null, document);
    assert.deepEqual(events, [
      {
        time: 60,
        type: 'ScenarioStep',
        object: { kind: 'Node', name: 'worker-1' },
        node: 'worker-1',
        message: 'Scenario step: drain worker-1 (Scenario maintenance of the cluster file cluster.yaml)',
        details: {
          scenarioStep: {
            action: 'drain',
            from: 'clusterFile',
            source: CLUSTER_FILE,
            scenario: 'maintenance',
          },
        },
      },
    ]);
  });

  const flags: readonly {
    name: string;
    flag: string;
    value: string;
    object: TimelineEvent['object'];
    node: string | null;
    message: string;
  }[] = [
    {
      name: '--drain names the node and the flag as given',
      flag: '--drain',
      value: 'worker-2@30',
      object: { kind: 'Node', name: 'worker-2' },
      node: 'worker-2',
      message: 'Scenario step: drain worker-2 (flag --drain worker-2@30)',
    },
    {
      name: '--scale names the workload and its new replicas',
      flag: '--scale',
      value: 'Deployment/web=4@10',
      object: { kind: 'Deployment', namespace: 'default', name: 'web' },
      node: null,
      message: 'Scenario step: scale Deployment default/web to 4 (flag --scale Deployment/web=4@10)',
    },
    {
      name: '--add-node names the new node but gives it no lane before NodeAdded',
      flag: '--add-node',
      value: 'worker-9=worker-1@5',
      object: { kind: 'Node', name: 'worker-9' },
      node: null,
      message: 'Scenario step: add node worker-9 like worker-1 (flag --add-node worker-9=worker-1@5)',
    },
    {
      name: '--fail-node of a node the cluster does not have is still shown, without a node',
      flag: '--fail-node',
      value: 'nowhere@20',
      object: { kind: 'Node', name: 'nowhere' },
      node: null,
      message: 'Scenario step: stop the kubelet of nowhere (flag --fail-node nowhere@20)',
    },
  ];
  for (const { name, flag, value, object, node, message } of flags) {
    test(name, () => {
      const [event, ...rest] = stepEvents(flagStep(flag, value));
      assert.deepEqual(rest, []);
      assert.deepEqual(event?.object, object);
      assert.equal(event?.node, node);
      assert.equal(event?.message, message);
      assert.deepEqual(event?.details?.scenarioStep?.from, 'flag');
      assert.deepEqual(event?.details?.scenarioStep?.source, `${flag} ${value}`);
    });
  }

  test('the step’s event comes first among the events of its time', () => {
    const result = simulateTimeline({
      cluster: sourced(nodes(2), CLUSTER_FILE),
      manifests: sourced([workload('Deployment', 'web', 'web:1', { replicas: 2 })], 'app.yaml'),
      version: '1.35',
      scenario: flagStep('--drain', 'worker-1@100'),
    });
    const at100 = result.events.filter((event) => event.time === 100).map((event) => event.type);
    assert.deepEqual(at100.slice(0, 3), ['ScenarioStep', 'DrainStarted', 'NodeCordoned']);
  });
});
