import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { scratch } from './cli-harness';
import { CAPTURE, CAPTURED_MANIFESTS, largeDeployment, runPlanCli, validPlan } from './plan-support';

// The done-when checks of issue #32, run on the built CLI against examples/captured (a cluster as kubectl get …
// -o yaml exports it) and examples/.foresight/cluster.yaml (a cluster file with the `burst` NodeGroup).

describe('foresight plan against examples/captured', () => {
  test('re-applying the captured manifests plans no changes, is safe, and exits 0', () => {
    const text = runPlanCli(['--cluster', CAPTURE, 'examples/captured/']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^safe: no changes \(3 unchanged\); 0 rollout\(s\); 0 failure\(s\), 0 warning\(s\)$/m,
    );
    assert.doesNotMatch(text.stdout, /^Rollouts$/m);
    assert.match(text.stdout, /no running pod moves to another node/);
    // The cluster file lists no webhook configuration, and a capture reads none: the plan says so.
    assert.match(text.stdout, /- admission webhooks are not called, and the cluster file lists none/);
    const plan = validPlan(runPlanCli(['--cluster', CAPTURE, '-o', 'json', 'examples/captured/']).stdout);
    assert.deepEqual(
      plan.objects.map((object) => [object.action, object.kind, object.name, object.line]),
      [
        ['unchanged', 'Deployment', 'catalog', 3],
        ['unchanged', 'StatefulSet', 'cart-db', 25],
        ['unchanged', 'DaemonSet', 'node-exporter', 55],
      ],
    );
    // kubectl apply without --prune deletes nothing: the cluster's other objects are named, once.
    assert.ok(plan.leftAlone.includes('Namespace store'));
    assert.match(
      text.stdout,
      /left alone: 7 object\(s\) of the cluster not in the input \(kubectl apply without --prune deletes nothing\)/,
    );
  });

  test('changing one image plans one rolling update with its waves, time and peak unavailability', () => {
    const dir = scratch({
      'web.yaml': CAPTURED_MANIFESTS.replace('image: nginx:1.27.3', 'image: nginx:1.27.4'),
    });
    const text = runPlanCli(['--cluster', CAPTURE, join(dir, 'web.yaml')]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /configured {2}Deployment store\/catalog {2}\(.*web\.yaml:3\)\n {6}spec\.template\.spec\.containers\[0\]\.image: nginx:1\.27\.3 → nginx:1\.27\.4\n/,
    );
    assert.match(
      text.stdout,
      /Deployment store\/catalog \(RollingUpdate\): 2 of 2 pod\(s\) replaced in 2 wave\(s\), complete in 22s from t=0s; at most 0 of 2 unavailable at once/,
    );
    assert.match(text.stdout, /^safe: 0 to create, 1 to configure, 2 unchanged; 1 rollout\(s\)/m);
    const plan = validPlan(runPlanCli(['--cluster', CAPTURE, '--output=json', join(dir, 'web.yaml')]).stdout);
    assert.equal(plan.rollouts.length, 1);
    assert.deepEqual(
      { ...plan.rollouts[0], message: undefined },
      {
        kind: 'Deployment',
        namespace: 'store',
        name: 'catalog',
        strategy: 'RollingUpdate',
        replicas: 2,
        isNew: false,
        podsReplaced: 2,
        waves: 2,
        startedAt: 0,
        duration: 22,
        outcome: 'Complete',
        peakUnavailable: 0,
        budgets: [],
        message: undefined,
      },
    );
    assert.deepEqual(plan.objects[0]?.changes, [
      { path: 'spec.template.spec.containers[0].image', old: 'nginx:1.27.3', new: 'nginx:1.27.4' },
    ]);
  });

  test('a budget over the rolling workload and another one counts both workloads’ pods', () => {
    // minAvailable 2 over catalog's 2 pods and cart-db's 1: the rollout surges and never takes one away, so the
    // disruption controller allows 2 throughout; counting catalog's pods alone would say 0.
    const dir = scratch({
      'web.yaml': CAPTURED_MANIFESTS.replace('image: nginx:1.27.3', 'image: nginx:1.27.4'),
      'budget.yaml': [
        'apiVersion: policy/v1',
        'kind: PodDisruptionBudget',
        'metadata: {name: store-pods, namespace: store}',
        'spec:',
        '  minAvailable: 2',
        '  selector:',
        '    matchExpressions: [{key: app, operator: In, values: [catalog, cart-db]}]',
        '',
      ].join('\n'),
    });
    const plan = validPlan(runPlanCli(['--cluster', CAPTURE, '-o', 'json', dir]).stdout);
    assert.deepEqual(plan.rollouts[0]?.budgets, [{ name: 'store-pods', minDisruptionsAllowed: 2 }]);
  });

  test('adding a Deployment too large for the nodes plans a Pending workload that will fail, with its file:line', () => {
    const dir = scratch({
      'web.yaml': CAPTURED_MANIFESTS,
      'search.yaml': largeDeployment('search', 'store', false),
    });
    const text = runPlanCli(['--cluster', CAPTURE, dir]);
    assert.equal(text.code, 1, text.stderr);
    assert.match(text.stdout, /created {5}Deployment store\/search/);
    assert.match(
      text.stdout,
      /failure pod-unschedulable .*search\.yaml:\d+: 1 of 3 replicas stays Pending: 0\/2 nodes are available: 2 Insufficient cpu, 2 Insufficient memory\./,
    );
    assert.match(text.stdout, /never completes: ProgressDeadlineExceeded/);
    assert.match(
      text.stdout,
      /^will fail: 1 to create, 0 to configure, 3 unchanged; 1 rollout\(s\); 1 failure\(s\)/m,
    );
  });
});

describe('foresight plan on a cluster with node groups', () => {
  test('a Deployment larger than the nodes plans the scale-up of the burst group and the capacity it adds', () => {
    const dir = scratch({ 'search.yaml': largeDeployment('search', 'default', true) });
    const result = runPlanCli(['--cluster', 'examples/.foresight/cluster.yaml', '-o', 'json', dir]);
    const plan = validPlan(result.stdout);
    assert.deepEqual(
      plan.capacity.nodesAdded.map((node) => [node.node, node.group]),
      [['burst-1', 'burst']],
    );
    const burst = plan.capacity.groups.find((group) => group.group === 'burst');
    assert.deepEqual(
      [burst?.nodesBefore, burst?.nodesAfter, burst?.cpuBefore, burst?.cpuAfter],
      [0, 1, '0', '3'],
    );
    const waiting = plan.problems.find((problem) => problem.code === 'pod-waits-for-scale-up');
    assert.equal(waiting?.severity, 'note');
    assert.match(
      waiting?.message ?? '',
      /Pending for ~\d+ s until the cluster autoscaler adds a node to group `burst`/,
    );
    // The cluster file's own drain is blocked with or without the apply: marked, and out of the verdict's count.
    const drain = plan.problems.find((problem) => problem.code === 'drain-blocked');
    assert.equal(drain?.isPreexisting, true);
    assert.equal(
      plan.verdict.failures,
      plan.problems.filter((p) => p.severity === 'failure' && !p.isPreexisting).length,
    );
  });
});

describe('foresight plan: what it refuses and what it says it cannot know', () => {
  test('without a cluster the embedded default is refused with a clear message and exit 2', () => {
    const alone = scratch({ 'web.yaml': CAPTURED_MANIFESTS });
    for (const args of [[alone], ['--profile', 'default', 'examples/captured/']]) {
      const result = runPlanCli(args);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /a plan compares the input with a cluster: give --cluster FILE/);
      assert.equal(result.stdout, '');
    }
    const bad = runPlanCli(['--cluster', CAPTURE, '--output', 'sarif', 'examples/captured/']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--output must be text, markdown or json \(got "sarif"\)/);
  });

  test('kinds the engine does not model and kinds the cluster file lacks are stated, never dropped', () => {
    const dir = scratch({
      'ingress.yaml': `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: store}
spec:
  rules:
    - host: shop.example.com
      http:
        paths:
          - {path: /, pathType: Prefix, backend: {service: {name: catalog, port: {number: 80}}}}
`,
      'hook.yaml': `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: policy}
webhooks: []
`,
    });
    const plan = validPlan(runPlanCli(['--cluster', CAPTURE, '-o', 'json', dir]).stdout);
    const ingress = plan.objects.find((object) => object.kind === 'Ingress');
    assert.equal(ingress?.action, 'created');
    assert.match(ingress?.note ?? '', /the cluster file holds no Ingress: it may already exist/);
    assert.ok(
      plan.scope.some((line) =>
        /not simulated: what the controllers of Ingress \(1\), ValidatingWebhookConfiguration \(1\) do/.test(
          line,
        ),
      ),
    );
    assert.ok(
      plan.scope.some((line) =>
        /1 admission webhook configuration\(s\) \(policy\) are not called/.test(line),
      ),
    );
  });

  test('the same input plans the same JSON twice (stable ordering, for a comment updated in place)', () => {
    const first = runPlanCli(['--cluster', CAPTURE, '-o', 'json', 'examples/captured/']);
    const second = runPlanCli(['-o', 'json', '--cluster', CAPTURE, 'examples/captured/']);
    assert.equal(first.stdout, second.stdout);
  });
});
