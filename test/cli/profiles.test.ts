/**
 * `foresight profiles` and `foresight simulate --profile`: the profiles of three clouds and three local
 * distributions, each node shape with its allocatable and the source of its formula; predictions on a profile
 * say which cluster they assumed, and the embedded default (the profile `default`) grows for a 6-cpu Deployment.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runForesight, scratch } from './cli-harness';

/** A Deployment of two replicas requesting `cpu` each. */
function deployment(cpu: string): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: api}',
    'spec:',
    '  replicas: 2',
    '  selector: {matchLabels: {app: api}}',
    '  template:',
    '    metadata: {labels: {app: api}}',
    '    spec:',
    `      containers: [{name: api, image: "registry.example/api:1", resources: {requests: {cpu: "${cpu}", memory: 1Gi}, limits: {memory: 1Gi}}}]`,
    '',
  ].join('\n');
}

describe('foresight profiles', () => {
  test('lists three clouds and three local distributions, each node shape with its allocatable and its source', async () => {
    const { code, stdout } = await runForesight(['profiles']);
    assert.equal(code, 0);
    for (const name of ['default', 'gke', 'eks', 'aks', 'kind', 'k3d', 'minikube']) {
      assert.match(stdout, new RegExp(`^${name}: `, 'm'));
    }
    assert.match(
      stdout,
      /^ {2}default-pool: e2-standard-4, 3–10 nodes; capacity 4 cpu, 16Gi memory, 110 pods; reserved 80m cpu, 2662\.4Mi memory \+ 100Mi eviction threshold; allocatable 3920m cpu, 13621\.6Mi memory, 110 pods$/m,
    );
    assert.match(
      stdout,
      /^ {2}general: m5\.xlarge, 3–10 nodes; capacity 4 cpu, 16Gi memory, 58 pods; reserved 80m cpu, 893Mi memory \+ 100Mi eviction threshold; allocatable 3920m cpu, 15391Mi memory, 58 pods$/m,
    );
    assert.match(
      stdout,
      /^ {2}nodepool1: Standard_D4s_v5, 3–10 nodes; capacity 4 cpu, 16Gi memory, 250 pods; reserved 140m cpu, 4Gi memory \+ 100Mi eviction threshold; allocatable 3860m cpu, 12188Mi memory, 250 pods$/m,
    );
    assert.match(stdout, /^ {2}kind: docker-4cpu-8gi, 1 node; .*allocatable 4 cpu, 8Gi memory, 110 pods$/m);
    for (const source of [
      'https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes#memory_and_cpu_reservations',
      'https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/internal/kubelet/config.go',
      'https://learn.microsoft.com/azure/aks/node-resource-reservations',
      'https://github.com/kubernetes-sigs/kind/blob/main/pkg/cluster/internal/kubeadm/config.go',
    ]) {
      assert.ok(stdout.includes(`  source: ${source}`), source);
    }
  });

  test('--output json gives the same as data', async () => {
    const { code, stdout } = await runForesight(['profiles', '--output', 'json']);
    assert.equal(code, 0);
    const profiles = JSON.parse(stdout) as {
      name: string;
      formula: { provider: string; source: string };
      groups: { name: string; allocatable: { cpu: string; memory: string } }[];
    }[];
    const aks = profiles.find((profile) => profile.name === 'aks');
    assert.equal(aks?.formula.provider, 'AKS');
    assert.deepEqual(
      aks?.groups.map((group) => [group.name, group.allocatable.cpu, group.allocatable.memory]),
      [
        ['nodepool1', '3860m', '12188Mi'],
        ['largepool', '15740m', '60386Mi'],
      ],
    );
  });

  test('an unknown argument is a usage error', async () => {
    const { code, stderr } = await runForesight(['profiles', 'gke']);
    assert.equal(code, 2);
    assert.match(stderr, /unknown argument gke/);
  });
});

describe('foresight simulate on a profile', () => {
  test('with no cluster file, a 6-cpu Deployment gives no warning or error: it waits for a large node', async () => {
    const folder = scratch({ 'api.yaml': deployment('6') });
    const { code, stdout } = await runForesight(['simulate', 'api.yaml'], { cwd: folder });
    assert.equal(code, 0, stdout);
    assert.doesNotMatch(stdout, /^(warning|error):/m);
    assert.match(
      stdout,
      /^note: \S+\.yaml:\d+: 2 pods of Deployment api: Pending for ~100 s until the cluster autoscaler adds a node to group `large` \(0 → 1 of max 3\)\. \[pod-waits-for-scale-up\]$/m,
    );
  });

  test('with no cluster file, a 64-cpu Deployment gives the warning that no node of the profile can hold it', async () => {
    const folder = scratch({ 'api.yaml': deployment('64') });
    const { code, stdout } = await runForesight(['simulate', 'api.yaml'], { cwd: folder });
    assert.equal(code, 1);
    assert.match(
      stdout,
      /^warning: api\.yaml:9 spec\.template\.spec: 2 pods of Deployment api stay Pending: no node of profile "default" can hold a pod requesting 64 cpu, and the cluster autoscaler cannot help: pod didn't trigger scale-up: 1 Insufficient cpu \[pod-no-scale-up\]$/m,
    );
    assert.doesNotMatch(stdout, /^error:/m);
  });

  test('--profile gke: the pool of e2-standard-16 takes a 6-cpu Deployment; its Pending warning names the assumed cluster', async () => {
    const fits = scratch({ 'api.yaml': deployment('6') });
    const placed = await runForesight(['simulate', '--profile', 'gke', 'api.yaml'], { cwd: fits });
    assert.equal(placed.code, 0, placed.stdout);
    assert.match(placed.stdout, /^Kubernetes 1\.35 · profile gke · 4 nodes$/m);
    assert.match(placed.stdout, /adds a node to group `large-pool` \(0 → 1 of max 5\)/);
    const tooBig = scratch({ 'api.yaml': deployment('20') });
    const { stdout } = await runForesight(['simulate', '--profile', 'gke', '--output', 'sarif', 'api.yaml'], {
      cwd: tooBig,
    });
    const results =
      (
        JSON.parse(stdout) as {
          runs: { results: { ruleId: string; level: string; message: { text: string } }[] }[];
        }
      ).runs[0]?.results ?? [];
    const pending = results.find((result) => result.ruleId === 'pod-unschedulable');
    assert.equal(pending?.level, 'warning');
    assert.match(pending?.message.text ?? '', /\(assumed cluster: profile "gke"\)$/);
    assert.match(
      results.find((result) => result.ruleId === 'pod-no-scale-up')?.message.text ?? '',
      /no node of profile "gke" can hold a pod requesting 20 cpu/,
    );
  });

  test('an unknown profile, or a profile and a cluster file, is a usage error', async () => {
    const unknown = await runForesight(['simulate', '--profile', 'openshift', 'api.yaml']);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /--profile "openshift" is not a profile; the profiles are default, gke, eks, aks, kind, k3d, minikube/,
    );
    const both = await runForesight(['simulate', '--profile', 'kind', '--cluster', 'c.yaml', 'api.yaml']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--profile and --cluster name two clusters: give one/);
  });
});
