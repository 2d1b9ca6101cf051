import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import { parseStepFlag, readScenario } from '../../../server/src/engine/scenario/scenario-spec';
import { readMemoryPressureAction } from '../../../server/src/engine/scenario/load-steps';
import type { Finding } from '../../../protocol/finding';

const SOURCE = { file: 'cluster.yaml', documentIndex: 4, path: [] };

describe('readScenario', () => {
  test('reads every kind of step, the end time and timing overrides', () => {
    const findings: Finding[] = [];
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
      name: 'a load names its target as Kind/name',
      spec: { steps: [{ load: { target: 'web', cpuUtilization: 90 } }] },
      path: ['spec', 'steps', 0],
      message:
        'Scenario: steps[0]: load.target must be Deployment/<name>, StatefulSet/<name> or ReplicaSet/<name>',
    },
    {
      name: 'a load gives cpuUtilization or cpu, not both',
      spec: { steps: [{ load: { target: 'Deployment/web', cpuUtilization: 90, cpu: '1' } }] },
      path: ['spec', 'steps', 0],
      message:
        'Scenario: steps[0]: load needs exactly one of cpuUtilization (percent of request) and cpu (a quantity such as 1500m)',
    },
    {
      name: 'a memoryPressure usage must be a memory quantity',
      spec: { steps: [{ memoryPressure: { node: 'worker-1', usage: { 'Deployment/web': '3 GB' } } }] },
      path: ['spec', 'steps', 0],
      message:
        'Scenario: steps[0]: memoryPressure.usage["Deployment/web"] must be a non-negative memory quantity such as 512Mi',
    },
    {
      name: 'a memoryPressure needs usage',
      spec: { steps: [{ memoryPressure: { node: 'worker-1' } }] },
      path: ['spec', 'steps', 0],
      message: 'Scenario: steps[0]: memoryPressure.usage must map pods or workloads to memory quantities',
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
      const findings: Finding[] = [];
      const scenario = readScenario({ kind: 'Scenario', spec }, SOURCE, findings);
      assert.deepEqual(
        findings.map((finding) => [finding.code, finding.path, finding.message]),
        [['scenario-invalid', path, message]],
      );
      assert.equal(scenario.steps.length, 0);
    });
  }
});

describe('readScenario: load and memoryPressure steps', () => {
  test('reads a load in percent or millicores and usage keys as workloads or pods', () => {
    const findings: Finding[] = [];
    const scenario = readScenario(
      {
        kind: 'Scenario',
        spec: {
          steps: [
            { at: 60, load: { target: 'Deployment/web', cpuUtilization: 90 } },
            { at: 90, load: { target: 'StatefulSet/db', namespace: 'data', cpu: '1500m' } },
            {
              at: 120,
              memoryPressure: {
                node: 'worker-1',
                usage: {
                  'Deployment/web': '3Gi',
                  'shop/Deployment/api': '1Gi',
                  'cache-0': '512Mi',
                  'data/db-0': 1024,
                },
              },
            },
          ],
        },
      },
      SOURCE,
      findings,
    );
    assert.deepEqual(findings, []);
    assert.deepEqual(
      scenario.steps.map((step) => [step.at, step.action]),
      [
        [
          60,
          {
            type: 'load',
            kind: 'Deployment',
            namespace: 'default',
            name: 'web',
            load: { cpuUtilization: 90 },
          },
        ],
        [90, { type: 'load', kind: 'StatefulSet', namespace: 'data', name: 'db', load: { cpuMilli: 1500 } }],
        [
          120,
          {
            type: 'memoryPressure',
            node: 'worker-1',
            usage: [
              {
                subject: { type: 'workload', namespace: null, kind: 'Deployment', name: 'web' },
                bytes: 3 * 1024 ** 3,
              },
              {
                subject: { type: 'workload', namespace: 'shop', kind: 'Deployment', name: 'api' },
                bytes: 1024 ** 3,
              },
              { subject: { type: 'pod', namespace: null, name: 'cache-0' }, bytes: 512 * 1024 ** 2 },
              { subject: { type: 'pod', namespace: 'data', name: 'db-0' }, bytes: 1024 },
            ],
          },
        ],
      ],
    );
  });
});

describe('schemas/cluster.schema.json: load and memoryPressure steps', () => {
  const schema = JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', 'schemas', 'cluster.schema.json'), 'utf8'),
  ) as object;
  const validate = new Ajv({ strict: false }).compile(schema);
  const scenario = (step: Record<string, unknown>): unknown => ({
    apiVersion: 'foresight/v1',
    kind: 'Scenario',
    spec: { steps: [{ at: 60, ...step }] },
  });
  test('accepts the documented forms', () => {
    for (const step of [
      { load: { target: 'Deployment/web', cpuUtilization: 90 } },
      { load: { target: 'StatefulSet/db', namespace: 'data', cpu: '1500m' } },
      { memoryPressure: { node: 'worker-1', usage: { 'Deployment/web': '3Gi', 'cache-0': 1024 } } },
    ]) {
      assert.ok(validate(scenario(step)), JSON.stringify(validate.errors));
    }
  });
  test('refuses a target without a kind and an empty usage', () => {
    assert.equal(validate(scenario({ load: { target: 'web', cpuUtilization: 90 } })), false);
    assert.equal(validate(scenario({ memoryPressure: { node: 'worker-1', usage: {} } })), false);
  });
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
      name: '--load takes a percentage of the requests or a cpu quantity',
      flag: '--load',
      value: 'shop/Deployment/web=90%@60',
      expected: [
        60,
        { type: 'load', kind: 'Deployment', namespace: 'shop', name: 'web', load: { cpuUtilization: 90 } },
      ],
    },
    {
      name: '--load with a quantity',
      flag: '--load',
      value: 'StatefulSet/db=1500m@30',
      expected: [
        30,
        { type: 'load', kind: 'StatefulSet', namespace: 'default', name: 'db', load: { cpuMilli: 1500 } },
      ],
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
    {
      name: '--memory-pressure NODE:SUBJECT=MEMORY,… is the memoryPressure step a Scenario writes',
      flag: '--memory-pressure',
      value: 'worker-1:Deployment/web=3Gi,default/cache-0=1Gi@120',
      expected: [
        120,
        readMemoryPressureAction({
          node: 'worker-1',
          usage: { 'Deployment/web': '3Gi', 'default/cache-0': '1Gi' },
        }),
      ],
    },
    {
      name: '--memory-pressure without usage is a usage error',
      flag: '--memory-pressure',
      value: 'worker-1@60',
      expected:
        '--memory-pressure needs NODE:SUBJECT=MEMORY[,SUBJECT=MEMORY…][@SECONDS] (a subject is a pod or [NAMESPACE/]KIND/NAME), not "worker-1@60"',
    },
    {
      name: '--memory-pressure with a bad quantity says which',
      flag: '--memory-pressure',
      value: 'worker-1:Deployment/web=lots',
      expected:
        '--memory-pressure needs NODE:SUBJECT=MEMORY[,SUBJECT=MEMORY…][@SECONDS] (a subject is a pod or [NAMESPACE/]KIND/NAME), not "worker-1:Deployment/web=lots": memoryPressure.usage["Deployment/web"] must be a non-negative memory quantity such as 512Mi',
    },
    {
      name: 'a load on a kind without a scale subresource is a usage error',
      flag: '--load',
      value: 'DaemonSet/agents=90%@10',
      expected:
        '--load needs [NAMESPACE/]KIND/NAME=PERCENT% or =CPU, then @SECONDS, not "DaemonSet/agents=90%@10"',
    },
  ];
  for (const { name, flag, value, expected } of cases) {
    test(name, () => {
      const step = parseStepFlag(flag, value);
      assert.deepEqual(typeof step === 'string' ? step : [step.at, step.action], expected);
    });
  }
});
