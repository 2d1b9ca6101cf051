import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TimelineFinding } from '../../../server/src/engine/controllers/timeline-findings';
import { parseStepFlag, readScenario } from '../../../server/src/engine/scenario/scenario-spec';

const SOURCE = { file: 'cluster.yaml', documentIndex: 4, path: [] };

describe('readScenario', () => {
  test('reads every kind of step, the end time and timing overrides', () => {
    const findings: TimelineFinding[] = [];
    const scenario = readScenario(
      {
        kind: 'Scenario',
        spec: {
          until: 900,
          timing: { imagePullSeconds: 20, imagePullSecondsByImage: { 'nginx:1.27': 3 } },
          steps: [
            { at: 60, drain: { node: 'worker-1', ignoreDaemonSets: false } },
            { at: 120, failNode: { node: 'worker-2' } },
            { at: 30, scale: { name: 'web', replicas: 6 } },
            { addNode: { name: 'worker-4', like: 'worker-1' } },
          ],
        },
      },
      SOURCE,
      findings,
    );
    assert.deepEqual(findings, []);
    assert.equal(scenario.until, 900);
    assert.deepEqual(scenario.timing, { imagePullSeconds: 20, imagePullSecondsByImage: { 'nginx:1.27': 3 } });
    assert.deepEqual(
      scenario.steps.map((step) => [step.at, step.action]),
      [
        [
          60,
          {
            type: 'drain',
            node: 'worker-1',
            options: { ignoreDaemonSets: false, deleteEmptyDirData: true, force: false },
          },
        ],
        [120, { type: 'failNode', node: 'worker-2' }],
        [30, { type: 'scale', kind: 'Deployment', namespace: 'default', name: 'web', replicas: 6 }],
        [0, { type: 'addNode', name: 'worker-4', like: 'worker-1' }],
      ],
    );
  });

  const problems: {
    name: string;
    spec: Record<string, unknown>;
    path: (string | number)[];
    message: string;
  }[] = [
    {
      name: 'a step with two actions is refused',
      spec: { steps: [{ at: 1, drain: { node: 'a' }, failNode: { node: 'a' } }] },
      path: ['spec', 'steps', 0],
      message:
        'Scenario: steps[0]: a step needs exactly one of drain, failNode, scale, addNode, load, memoryPressure',
    },
    {
      name: 'a negative time is refused',
      spec: { steps: [{ at: -5, failNode: { node: 'a' } }] },
      path: ['spec', 'steps', 0, 'at'],
      message: 'Scenario: steps[0].at must be a non-negative number of seconds',
    },
    {
      name: 'a scale needs whole replicas',
      spec: { steps: [{ scale: { name: 'web', replicas: 1.5 } }] },
      path: ['spec', 'steps', 0],
      message: 'Scenario: steps[0]: scale needs a name and a non-negative integer replicas',
    },
    {
      name: 'an unknown timing setting is reported',
      spec: { timing: { pullTime: 3 } },
      path: ['spec', 'timing', 'pullTime'],
      message: 'Scenario: timing.pullTime is not a known setting',
    },
  ];
  for (const { name, spec, path, message } of problems) {
    test(name, () => {
      const findings: TimelineFinding[] = [];
      const scenario = readScenario({ kind: 'Scenario', spec }, SOURCE, findings);
      assert.deepEqual(
        findings.map((finding) => [finding.code, finding.path, finding.message]),
        [['scenario-invalid', path, message]],
      );
      assert.equal(scenario.steps.length, 0);
    });
  }
});

describe('parseStepFlag (CLI)', () => {
  const cases: { name: string; flag: string; value: string; expected: unknown }[] = [
    {
      name: '--drain NODE@T drains with the default kubectl flags',
      flag: '--drain',
      value: 'worker-1@300',
      expected: [
        300,
        {
          type: 'drain',
          node: 'worker-1',
          options: { ignoreDaemonSets: true, deleteEmptyDirData: true, force: false },
        },
      ],
    },
    {
      name: '--fail-node without a time happens at 0',
      flag: '--fail-node',
      value: 'worker-2',
      expected: [0, { type: 'failNode', node: 'worker-2' }],
    },
    {
      name: '--scale takes an optional namespace',
      flag: '--scale',
      value: 'shop/Deployment/web=6@30',
      expected: [30, { type: 'scale', kind: 'Deployment', namespace: 'shop', name: 'web', replicas: 6 }],
    },
    {
      name: '--add-node NAME=LIKE copies a node',
      flag: '--add-node',
      value: 'worker-4=worker-1@10',
      expected: [10, { type: 'addNode', name: 'worker-4', like: 'worker-1' }],
    },
    {
      name: 'a bad time is a usage error',
      flag: '--drain',
      value: 'worker-1@soon',
      expected: '--drain needs VALUE[@SECONDS], not "worker-1@soon"',
    },
    {
      name: 'a bad scale is a usage error',
      flag: '--scale',
      value: 'web=6',
      expected: '--scale needs [NAMESPACE/]KIND/NAME=REPLICAS[@SECONDS], not "web=6"',
    },
  ];
  for (const { name, flag, value, expected } of cases) {
    test(name, () => {
      const step = parseStepFlag(flag, value);
      assert.deepEqual(typeof step === 'string' ? step : [step.at, step.action], expected);
    });
  }
});
