/**
 * The expanders, from cluster-autoscaler's own tests: waste_test.go (TestLeastWaste), mostpods_test.go
 * (TestMostPods) and priority_test.go (TestPriorityExpander…); each row names the upstream test it follows.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bestOption,
  byPriority,
  leastWaste,
  mostPods,
  templateCapacity,
  wasteScore,
} from '../../../server/src/engine/autoscaler/expanders';
import type { ExpansionOption } from '../../../server/src/engine/autoscaler/expanders';
import { Resources } from '../../../server/src/engine/model/resources';
import { SeededRandom } from '../../../server/src/engine/sim/seeded-random';
import { container, makePod } from '../scheduler/builders';

const CPU_PER_POD = 500;
const MEMORY_PER_POD = 1000 * 1024 * 1024;

function allocatable(milliCpu: number, memory: number): Resources {
  const resources = new Resources();
  resources.milliCpu = milliCpu;
  resources.memory = memory;
  resources.allowedPodNumber = 100;
  return resources;
}

function option(group: string, cpuUnits: number, memoryUnits: number, podCount: number): ExpansionOption {
  return {
    group,
    nodeCount: 1,
    pods: Array.from({ length: podCount }, (_, index) =>
      makePod(`${group}-${index}`, {
        containers: [container({ cpu: `${CPU_PER_POD}m`, memory: `${MEMORY_PER_POD}` })],
      }),
    ),
    allocatable: allocatable(cpuUnits * CPU_PER_POD, memoryUnits * MEMORY_PER_POD),
  };
}

const names = (options: readonly ExpansionOption[]): string[] => options.map((entry) => entry.group);

describe('least-waste (waste_test.go TestLeastWaste)', () => {
  const balanced = option('balanced', 16, 16, 1);
  const highmem = option('highmem', 16, 32, 1);
  const lowcpu = option('lowcpu', 8, 16, 1);
  const rows: readonly { name: string; options: ExpansionOption[]; best: string[] }[] = [
    {
      name: 'without any pods, one node info: that option',
      options: [option('balanced', 16, 16, 0)],
      best: ['balanced'],
    },
    { name: 'one pod, one node info: that option', options: [balanced], best: ['balanced'] },
    {
      name: 'one pod, a node with lots of RAM and one with less: the balanced one wastes less',
      options: [balanced, highmem],
      best: ['balanced'],
    },
    {
      name: 'one pod, and a third node with less cpu: the low-cpu one wastes least',
      options: [balanced, highmem, lowcpu],
      best: ['lowcpu'],
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      assert.deepEqual(names(leastWaste(row.options)), row.best);
    });
  }
});

describe("least-waste reads the template node's capacity (waste.go resourcesForNode)", () => {
  test('capacity, not allocatable: the same option wastes more of a node whose capacity is larger', () => {
    const onAllocatable = option('g', 16, 16, 4);
    const withCapacity = {
      ...onAllocatable,
      capacity: { milliCpu: 32 * CPU_PER_POD, memory: 16 * MEMORY_PER_POD },
    };
    // 4 of 16 units of each: 0.75 + 0.75; with 32 units of cpu capacity: 0.875 + 0.75.
    assert.equal(wasteScore(onAllocatable), 1.5);
    assert.equal(wasteScore(withCapacity), 1.625);
  });

  test("a template's status.capacity, each resource falling back to its allocatable", () => {
    const fallback = allocatable(4000, 8 * 2 ** 30);
    assert.deepEqual(templateCapacity({ cpu: '8', memory: '16Gi' }, fallback), {
      milliCpu: 8000,
      memory: 16 * 2 ** 30,
    });
    assert.deepEqual(templateCapacity({ cpu: '8' }, fallback), { milliCpu: 8000, memory: 8 * 2 ** 30 });
    assert.deepEqual(templateCapacity(undefined, fallback), { milliCpu: 4000, memory: 8 * 2 ** 30 });
  });
});

describe('most-pods (mostpods_test.go TestMostPods)', () => {
  const eo0 = option('EO0', 16, 16, 0);
  const eo1 = option('EO1', 16, 16, 1);
  const eo1b = option('EO1b', 16, 16, 1);
  const rows: readonly { name: string; options: ExpansionOption[]; best: string[] }[] = [
    { name: 'one option without pods: kept', options: [eo0], best: ['EO0'] },
    { name: 'the option with a pod wins over the one without', options: [eo0, eo1], best: ['EO1'] },
    {
      name: 'two options with one pod each: both kept for the random fallback',
      options: [eo0, eo1, eo1b],
      best: ['EO1', 'EO1b'],
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      assert.deepEqual(names(mostPods(row.options)), row.best);
    });
  }
});

describe('priority (priority_test.go)', () => {
  const config = new Map<number, string[]>([
    [5, ['.*t2\\.micro.*']],
    [10, ['.*t2\\.large.*', '.*t3\\.large.*']],
    [50, ['.*m4\\.4xlarge.*']],
  ]);
  const oneEntry = new Map<number, string[]>([[10, ['.*t2\\.large.*']]]);
  const wildcard = new Map<number, string[]>([
    [5, ['.*']],
    [10, ['.t2\\.large.*']],
  ]);
  const t2Micro = option('my-asg.t2.micro', 16, 16, 1);
  const t2Large = option('my-asg.t2.large', 16, 16, 1);
  const t3Large = option('my-asg.t3.large', 16, 16, 1);
  const m44XLarge = option('my-asg.m4.4xlarge', 16, 16, 1);
  const rows: readonly {
    name: string;
    priorities: Map<number, string[]>;
    options: ExpansionOption[];
    best: string[];
  }[] = [
    {
      name: 'TestPriorityExpanderCorrecltyFiltersSingleMatchingOptionOutOfOne',
      priorities: config,
      options: [t2Large],
      best: ['my-asg.t2.large'],
    },
    {
      name: 'TestPriorityExpanderCorrecltyFiltersSingleMatchingOptionOutOfMany',
      priorities: config,
      options: [t2Large, m44XLarge],
      best: ['my-asg.m4.4xlarge'],
    },
    {
      name: 'TestPriorityExpanderFiltersToHigherPriorityMatch',
      priorities: wildcard,
      options: [t2Large, t2Micro],
      best: ['my-asg.t2.large'],
    },
    {
      name: 'TestPriorityExpanderCorrecltyFiltersTwoMatchingOptionsOutOfMany',
      priorities: config,
      options: [t2Large, t3Large, t2Micro],
      best: ['my-asg.t2.large', 'my-asg.t3.large'],
    },
    {
      name: 'TestPriorityExpanderCorrecltyHandlesConfigUpdate (one entry): the groups no priority names are not used',
      priorities: oneEntry,
      options: [t2Large, t3Large, m44XLarge],
      best: ['my-asg.t2.large'],
    },
    {
      name: 'no priority matches any option: every option, for the random fallback',
      priorities: new Map([[10, ['^nothing$']]]),
      options: [t2Large, t3Large],
      best: ['my-asg.t2.large', 'my-asg.t3.large'],
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      assert.deepEqual(names(byPriority(row.options, row.priorities)), row.best);
    });
  }
});

describe('the expander of the settings', () => {
  test('random draws from the seeded random: the same seed picks the same option, every option can be picked', () => {
    const options = [option('a', 16, 16, 1), option('b', 16, 16, 1), option('c', 16, 16, 1)];
    const pick = (seed: string): string | undefined =>
      bestOption(options, { expander: 'random', priorities: new Map() }, new SeededRandom(seed))?.group;
    assert.equal(pick('x'), pick('x'));
    const picked = new Set(Array.from({ length: 40 }, (_, index) => pick(`seed-${index}`)));
    assert.deepEqual([...picked].sort(), ['a', 'b', 'c']);
  });

  test('least-waste then random: the one least-waste option whatever the seed', () => {
    const options = [option('balanced', 16, 16, 1), option('lowcpu', 8, 16, 1)];
    for (const seed of ['1', '2', '3']) {
      const chosen = bestOption(
        options,
        { expander: 'least-waste', priorities: new Map() },
        new SeededRandom(seed),
      );
      assert.equal(chosen?.group, 'lowcpu');
    }
  });

  test('no option: null', () => {
    assert.equal(bestOption([], { expander: 'most-pods', priorities: new Map() }, new SeededRandom(1)), null);
  });
});
