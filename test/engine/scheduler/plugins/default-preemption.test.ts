import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../../server/src/engine/model/snapshot/cluster';
import { ClusterObjects } from '../../../../server/src/engine/model/snapshot/cluster-objects';
import type { PriorityClassInfo } from '../../../../server/src/engine/model/snapshot/cluster';
import type { NodeInfo } from '../../../../server/src/engine/model/snapshot/node-info';
import { loadPod } from '../../../../server/src/engine/model/load/pod-load';
import type { PodInfo } from '../../../../server/src/engine/model/snapshot/pod-info';
import { systemPriorityClasses } from '../../../../server/src/engine/model/load/priority';
import { buildFramework } from '../../../../server/src/engine/scheduler/framework/build-framework';
import { formatFitError } from '../../../../server/src/engine/scheduler/framework/fit-error';
import {
  NOT_ELIGIBLE_PREEMPT_NEVER,
  REASON_NOT_HELPFUL,
  REASON_NO_VICTIMS,
  preemptionReason,
} from '../../../../server/src/engine/scheduler/plugins/default-preemption';
import {
  numCandidates,
  pickOneCandidate,
} from '../../../../server/src/engine/scheduler/plugins/default-preemption/candidates';
import type { Candidate } from '../../../../server/src/engine/scheduler/plugins/default-preemption/candidates';
import { disruptionsAllowed } from '../../../../server/src/engine/scheduler/plugins/default-preemption/disruption-budgets';
import { scaledValueOf } from '../../../../server/src/engine/model/int-or-percent';
import { DEFAULT_PROFILE } from '../../../../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../../../../server/src/engine/scheduler/registry';
import { Scheduler } from '../../../../server/src/engine/scheduler/scheduler';
import type { SchedulingRecord } from '../../../../server/src/engine/scheduler/record';
import { simulate } from '../../../../server/src/engine/simulate/simulate';
import { makeNode, withPods } from '../builders';
import type { Finding } from '../../../../protocol/finding';
import { fourNodeCluster } from '../../../support/four-node-cluster';

// Situations of upstream TestPostFilter, TestSelectNodesForPreemption, TestPickOneNodeForPreemption and
// TestPreempt (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go), run through the
// default profile of 1.35 so that the filters deciding whether victims make room are the real ones. Its PostFilter
// message begins with DynamicResources' own ("no new claims to deallocate"), as kube-scheduler 1.34+ joins them.

type Labels = Record<string, string>;

function pod(
  name: string,
  cpu: string,
  priority: number,
  labels: Labels = {},
  spec: Record<string, unknown> = {},
  classes: ReadonlyMap<string, PriorityClassInfo> = systemPriorityClasses(),
): PodInfo {
  const findings: Finding[] = [];
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: {
      priority,
      containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu, memory: '10Mi' } } }],
      ...spec,
    },
  };
  const context = { version: '1.35' as const, priorityClasses: classes, findings };
  const info = loadPod(object, { file: 'test', documentIndex: 0, path: [] }, null, context, true);
  assert.ok(info !== null && findings.length === 0, findings.map((f) => f.message).join('; '));
  return info;
}

interface Setup {
  readonly nodes: readonly (readonly [string, string, readonly PodInfo[]])[];
  readonly objects?: ClusterObjects;
  readonly classes?: ReadonlyMap<string, PriorityClassInfo>;
}

function schedule(setup: Setup, incoming: PodInfo): { record: SchedulingRecord; cluster: Cluster } {
  const nodes = setup.nodes.map(([name, cpu, pods]) => withPods(makeNode(name, { cpu }), pods));
  const cluster = new Cluster(
    nodes,
    setup.classes ?? systemPriorityClasses(),
    new Map(),
    'test',
    setup.objects ?? new ClusterObjects(),
  );
  const built = buildFramework(DEFAULT_PROFILE, IN_TREE_REGISTRY, cluster, '1.35');
  const scheduler = new Scheduler(cluster, new Map([['default-scheduler', built.framework]]), {
    detail: 'compact',
  });
  const [record] = scheduler.scheduleAll([incoming]);
  assert.ok(record !== undefined);
  return { record, cluster };
}

function outcome(record: SchedulingRecord): {
  node: string | null;
  preempted: string[];
  message: string | null;
} {
  return {
    node: record.nodeName,
    preempted: record.preempted.map((victim) => victim.name),
    message: record.fitError === null ? null : formatFitError(record.fitError),
  };
}

function pdb(
  name: string,
  selector: Labels,
  spec: Record<string, unknown>,
  status?: Record<string, unknown>,
) {
  const objects = new ClusterObjects();
  const object = {
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector: { matchLabels: selector }, ...spec },
    status,
  };
  objects.add('PodDisruptionBudget', object, { file: 'test', documentIndex: 0, path: [] });
  return objects;
}

describe('DefaultPreemption messages', () => {
  test('the messages carry kube-scheduler exact wording', () => {
    assert.equal(REASON_NO_VICTIMS.message, 'No preemption victims found for incoming pod');
    assert.equal(REASON_NOT_HELPFUL.message, 'Preemption is not helpful for scheduling');
    assert.equal(NOT_ELIGIBLE_PREEMPT_NEVER, 'not eligible due to preemptionPolicy=Never.');
    assert.equal(preemptionReason('x').message, 'preemption: x');
  });
});

describe('DefaultPreemption PostFilter', () => {
  const CASES: readonly {
    name: string;
    setup: Setup;
    incoming: PodInfo;
    want: { node: string | null; preempted: string[]; message: string | null };
  }[] = [
    {
      name: 'a high-priority pod evicts the low-priority pod that takes the room it needs',
      setup: { nodes: [['node1', '1', [pod('low', '800m', 0)]]] },
      incoming: pod('high', '500m', 1000),
      want: { node: 'node1', preempted: ['low'], message: null },
    },
    {
      name: 'pods of equal or higher priority are never victims',
      setup: { nodes: [['node1', '1', [pod('same', '800m', 1000)]]] },
      incoming: pod('high', '500m', 1000),
      want: {
        node: null,
        preempted: [],
        message:
          '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
      },
    },
    {
      name: 'preemptionPolicy Never leaves the pod Pending with the eligibility reason',
      setup: { nodes: [['node1', '1', [pod('low', '800m', 0)]]] },
      incoming: pod('high', '500m', 1000, {}, { preemptionPolicy: 'Never' }),
      want: {
        node: null,
        preempted: [],
        message:
          '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.',
      },
    },
    {
      name: 'a pod too large even for an empty node reports the filter that still fails after removing all victims',
      setup: { nodes: [['node1', '1', [pod('low', '800m', 0)]]] },
      incoming: pod('huge', '2', 1000),
      want: {
        node: null,
        preempted: [],
        message:
          '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Insufficient cpu.',
      },
    },
    {
      name: 'nodes rejected as unresolvable are not tried: "Preemption is not helpful for scheduling"',
      setup: {
        nodes: [
          ['node1', '1', [pod('low', '800m', 0)]],
          ['node2', '1', [pod('low2', '800m', 0)]],
        ],
      },
      incoming: pod('pinned', '500m', 1000, {}, { nodeSelector: { 'kubernetes.io/hostname': 'elsewhere' } }),
      want: {
        node: null,
        preempted: [],
        message:
          "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
      },
    },
    {
      name: 'the node whose most important victim has the lowest priority is chosen',
      setup: {
        nodes: [
          ['node1', '1', [pod('mid', '800m', 50)]],
          ['node2', '1', [pod('low', '800m', 10)]],
        ],
      },
      incoming: pod('high', '500m', 1000),
      want: { node: 'node2', preempted: ['low'], message: null },
    },
    {
      name: 'the fewest victims that make room are chosen; more important pods are given back first',
      setup: {
        nodes: [['node1', '2', [pod('a', '500m', 10), pod('b', '500m', 20), pod('c', '900m', 5)]]],
      },
      incoming: pod('high', '1', 1000),
      want: { node: 'node1', preempted: ['c'], message: null },
    },
    {
      name: 'with equal highest priorities the node with the smaller sum of victim priorities is chosen',
      setup: {
        nodes: [
          ['node1', '1', [pod('a1', '450m', 10), pod('a2', '450m', 10)]],
          ['node2', '1', [pod('b1', '800m', 10)]],
        ],
      },
      incoming: pod('high', '600m', 1000),
      want: { node: 'node2', preempted: ['b1'], message: null },
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      assert.deepEqual(outcome(schedule(testCase.setup, testCase.incoming).record), testCase.want);
    });
  }

  test("a PriorityClass's preemptionPolicy Never applies to pods of that class", () => {
    const classes = systemPriorityClasses();
    classes.set('batch', {
      name: 'batch',
      value: 1000,
      globalDefault: false,
      preemptionPolicy: 'Never',
      source: { file: 'test', documentIndex: 0, path: [] },
    });
    const incoming = pod('high', '500m', 1000, {}, { priorityClassName: 'batch' }, classes);
    const { record } = schedule({ nodes: [['node1', '1', [pod('low', '800m', 0)]]], classes }, incoming);
    assert.equal(record.nodeName, null);
    assert.match(outcome(record).message ?? '', /preemption: not eligible due to preemptionPolicy=Never\.$/);
  });

  test('victims are evicted from their node and the preemptor is bound there', () => {
    const low = pod('low', '800m', 0);
    const { record, cluster } = schedule({ nodes: [['node1', '1', [low]]] }, pod('high', '500m', 1000));
    const node = cluster.getNode('node1') as NodeInfo;
    assert.deepEqual(
      node.pods.map((p) => p.name),
      ['high'],
    );
    assert.equal(low.nodeName, null);
    assert.equal(record.nodeName, 'node1');
  });

  test('a node with no pod of lower priority is answered on the node as it is, and left unchanged', () => {
    // Upstream TestDryRunPreemption's "a pod that would fit on the nodes, but other pods running are higher
    // priority, no preemption would happen", beside a node that has a victim: node1 runs only pods of equal
    // priority (its dry run needs no copy); node2's low pod makes room.
    const same = pod('same', '800m', 1000);
    const low = pod('low', '800m', 0);
    const { record, cluster } = schedule(
      {
        nodes: [
          ['node1', '1', [same]],
          ['node2', '1', [low]],
        ],
      },
      pod('high', '500m', 1000),
    );
    assert.deepEqual(outcome(record), { node: 'node2', preempted: ['low'], message: null });
    const node1 = cluster.getNode('node1') as NodeInfo;
    assert.deepEqual(
      node1.pods.map((p) => p.name),
      ['same'],
    );
    assert.equal(node1.requested.milliCpu, 800);
    assert.equal(same.nodeName, 'node1');
  });
});

describe('DefaultPreemption and PodDisruptionBudgets', () => {
  test('a node whose victims violate no budget is preferred over one whose victims would', () => {
    const objects = pdb('guard', { app: 'guarded' }, { minAvailable: 1 });
    const { record } = schedule(
      {
        nodes: [
          ['node1', '1', [pod('guarded-1', '800m', 0, { app: 'guarded' })]],
          ['node2', '1', [pod('free-1', '800m', 5, { app: 'free' })]],
        ],
        objects,
      },
      pod('high', '500m', 1000),
    );
    assert.deepEqual(outcome(record), { node: 'node2', preempted: ['free-1'], message: null });
  });

  test('a budget is still violated when no other node can help (fewest violations first)', () => {
    const objects = pdb('guard', { app: 'guarded' }, { minAvailable: 1 });
    const { record } = schedule(
      { nodes: [['node1', '1', [pod('guarded-1', '800m', 0, { app: 'guarded' })]]], objects },
      pod('high', '500m', 1000),
    );
    assert.deepEqual(outcome(record), { node: 'node1', preempted: ['guarded-1'], message: null });
  });

  test('a budget with disruptions allowed in its status lets its pods go like any other', () => {
    const objects = pdb('guard', { app: 'guarded' }, { minAvailable: 1 }, { disruptionsAllowed: 1 });
    const { record } = schedule(
      {
        nodes: [
          ['node1', '1', [pod('guarded-1', '800m', 0, { app: 'guarded' })]],
          ['node2', '1', [pod('free-1', '800m', 5, { app: 'free' })]],
        ],
        objects,
      },
      pod('high', '500m', 1000),
    );
    assert.deepEqual(outcome(record), { node: 'node1', preempted: ['guarded-1'], message: null });
  });

  test('disruptionsAllowed from the placed pods: minAvailable, maxUnavailable and percentages', () => {
    const nodes = [
      withPods(
        makeNode('n', { cpu: '8' }),
        ['a', 'b', 'c', 'd'].map((n) => pod(n, '1', 0, { app: 'x' })),
      ),
    ];
    const cluster = new Cluster(nodes, systemPriorityClasses(), new Map(), 'test');
    const allowed = (spec: Record<string, unknown>): number => {
      const objects = pdb('b', { app: 'x' }, spec);
      return disruptionsAllowed(objects.podDisruptionBudgets[0] as never, cluster);
    };
    assert.equal(allowed({ minAvailable: 3 }), 1);
    assert.equal(allowed({ minAvailable: '50%' }), 2);
    assert.equal(allowed({ maxUnavailable: 1 }), 1);
    assert.equal(allowed({ maxUnavailable: '30%' }), 2);
    assert.equal(allowed({ minAvailable: 5 }), 0);
    assert.equal(allowed({ minAvailable: 'half' }), 0);
    assert.equal(scaledValueOf('25%', 5, true), 2);
  });
});

describe('pickOneNodeForPreemption', () => {
  const victim = (priority: number): PodInfo => pod(`v${priority}`, '100m', priority);
  const candidate = (nodeName: string, priorities: number[], pdbViolations = 0): Candidate => ({
    nodeName,
    victims: priorities.map(victim),
    pdbViolations,
  });
  /** The candidate with these start times (epoch seconds), one per victim. */
  const started = (base: Candidate, times: number[]): Candidate => ({
    ...base,
    victims: base.victims.map((entry, index) => ({ ...entry, startTime: times[index] ?? null })),
  });
  const CASES: readonly { name: string; candidates: Candidate[]; want: string }[] = [
    {
      name: 'fewest budget violations win first',
      candidates: [candidate('a', [1], 1), candidate('b', [100], 0)],
      want: 'b',
    },
    {
      name: 'then the lowest highest-priority victim',
      candidates: [candidate('a', [50, 1]), candidate('b', [40, 30, 20])],
      want: 'b',
    },
    {
      name: 'then the lowest sum of priorities (negative priorities count from MaxInt32 + 1)',
      candidates: [candidate('a', [10, 10]), candidate('b', [10, -5])],
      want: 'b',
    },
    {
      name: 'then the fewest victims',
      candidates: [candidate('a', [10, -2147483648]), candidate('b', [10])],
      want: 'b',
    },
    {
      name: 'remaining ties go to the first candidate',
      candidates: [candidate('a', [10]), candidate('b', [10])],
      want: 'a',
    },
    {
      // TestPickOneNodeForPreemption "mixed priority pods are preempted, pick later StartTime one".
      name: 'then the node whose earliest-started highest-priority victim started latest',
      candidates: [
        started(candidate('a', [10, 10]), [100, 300]),
        started(candidate('b', [10, 10]), [200, 150]),
        started(candidate('c', [10, 10]), [120, 400]),
      ],
      want: 'b',
    },
    {
      name: "only the highest-priority victims' start times count",
      candidates: [started(candidate('a', [10, 5]), [100, 900]), started(candidate('b', [10, 5]), [200, 50])],
      want: 'b',
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      assert.equal(pickOneCandidate(testCase.candidates)?.nodeName, testCase.want);
    });
  }

  test('the number of candidates is 10% of the potential nodes, at least 100, at most all of them', () => {
    const args = { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 };
    assert.equal(numCandidates(args, 50), 50);
    assert.equal(numCandidates(args, 5000), 500);
    assert.equal(numCandidates({ minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 3 }, 50), 3);
  });
});

describe('DefaultPreemption end to end (simulate, the four nodes of the embedded default)', () => {
  const source = (index: number) => ({ file: 'apps.yaml', documentIndex: index, path: [] });
  const running = (name: string, node: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'batch' } },
    spec: {
      nodeName: node,
      priorityClassName: 'low',
      containers: [{ name: 'c', image: 'batch:1', resources: { requests: { cpu: '3', memory: '1Gi' } } }],
    },
  });
  const priorityClass = (name: string, value: number) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
  });
  const critical = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'critical', namespace: 'default' },
    spec: {
      priorityClassName: 'high',
      containers: [{ name: 'c', image: 'critical:1', resources: { requests: { cpu: '2', memory: '1Gi' } } }],
    },
  };

  test('a high-priority pod preempts a low-priority one on a full worker and names it', () => {
    const objects = [
      priorityClass('low', 10),
      priorityClass('high', 1000),
      running('batch-1', 'worker-1'),
      running('batch-2', 'worker-2'),
      running('batch-3', 'worker-3'),
      critical,
    ];
    const result = simulate({
      manifests: objects.map((object, index) => ({ object, source: source(index) })),
      cluster: fourNodeCluster(),
      version: '1.35',
    });
    const placed = result.report.pods.find((entry) => entry.name === 'critical');
    assert.equal(placed?.nodeName, 'worker-1');
    assert.deepEqual(placed?.preempted, ['default/batch-1']);
  });

  test('without lower-priority pods to evict the pod stays Pending with both FitErrors', () => {
    const objects = [priorityClass('low', 10), priorityClass('high', 1000), critical, critical];
    const result = simulate({
      manifests: [
        ...objects.slice(0, 2).map((object, index) => ({ object, source: source(index) })),
        ...['worker-1', 'worker-2', 'worker-3'].map((node, index) => ({
          object: {
            ...running(`big-${index}`, node),
            spec: { ...running('x', node).spec, priorityClassName: 'high' },
          },
          source: source(10 + index),
        })),
        { object: critical, source: source(20) },
      ],
      cluster: fourNodeCluster(),
      version: '1.35',
    });
    const pending = result.report.pods.find((entry) => entry.name === 'critical');
    assert.equal(pending?.nodeName, null);
    assert.equal(
      pending?.unschedulable?.message,
      '0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu. no new claims to deallocate, ' +
        'preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found ' +
        'for incoming pod.',
    );
  });
});
