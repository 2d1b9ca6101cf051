/**
 * The priority expander's ConfigMap, read as cluster-autoscaler's priority.go reads it (reloadConfigMap,
 * parsePrioritiesYAMLString): rows follow priority_test.go's configurations and TestPriorityExpander… tests.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readPriorityConfigMap } from '../../../server/src/engine/autoscaler/priority-config-map';
import { nodes, run } from '../../support/timeline-builders';
import { autoscalerScenario, cpuDeployment, nodeGroup } from './autoscaler-builders';
import type { Finding } from '../../../protocol/finding';

/** priority_test.go's `config`. */
const CONFIG =
  '5:\n  - ".*t2\\\\.micro.*"\n10: \n  - ".*t2\\\\.large.*"\n  - ".*t3\\\\.large.*"\n50: \n  - ".*m4\\\\.4xlarge.*"\n';

function configMap(data: Record<string, string>, namespace = 'kube-system'): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cluster-autoscaler-priority-expander', namespace },
    data,
  };
}

function read(objects: readonly unknown[]): { priorities: unknown; findings: Finding[] } {
  const findings: Finding[] = [];
  const sourced = objects.map((object, index) => ({
    object,
    source: { file: 'file:///cluster.yaml', documentIndex: index, path: [] },
  }));
  return { priorities: readPriorityConfigMap(sourced, findings), findings };
}

describe('readPriorityConfigMap (priority.go)', () => {
  test("priority_test.go's config: each priority with its regular expressions", () => {
    const { priorities, findings } = read([configMap({ priorities: CONFIG })]);
    assert.deepEqual(
      priorities,
      new Map([
        [5, ['.*t2\\.micro.*']],
        [10, ['.*t2\\.large.*', '.*t3\\.large.*']],
        [50, ['.*m4\\.4xlarge.*']],
      ]),
    );
    assert.deepEqual(findings, []);
  });

  const refused: readonly { name: string; data: Record<string, string>; message: RegExp }[] = [
    {
      name: 'TestPriorityExpanderCorrecltySkipsBadChangeConfig: an empty configuration',
      data: { priorities: '' },
      message:
        /^Wrong configuration for priority expander: priority configuration in cluster-autoscaler-priority-expander configmap is empty; please provide valid configuration\. Ignoring update\./,
    },
    {
      name: 'reloadConfigMap: no priorities key',
      data: { other: CONFIG },
      message: /^Wrong configmap for priority expander, doesn't contain priorities key\. Ignoring update\./,
    },
    {
      name: 'parsePrioritiesYAMLString: YAML that is not map[int][]string',
      data: { priorities: 'high:\n  - ".*"\n' },
      message: /Can't parse YAML with priorities in the configmap: "high" is not an integer priority/,
    },
    {
      name: 'parsePrioritiesYAMLString: a rule that does not compile',
      data: { priorities: '10:\n  - "(unclosed"\n' },
      message: /Can't compile regexp rule for priority 10 and rule \(unclosed/,
    },
    {
      name: 'parsePrioritiesYAMLString: broken YAML',
      data: { priorities: '10: [".*"\n' },
      message: /Can't parse YAML with priorities in the configmap: /,
    },
  ];
  for (const row of refused) {
    test(`${row.name}: refused with upstream's warning, and no group is chosen`, () => {
      const { priorities, findings } = read([configMap(row.data)]);
      assert.equal(priorities, null);
      assert.equal(findings.length, 1);
      assert.equal(findings[0]?.code, 'autoscaler-config-invalid');
      assert.match(findings[0]?.message ?? '', row.message);
      assert.match(findings[0]?.message ?? '', /no scale-up happens$/);
    });
  }

  test("a ConfigMap of that name outside kube-system is not the autoscaler's", () => {
    assert.deepEqual(read([configMap({ priorities: CONFIG }, 'default')]), {
      priorities: undefined,
      findings: [],
    });
  });
});

describe('the priority expander reads its ConfigMap over simulated time', () => {
  const groups = [
    nodeGroup('pool-a', { maxSize: 5, cpu: '4' }),
    nodeGroup('pool-b', { maxSize: 5, cpu: '4' }),
  ];
  const scaledGroups = (priorities: string, scenario: Record<string, unknown> = {}): string[] =>
    run({
      cluster: [
        ...nodes(1, '1'),
        ...groups,
        autoscalerScenario({ expander: 'priority', ...scenario }),
        configMap({ priorities }),
      ],
      manifests: [cpuDeployment('web', 2, '900m')],
    }).autoscaler?.scaleUps.map((up) => up.group) ?? [];

  test('TestPriorityExpanderCorrecltySelectsSingleMatchingOptionOutOfMany: the higher priority group grows', () => {
    assert.deepEqual(scaledGroups('10:\n  - "^pool-a$"\n50:\n  - "^pool-b$"\n'), ['pool-b']);
    assert.deepEqual(scaledGroups('50:\n  - "^pool-a$"\n10:\n  - "^pool-b$"\n'), ['pool-a']);
  });

  test("a Scenario's priorities stand in for the ConfigMap's", () => {
    assert.deepEqual(
      scaledGroups('50:\n  - "^pool-a$"\n10:\n  - "^pool-b$"\n', { priorities: { '90': ['^pool-b$'] } }),
      ['pool-b'],
    );
  });

  test('TestPriorityExpanderCorrecltySkipsBadChangeConfig: an unloadable ConfigMap, no scale-up and the warning', () => {
    const result = run({
      cluster: [
        ...nodes(1, '1'),
        ...groups,
        autoscalerScenario({ expander: 'priority' }),
        configMap({ priorities: '' }),
      ],
      manifests: [cpuDeployment('web', 2, '900m')],
    });
    assert.deepEqual(result.autoscaler?.scaleUps ?? [], []);
    assert.ok(result.findings.some((finding) => finding.code === 'autoscaler-config-invalid'));
  });

  test('the ConfigMap can come with the manifests (kubectl apply -f of the autoscaler install)', () => {
    const result = run({
      cluster: [...nodes(1, '1'), ...groups, autoscalerScenario({ expander: 'priority' })],
      manifests: [cpuDeployment('web', 2, '900m'), configMap({ priorities: '50:\n  - "^pool-b$"\n' })],
    });
    assert.deepEqual(
      result.autoscaler?.scaleUps.map((up) => up.group),
      ['pool-b'],
    );
  });
});
