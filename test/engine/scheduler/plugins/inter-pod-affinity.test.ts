import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../../server/src/engine/model/snapshot/cluster';
import type { NodeInfo } from '../../../../server/src/engine/model/snapshot/node-info';
import { loadPod } from '../../../../server/src/engine/model/load/pod-load';
import type { PodInfo } from '../../../../server/src/engine/model/snapshot/pod-info';
import { systemPriorityClasses } from '../../../../server/src/engine/model/load/priority';
import { CycleState } from '../../../../server/src/engine/scheduler/framework/cycle-state';
import type { NodeScore, SchedulerPlugin } from '../../../../server/src/engine/scheduler/framework/plugin';
import { SUCCESS } from '../../../../server/src/engine/scheduler/framework/status';
import {
  REASON_AFFINITY_RULES_NOT_MATCH,
  REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
  REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  createInterPodAffinity,
} from '../../../../server/src/engine/scheduler/plugins/inter-pod-affinity';
import { simulate } from '../../../../server/src/engine/simulate/simulate';
import { makeNode, withPods } from '../builders';
import type { Finding } from '../../../../protocol/finding';
import { fourNodeCluster } from '../../../support/four-node-cluster';

// Cases of upstream TestRequiredAffinitySingleNode / TestRequiredAffinityMultipleNodes (filtering_test.go) and
// TestPreferredAffinity / TestPreferredAffinityWithHardPodAffinitySymmetricWeight (scoring_test.go) of
// pkg/scheduler/framework/plugins/interpodaffinity, with their expected statuses and scores.

type Labels = Record<string, string>;
type Term = Record<string, unknown>;

const S1 = { security: 'S1' };
const S2 = { security: 'S2' };

function term(topologyKey: string, expressions: unknown[], extra: Record<string, unknown> = {}): Term {
  return { labelSelector: { matchExpressions: expressions }, topologyKey, ...extra };
}
const securityIn = (...values: string[]) => ({ key: 'security', operator: 'In', values });
const weighted = (weight: number, podAffinityTerm: Term) => ({ weight, podAffinityTerm });

function affinity(parts: {
  required?: Term[];
  preferred?: unknown[];
  antiRequired?: Term[];
  antiPreferred?: unknown[];
}): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (parts.required !== undefined || parts.preferred !== undefined) {
    result['podAffinity'] = {
      requiredDuringSchedulingIgnoredDuringExecution: parts.required,
      preferredDuringSchedulingIgnoredDuringExecution: parts.preferred,
    };
  }
  if (parts.antiRequired !== undefined || parts.antiPreferred !== undefined) {
    result['podAntiAffinity'] = {
      requiredDuringSchedulingIgnoredDuringExecution: parts.antiRequired,
      preferredDuringSchedulingIgnoredDuringExecution: parts.antiPreferred,
    };
  }
  return result;
}

function pod(
  name: string,
  labels: Labels,
  podAffinity?: Record<string, unknown>,
  namespace = 'default',
): PodInfo {
  const findings: Finding[] = [];
  const spec: Record<string, unknown> = { containers: [{ name: 'c', image: 'busybox' }] };
  if (podAffinity !== undefined) {
    spec['affinity'] = podAffinity;
  }
  const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels }, spec };
  const context = { version: '1.35' as const, priorityClasses: systemPriorityClasses(), findings };
  const info = loadPod(object, { file: 'test', documentIndex: 0, path: [] }, null, context, true);
  assert.ok(info !== null && findings.length === 0);
  return info;
}

interface Placed {
  readonly node: string;
  readonly pod: PodInfo;
}

const NAMESPACES = new Map<string, Labels>([
  ['subteam1.team1', { team: 'team1' }],
  ['subteam2.team1', { team: 'team1' }],
  ['subteam1.team2', { team: 'team2' }],
  ['subteam2.team2', { team: 'team2' }],
]);

function cluster(nodes: readonly (readonly [string, Labels])[], placed: readonly Placed[] = []): Cluster {
  const infos = nodes.map(([name, labels]) => makeNode(name, { labels }));
  for (const entry of placed) {
    withPods(infos.find((info) => info.name === entry.node) as NodeInfo, [entry.pod]);
  }
  return new Cluster(infos, systemPriorityClasses(), NAMESPACES, 'test');
}

function plugin(on: Cluster, args?: unknown): SchedulerPlugin {
  return createInterPodAffinity({
    args,
    version: '1.35',
    handle: {
      cluster: on,
      runFilterPlugins: () => SUCCESS,
      runPreFilterExtensionAddPod: () => SUCCESS,
      runPreFilterExtensionRemovePod: () => SUCCESS,
    },
    reportArgsProblem: (message) => assert.fail(message),
  });
}

function filterAll(on: Cluster, incoming: PodInfo): Record<string, string> {
  const ipa = plugin(on);
  const state = new CycleState();
  const preFilter = ipa.preFilter?.(state, incoming, on.nodes);
  const outcome: Record<string, string> = {};
  for (const node of on.nodes) {
    if (preFilter?.status.code === 'Skip') {
      outcome[node.name] = 'skip';
      continue;
    }
    const status = ipa.filter?.(state, incoming, node) ?? SUCCESS;
    outcome[node.name] =
      status.code === 'Success'
        ? 'fits'
        : `${status.code}: ${status.reasons.map((r) => r.message).join(', ')}`;
  }
  return outcome;
}

const AFFINITY = `UnschedulableAndUnresolvable: ${REASON_AFFINITY_RULES_NOT_MATCH.message}`;
const ANTI = `Unschedulable: ${REASON_ANTI_AFFINITY_RULES_NOT_MATCH.message}`;
const EXISTING = `Unschedulable: ${REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH.message}`;

describe('InterPodAffinity reasons', () => {
  test('the reasons carry kube-scheduler exact wording', () => {
    assert.equal(REASON_AFFINITY_RULES_NOT_MATCH.message, "node(s) didn't match pod affinity rules");
    assert.equal(
      REASON_ANTI_AFFINITY_RULES_NOT_MATCH.message,
      "node(s) didn't match pod anti-affinity rules",
    );
    assert.equal(
      REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH.message,
      "node(s) didn't satisfy existing pods anti-affinity rules",
    );
  });
});

describe('InterPodAffinity Filter', () => {
  const REGION = 'region';
  const NODE1: readonly [string, Labels] = ['node1', { region: 'r1', zone: 'z11' }];
  const CASES: readonly {
    name: string;
    nodes: readonly (readonly [string, Labels])[];
    placed: readonly Placed[];
    incoming: PodInfo;
    want: Record<string, string>;
  }[] = [
    {
      name: 'a pod without pod affinity skips the filter on an empty node',
      nodes: [NODE1],
      placed: [],
      incoming: pod('p', S1),
      want: { node1: 'skip' },
    },
    {
      name: 'required affinity (In) matching an existing pod in the node topology fits',
      nodes: [NODE1],
      placed: [{ node: 'node1', pod: pod('e', S1) }],
      incoming: pod('p', S2, affinity({ required: [term(REGION, [securityIn('S1', 'value2')])] })),
      want: { node1: 'fits' },
    },
    {
      name: 'required affinity with NotIn and Exists operators matching the existing pod fits',
      nodes: [NODE1],
      placed: [{ node: 'node1', pod: pod('e', S1) }],
      incoming: pod(
        'p',
        S2,
        affinity({
          required: [
            term(REGION, [
              { key: 'security', operator: 'NotIn', values: ['securityscan3', 'value3'] },
              { key: 'security', operator: 'Exists' },
            ]),
          ],
        }),
      ),
      want: { node1: 'fits' },
    },
    {
      name: 'required affinity with an existing pod in another namespace fails',
      nodes: [NODE1],
      placed: [{ node: 'node1', pod: pod('e', S1, undefined, 'ns') }],
      incoming: pod('p', S2, affinity({ required: [term(REGION, [securityIn('S1')])] })),
      want: { node1: AFFINITY },
    },
    {
      name: 'required affinity naming the namespace of the existing pod fits',
      nodes: [NODE1],
      placed: [{ node: 'node1', pod: pod('e', S1, undefined, 'ns') }],
      incoming: pod(
        'p',
        S2,
        affinity({ required: [term(REGION, [securityIn('S1')], { namespaces: ['ns'] })] }),
      ),
      want: { node1: 'fits' },
    },
    {
      name: 'required affinity whose namespaceSelector selects the existing pod namespace fits',
      nodes: [NODE1],
      placed: [{ node: 'node1', pod: pod('e', S1, undefined, 'subteam1.team2') }],
      incoming: pod(
        'p',
        S2,
        affinity({
          required: [
            term(REGION, [securityIn('S1')], { namespaceSelector: { matchLabels: { team: 'team2' } } }),
          ],
        }),
      ),
      want: { node1: 'fits' },
    },
    {
      name: 'an empty namespaceSelector matches every namespace',
      nodes: [NODE1],
      placed: [{ node: 'node1', pod: pod('e', S1, undefined, 'elsewhere') }],
      incoming: pod(
        'p',
        S2,
        affinity({ required: [term(REGION, [securityIn('S1')], { namespaceSelector: {} })] }),
      ),
      want: { node1: 'fits' },
    },
    {
      name: 'required affinity whose selector matches no existing pod fails, the pod not matching itself',
      nodes: [NODE1],
      placed: [{ node: 'node1', pod: pod('e', S1) }],
      incoming: pod('p', S2, affinity({ required: [term(REGION, [securityIn('antivirusscan', 'value2')])] })),
      want: { node1: AFFINITY },
    },
    {
      name: 'the first pod of a group with affinity to itself fits where the topology key exists',
      nodes: [NODE1, ['node2', { zone: 'z2' }]],
      placed: [],
      incoming: pod('p', S1, affinity({ required: [term(REGION, [securityIn('S1')])] })),
      want: { node1: 'fits', node2: AFFINITY },
    },
    {
      name: 'affinity to itself is not enough once a matching pod exists in another domain',
      nodes: [NODE1, ['node2', { region: 'r2' }]],
      placed: [{ node: 'node2', pod: pod('e', S1) }],
      incoming: pod('p', S1, affinity({ required: [term(REGION, [securityIn('S1')])] })),
      want: { node1: AFFINITY, node2: 'fits' },
    },
    {
      name: 'nodes sharing the topology value of a matching pod fit; others do not',
      nodes: [
        ['machine1', { region: 'r1', zone: 'z11' }],
        ['machine2', { region: 'r1', zone: 'z12' }],
        ['machine3', { region: 'r2', zone: 'z21' }],
      ],
      placed: [{ node: 'machine1', pod: pod('e', { foo: 'bar' }) }],
      incoming: pod(
        'p',
        {},
        affinity({ required: [term(REGION, [{ key: 'foo', operator: 'In', values: ['bar'] }])] }),
      ),
      want: { machine1: 'fits', machine2: 'fits', machine3: AFFINITY },
    },
    {
      name: 'required anti-affinity against a pod in the same topology fails',
      nodes: [NODE1],
      placed: [{ node: 'node1', pod: pod('e', S1) }],
      incoming: pod('p', S2, affinity({ antiRequired: [term('zone', [securityIn('S1')])] })),
      want: { node1: ANTI },
    },
    {
      name: 'required anti-affinity against a pod in another zone fits',
      nodes: [NODE1, ['node2', { region: 'r1', zone: 'z12' }]],
      placed: [{ node: 'node2', pod: pod('e', S1) }],
      incoming: pod('p', S2, affinity({ antiRequired: [term('zone', [securityIn('S1')])] })),
      want: { node1: 'fits', node2: ANTI },
    },
    {
      name: "an existing pod's required anti-affinity covering the node's domain rejects the incoming pod",
      nodes: [NODE1, ['node2', { region: 'r2', zone: 'z21' }]],
      placed: [
        { node: 'node1', pod: pod('e', S1, affinity({ antiRequired: [term(REGION, [securityIn('S2')])] })) },
      ],
      incoming: pod('p', S2),
      want: { node1: EXISTING, node2: 'fits' },
    },
    {
      name: "an existing pod's anti-affinity in another namespace does not apply to the incoming pod",
      nodes: [NODE1],
      placed: [
        {
          node: 'node1',
          pod: pod('e', S1, affinity({ antiRequired: [term(REGION, [securityIn('S2')])] }), 'ns'),
        },
      ],
      incoming: pod('p', S2),
      want: { node1: 'skip' },
    },
    {
      name: 'affinity is checked before anti-affinity: a pod failing both reports the affinity rules',
      nodes: [NODE1],
      placed: [{ node: 'node1', pod: pod('e', S1) }],
      incoming: pod(
        'p',
        S2,
        affinity({
          required: [term(REGION, [securityIn('nothing')])],
          antiRequired: [term(REGION, [securityIn('S1')])],
        }),
      ),
      want: { node1: AFFINITY },
    },
    {
      name: 'matchLabelKeys keep only pods with the same label value in the anti-affinity selector',
      nodes: [NODE1, ['node2', { region: 'r2' }]],
      placed: [
        { node: 'node1', pod: pod('old', { app: 'web', rev: '1' }) },
        { node: 'node2', pod: pod('new', { app: 'web', rev: '2' }) },
      ],
      incoming: pod(
        'p',
        { app: 'web', rev: '2' },
        affinity({
          antiRequired: [
            term(REGION, [{ key: 'app', operator: 'In', values: ['web'] }], { matchLabelKeys: ['rev'] }),
          ],
        }),
      ),
      want: { node1: 'fits', node2: ANTI },
    },
    {
      name: 'mismatchLabelKeys keep only pods with another label value in the affinity selector',
      nodes: [NODE1, ['node2', { region: 'r2' }]],
      placed: [
        { node: 'node1', pod: pod('tenant-a', { app: 'web', tenant: 'a' }) },
        { node: 'node2', pod: pod('tenant-b', { app: 'web', tenant: 'b' }) },
      ],
      incoming: pod(
        'p',
        { app: 'web', tenant: 'a' },
        affinity({
          antiRequired: [
            term(REGION, [{ key: 'app', operator: 'In', values: ['web'] }], {
              mismatchLabelKeys: ['tenant'],
            }),
          ],
        }),
      ),
      want: { node1: 'fits', node2: ANTI },
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      assert.deepEqual(filterAll(cluster(testCase.nodes, testCase.placed), testCase.incoming), testCase.want);
    });
  }
});

function scoreAll(on: Cluster, incoming: PodInfo, args?: unknown): Record<string, number> | 'skip' {
  const ipa = plugin(on, args);
  const state = new CycleState();
  if (ipa.preScore?.(state, incoming, on.nodes).code === 'Skip') {
    return 'skip';
  }
  const scores: NodeScore[] = on.nodes.map((node) => ({
    name: node.name,
    score: ipa.score?.(state, incoming, node) ?? 0,
  }));
  ipa.normalizeScore?.(state, incoming, scores);
  return Object.fromEntries(scores.map((entry) => [entry.name, entry.score]));
}

const CHINA = { region: 'China' };
const INDIA = { region: 'India' };
const AZ1 = { az: 'az1' };
const AZ2 = { az: 'az2' };
const STAY_WITH_S1_IN_REGION = affinity({ preferred: [weighted(5, term('region', [securityIn('S1')]))] });
const STAY_WITH_S2_IN_REGION = affinity({ preferred: [weighted(6, term('region', [securityIn('S2')]))] });
const AWAY_FROM_S1_IN_AZ = affinity({ antiPreferred: [weighted(5, term('az', [securityIn('S1')]))] });
const AWAY_FROM_S2_IN_AZ = affinity({ antiPreferred: [weighted(5, term('az', [securityIn('S2')]))] });
const STAY_S1_REGION_AWAY_S2_AZ = affinity({
  preferred: [weighted(8, term('region', [securityIn('S1')]))],
  antiPreferred: [weighted(5, term('az', [securityIn('S2')]))],
});
const HARD_AFFINITY = affinity({
  required: [
    term('region', [securityIn('S1', 'value2')]),
    term('region', [
      { key: 'security', operator: 'Exists' },
      { key: 'wrongkey', operator: 'DoesNotExist' },
    ]),
  ],
});
const at = (node: string, placed: PodInfo): Placed => ({ node, pod: placed });

describe('InterPodAffinity Score', () => {
  const CASES: readonly {
    name: string;
    nodes: readonly (readonly [string, Labels])[];
    placed: readonly Placed[];
    incoming: PodInfo;
    args?: unknown;
    want: Record<string, number> | 'skip';
  }[] = [
    {
      name: 'a pod without affinity and no placed pod with affinity skips scoring',
      nodes: [
        ['node1', CHINA],
        ['node2', INDIA],
        ['node3', AZ1],
      ],
      placed: [],
      incoming: pod('p', S1),
      want: 'skip',
    },
    {
      name: 'the node whose region holds a matching pod scores 100, others 0',
      nodes: [
        ['node1', CHINA],
        ['node2', INDIA],
        ['node3', AZ1],
      ],
      placed: [at('node1', pod('a', S1)), at('node2', pod('b', S2)), at('node3', pod('c', S1))],
      incoming: pod('p', S1, STAY_WITH_S1_IN_REGION),
      want: { node1: 100, node2: 0, node3: 0 },
    },
    {
      name: 'every node sharing the region value of a matching pod gets the same score',
      nodes: [
        ['node1', CHINA],
        ['node2', { ...CHINA, ...AZ1 }],
        ['node3', INDIA],
      ],
      placed: [at('node1', pod('a', S1))],
      incoming: pod('p', {}, STAY_WITH_S1_IN_REGION),
      want: { node1: 100, node2: 100, node3: 0 },
    },
    {
      name: 'the region with more matching pods scores higher',
      nodes: [
        ['node1', CHINA],
        ['node2', INDIA],
        ['node3', CHINA],
        ['node4', CHINA],
        ['node5', INDIA],
      ],
      placed: [
        at('node1', pod('a', S2)),
        at('node1', pod('b', S2)),
        at('node2', pod('c', S2)),
        at('node3', pod('d', S2)),
        at('node4', pod('e', S2)),
        at('node5', pod('f', S2)),
      ],
      incoming: pod('p', S1, STAY_WITH_S2_IN_REGION),
      want: { node1: 100, node2: 0, node3: 100, node4: 100, node5: 0 },
    },
    {
      name: 'different operators and weights add up per region (8 + 2 vs 2: 20/100/0)',
      nodes: [
        ['node1', CHINA],
        ['node2', INDIA],
        ['node3', AZ1],
      ],
      placed: [at('node1', pod('a', S1)), at('node2', pod('b', S2)), at('node3', pod('c', S1))],
      incoming: pod(
        'p',
        S1,
        affinity({
          preferred: [
            weighted(
              8,
              term('region', [{ key: 'security', operator: 'NotIn', values: ['S1'] }, securityIn('S2')]),
            ),
            weighted(
              2,
              term('region', [
                { key: 'security', operator: 'Exists' },
                { key: 'wrongkey', operator: 'DoesNotExist' },
              ]),
            ),
          ],
        }),
      ),
      want: { node1: 20, node2: 100, node3: 0 },
    },
    {
      name: "placed pods' preferred affinity matching the incoming pod attracts it (symmetry)",
      nodes: [
        ['node1', CHINA],
        ['node2', INDIA],
        ['node3', AZ1],
      ],
      placed: [
        at('node1', pod('a', S1, STAY_WITH_S1_IN_REGION)),
        at('node2', pod('b', S2, STAY_WITH_S2_IN_REGION)),
      ],
      incoming: pod('p', S2),
      want: { node1: 0, node2: 100, node3: 0 },
    },
    {
      name: "placed pods' required affinity counts with hardPodAffinityWeight (symmetry)",
      nodes: [
        ['node1', CHINA],
        ['node2', INDIA],
        ['node3', AZ1],
      ],
      placed: [at('node1', pod('a', S1, HARD_AFFINITY)), at('node2', pod('b', S2, HARD_AFFINITY))],
      incoming: pod('p', S1),
      want: { node1: 100, node2: 100, node3: 0 },
    },
    {
      name: 'hardPodAffinityWeight 0 ignores placed pods required affinity',
      nodes: [
        ['node1', CHINA],
        ['node2', INDIA],
        ['node3', AZ1],
      ],
      placed: [at('node1', pod('a', S1, HARD_AFFINITY)), at('node2', pod('b', S2, HARD_AFFINITY))],
      incoming: pod('p', S1),
      args: { hardPodAffinityWeight: 0 },
      want: 'skip',
    },
    {
      name: 'preferred anti-affinity pushes away from the az holding a matching pod',
      nodes: [
        ['node1', AZ1],
        ['node2', CHINA],
      ],
      placed: [at('node1', pod('a', S1)), at('node2', pod('b', S2))],
      incoming: pod('p', S1, AWAY_FROM_S1_IN_AZ),
      want: { node1: 0, node2: 100 },
    },
    {
      name: "placed pods' preferred anti-affinity matching the incoming pod repels it (symmetry)",
      nodes: [
        ['node1', AZ1],
        ['node2', AZ2],
      ],
      placed: [at('node1', pod('a', S1, AWAY_FROM_S2_IN_AZ)), at('node2', pod('b', S2, AWAY_FROM_S1_IN_AZ))],
      incoming: pod('p', S2),
      want: { node1: 0, node2: 100 },
    },
    {
      name: 'affinity, anti-affinity and both symmetries combine (8, -5, 8, -5)',
      nodes: [
        ['node1', CHINA],
        ['node2', AZ1],
        ['node3', INDIA],
        ['node4', AZ2],
      ],
      placed: [
        at('node1', pod('a', S1)),
        at('node2', pod('b', S2)),
        at('node3', pod('c', {}, STAY_S1_REGION_AWAY_S2_AZ)),
        at('node4', pod('d', {}, AWAY_FROM_S1_IN_AZ)),
      ],
      incoming: pod('p', S1, STAY_S1_REGION_AWAY_S2_AZ),
      want: { node1: 100, node2: 0, node3: 100, node4: 0 },
    },
    {
      name: 'placed affinity terms that match nothing leave all nodes at 0 (no panic on partial topologies)',
      nodes: [
        ['node1', CHINA],
        ['node2', CHINA],
      ],
      placed: [at('node1', pod('a', S1)), at('node2', pod('b', {}, STAY_S1_REGION_AWAY_S2_AZ))],
      incoming: pod('p', S1),
      want: { node1: 0, node2: 0 },
    },
    {
      name: "a placed pod's term with a namespaceSelector attracts a pod of a selected namespace",
      nodes: [
        ['node1', CHINA],
        ['node2', INDIA],
        ['node3', AZ1],
      ],
      placed: [
        at(
          'node1',
          pod(
            'a',
            S1,
            affinity({
              preferred: [
                weighted(
                  5,
                  term('region', [securityIn('S1')], {
                    namespaces: ['subteam2.team2'],
                    namespaceSelector: {
                      matchExpressions: [{ key: 'team', operator: 'In', values: ['team1'] }],
                    },
                  }),
                ),
              ],
            }),
          ),
        ),
        at('node2', pod('b', S2, STAY_WITH_S2_IN_REGION)),
      ],
      incoming: pod('p', S1, undefined, 'subteam1.team1'),
      want: { node1: 100, node2: 0, node3: 0 },
    },
    {
      name: 'ignorePreferredTermsOfExistingPods skips scoring for a pod without preferred terms',
      nodes: [
        ['node1', CHINA],
        ['node2', INDIA],
      ],
      placed: [at('node1', pod('a', S1, STAY_WITH_S1_IN_REGION))],
      incoming: pod('p', S1),
      args: { ignorePreferredTermsOfExistingPods: true },
      want: 'skip',
    },
  ];
  for (const testCase of CASES) {
    test(testCase.name, () => {
      assert.deepEqual(
        scoreAll(cluster(testCase.nodes, testCase.placed), testCase.incoming, testCase.args),
        testCase.want,
      );
    });
  }
});

describe('InterPodAffinity what-if updates (preemption)', () => {
  test('removing the pod that blocks anti-affinity lets the node pass in the copied state only', () => {
    const blocker = pod('e', S1);
    const on = cluster([['node1', { zone: 'z1' }]], [at('node1', blocker)]);
    const ipa = plugin(on);
    const incoming = pod('p', S2, affinity({ antiRequired: [term('zone', [securityIn('S1')])] }));
    const state = new CycleState();
    ipa.preFilter?.(state, incoming, on.nodes);
    const node = on.nodes[0] as NodeInfo;
    const what = state.clone();
    ipa.preFilterExtensions?.removePod(what, incoming, blocker, node);
    assert.equal(ipa.filter?.(what, incoming, node).code, 'Success');
    assert.equal(ipa.filter?.(state, incoming, node).code, 'Unschedulable');
  });

  test("removing a placed pod whose anti-affinity covers the node lifts the existing pods' rule", () => {
    const owner = pod('e', S1, affinity({ antiRequired: [term('zone', [securityIn('S2')])] }));
    const on = cluster([['node1', { zone: 'z1' }]], [at('node1', owner)]);
    const ipa = plugin(on);
    const incoming = pod('p', S2);
    const state = new CycleState();
    ipa.preFilter?.(state, incoming, on.nodes);
    const node = on.nodes[0] as NodeInfo;
    assert.equal(ipa.filter?.(state, incoming, node).code, 'Unschedulable');
    ipa.preFilterExtensions?.removePod(state, incoming, owner, node);
    assert.equal(ipa.filter?.(state, incoming, node).code, 'Success');
  });

  test('adding a pod matching the required affinity makes its domain satisfy it', () => {
    const on = cluster(
      [
        ['node1', { zone: 'z1' }],
        ['node2', { zone: 'z2' }],
      ],
      [at('node2', pod('x', S1))],
    );
    const ipa = plugin(on);
    const incoming = pod('p', S2, affinity({ required: [term('zone', [securityIn('S1')])] }));
    const state = new CycleState();
    ipa.preFilter?.(state, incoming, on.nodes);
    const node1 = on.nodes[0] as NodeInfo;
    assert.equal(ipa.filter?.(state, incoming, node1).code, 'UnschedulableAndUnresolvable');
    ipa.preFilterExtensions?.addPod(state, incoming, pod('y', S1), node1);
    assert.equal(ipa.filter?.(state, incoming, node1).code, 'Success');
  });
});

describe('InterPodAffinity incremental indexes', () => {
  test('placed pods bound and removed after the first cycle are seen by the next', () => {
    const on = cluster([
      ['node1', { zone: 'z1' }],
      ['node2', { zone: 'z2' }],
    ]);
    const incoming = pod('p', S1, affinity({ antiRequired: [term('zone', [securityIn('S1')])] }));
    assert.deepEqual(filterAll(on, incoming), { node1: 'fits', node2: 'fits' });
    const placed = pod('x', S1, affinity({ antiRequired: [term('zone', [securityIn('S1')])] }));
    (on.nodes[0] as NodeInfo).addPod(placed);
    assert.deepEqual(filterAll(on, incoming), { node1: ANTI, node2: 'fits' });
    assert.deepEqual(filterAll(on, pod('q', S1)), { node1: EXISTING, node2: 'fits' });
    (on.nodes[0] as NodeInfo).removePod(placed);
    assert.deepEqual(filterAll(on, incoming), { node1: 'fits', node2: 'fits' });
  });
});

describe('InterPodAffinity end to end (simulate, the four nodes of the embedded default)', () => {
  const deployment = (replicas: number) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
          ],
          affinity: affinity({
            antiRequired: [
              { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          }),
        },
      },
    },
  });
  const run = (replicas: number) =>
    simulate({
      manifests: [{ object: deployment(replicas), source: { file: 'web.yaml', documentIndex: 0, path: [] } }],
      cluster: fourNodeCluster(),
      version: '1.35',
    }).report.pods;

  test('three replicas with required anti-affinity land one per worker', () => {
    const nodes = run(3).map((entry) => entry.nodeName);
    assert.deepEqual([...nodes].sort(), ['worker-1', 'worker-2', 'worker-3']);
  });

  test('a fourth replica stays Pending with the FitError counting the control plane taint', () => {
    const pods = run(4);
    const pending = pods.filter((entry) => entry.nodeName === null);
    assert.equal(pending.length, 1);
    assert.equal(
      pending[0]?.unschedulable?.message,
      "0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 node(s) didn't match pod anti-affinity rules. " +
        'no new claims to deallocate, preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, ' +
        '3 No preemption victims found for incoming pod.',
    );
  });
});
