import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { runSimulate } from '../../server/src/cli/simulate';
import type { JsonReport } from '../../server/src/cli/formats/report-json';

// runSimulate called directly with a fake CliIo: output, exit codes and the JSON report's schema.

const ROOT = join(__dirname, '..', '..');

async function run(
  args: readonly string[],
  cwd = ROOT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runSimulate(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd,
  });
  return { code, stdout, stderr };
}

function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'foresight-simulate-'));
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const WEB_POD = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
    - name: web
      image: nginx:1.27
      resources:
        requests:
          cpu: 100m
`;

describe('foresight simulate on examples/', () => {
  test('exits 1 because the GPU job stays Pending and says why; the oversized deployment waits for a large node', async () => {
    const { code, stdout } = await run(['-R', '--profile', 'default', 'examples/']);
    assert.equal(code, 1);
    // The embedded default (profile default) adds a 16-cpu node for the analytics engine: 5 nodes at the end.
    assert.match(stdout, /^Kubernetes 1\.35 · profile default · 5 nodes$/m);
    assert.match(
      stdout,
      /0\/5 nodes are available: 1 Insufficient cpu, 1 node\(s\) had untolerated taint\(s\), 4 Insufficient nvidia\.com\/gpu\./,
    );
    assert.match(
      stdout,
      /Pod finetune-recommender-\S+ stays Pending: no node of profile "default" can hold a pod requesting 1 nvidia\.com\/gpu, and the cluster autoscaler cannot help/,
    );
    assert.match(
      stdout,
      /note: examples\/batch-analytics\/deployment\.yaml:\d+: Pod analytics-engine-\S+: Pending for ~120 s until the cluster autoscaler adds a node to group `large` \(0 → 1 of max 3\)\./,
    );
    assert.match(
      stdout,
      /kube-system\/log-agent-\S+ +DaemonSet\/log-agent +Burstable +2000001000 +control-plane/,
    );
    // The video transcoder needs the "burst" pool, which only the cluster file's NodeGroup brings.
    assert.match(stdout, /27 pods: 22 placed, 5 Pending; 2 refused by the API server\./);
  });

  test('with the examples’ cluster file, the video transcoder waits for the cluster autoscaler and the rest says why it cannot help', async () => {
    // A Pending pod there asks for a GPU: the autoscaler's first loops wait 30 s for more pods (allPodsAreNew).
    const { stdout } = await run(['-R', '--cluster', 'examples/.foresight/cluster.yaml', 'examples/']);
    assert.match(
      stdout,
      /\nCluster autoscaler\n {2}30s scale-up burst 0 → 2 \(max 3\) for 4 pods: burst-1 Ready at 120s, burst-2 Ready at 120s\n/,
    );
    assert.equal(
      stdout.match(
        /^default\/video-transcoder-\S+ +Deployment\/video-transcoder +Guaranteed +0 +burst-[12]/gm,
      )?.length,
      4,
    );
    assert.match(
      stdout,
      /note: examples\/autoscaling\/deployment\.yaml:\d+: 4 pods of Deployment video-transcoder: Pending for ~120 s until the cluster autoscaler adds 2 nodes to group `burst` \(0 → 2 of max 3\)\./,
    );
    // The oversized engine fits no node group either: no node can hold its requests, and the burst nodes' taint
    // is the autoscaler's reason.
    assert.match(
      stdout,
      /warning: examples\/batch-analytics\/deployment\.yaml:\d+ spec\.template\.spec: Pod analytics-engine-\S+ stays Pending: no node of the cluster or of its node groups can hold a pod requesting 6 cpu and 24Gi memory, and the cluster autoscaler cannot help: pod didn't trigger scale-up: 1 node\(s\) had untolerated taint\(s\) \[pod-no-scale-up\]/,
    );
  });

  test('the shop namespace shows admission: PodSecurity refuses the privileged pod, the quota the third replica', async () => {
    const { stdout } = await run(['-R', 'examples/']);
    assert.match(
      stdout,
      /Pod shop\/debug, examples\/shop\/debug\.yaml: PodSecurity\n {4}pods "debug" is forbidden: violates PodSecurity "restricted:latest": privileged \(container "shell" must not set securityContext\.privileged=true\)/,
    );
    assert.match(
      stdout,
      /Pod shop\/checkout-\S+- \(created by ReplicaSet\/checkout-\S+\), examples\/shop\/checkout\.yaml: ResourceQuota\n {4}Deployment checkout: 3 desired · 2 created · 1 refused by ResourceQuota\n {4}pods "checkout-\S+-" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2/,
    );
    assert.equal(stdout.match(/^shop\/checkout-\S+ +Deployment\/checkout +Burstable/gm)?.length, 2);
  });

  test('with the examples’ cluster file, the blocked drain is a predicted failure, not an error of the input', async () => {
    const { code, stdout } = await run(['-R', '--cluster', 'examples/.foresight/cluster.yaml', 'examples/']);
    assert.equal(code, 1);
    assert.match(
      stdout,
      /kubectl drain worker-1 never finishes: eviction of pod default\/payments-\S+ is refused/,
    );
    assert.match(
      stdout,
      /25 pods: 21 placed, 4 Pending; 2 refused by the API server; 1 predicted failure \(drains, rollouts\)\.$/m,
    );
    // The drain evicts orders-db-1, whose volume was provisioned in worker-1's zone: no other node is in it.
    assert.match(
      stdout,
      /default\/orders-db-1 .* Pending\n {4}0\/6 nodes are available: 1 node\(s\) were unschedulable, 2 node\(s\) didn't match PersistentVolume's node affinity, 3 node\(s\) had untolerated taint\(s\)\./,
    );
    assert.doesNotMatch(stdout, /in the input/);
  });

  test('the JSON report follows schemas/report.schema.json and is identical on two runs', async () => {
    const first = await run(['-R', '--output', 'json', '--profile', 'default', 'examples/']);
    const second = await run(['--output=json', '--recursive', '--profile=default', 'examples/']);
    assert.equal(first.stdout, second.stdout);
    const report = JSON.parse(first.stdout) as JsonReport;
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    assert.ok(validate(report), JSON.stringify(validate.errors));
    const gpu = report.pods.find((pod) => pod.owner?.name === 'finetune-recommender');
    assert.equal(gpu?.nodeName, null);
    // The large node added for the analytics engine has neither a GPU nor the cpu left.
    assert.deepEqual(gpu?.unschedulable?.reasons, {
      'Insufficient cpu': 1,
      'Insufficient nvidia.com/gpu': 4,
      'node(s) had untolerated taint(s)': 1,
    });
    assert.deepEqual(gpu?.unschedulable?.plugins, { NodeResourcesFit: 4, TaintToleration: 1 });
    assert.deepEqual(gpu?.unschedulable?.nodes['control-plane'], ['node(s) had untolerated taint(s)']);
    assert.equal(
      report.pods.filter((pod) => pod.owner?.name === 'storefront' && pod.nodeName !== null).length,
      3,
    );
  });

  test('version 1.34 words the taint reason with its key and value', async () => {
    const { stdout } = await run([
      '--kubernetes-version',
      '1.34',
      '--profile',
      'default',
      'examples/gpu-job',
    ]);
    assert.match(
      stdout,
      /0\/4 nodes are available: 1 node\(s\) had untolerated taint \{node-role\.kubernetes\.io\/control-plane: \}, 3 Insufficient nvidia\.com\/gpu\./,
    );
  });

  test('exits 0 when every pod is placed', async () => {
    const { code, stdout } = await run(['--profile', 'default', 'examples/web-app']);
    assert.equal(code, 0);
    assert.match(stdout, /3 pods: 3 placed, 0 Pending\./);
  });
});

describe('foresight simulate input errors', () => {
  test('a bad cluster file gives findings naming the object and the field, and exit 1', async () => {
    const dir = scratch({
      'cluster.yaml': `apiVersion: v1
kind: Node
metadata:
  name: w1
status:
  allocatable:
    cpu: "4"
    memory: 16GB
    pods: "110"
`,
      'pod.yaml': WEB_POD,
    });
    const { code, stdout } = await run(['--cluster', 'cluster.yaml', 'pod.yaml'], dir);
    assert.equal(code, 1);
    assert.match(
      stdout,
      /error: cluster\.yaml:8 status\.allocatable\.memory: Node "w1": status\.allocatable\.memory "16GB" is not a quantity \[invalid-quantity\]/,
    );
    assert.match(stdout, /no nodes available to schedule pods|cluster has no usable Node/);
  });

  test("a YAML syntax error is an error finding with the editor's code and its line, and exit 1", async () => {
    const dir = scratch({ 'broken.yaml': `${WEB_POD}---\nkind: Pod\nmetadata: [unclosed\n` });
    const { code, stdout } = await run(['--output', 'json', 'broken.yaml'], dir);
    assert.equal(code, 1);
    const report = JSON.parse(stdout) as JsonReport;
    assert.equal(report.findings[0]?.code, 'yaml-syntax');
    assert.equal(report.findings[0]?.documentIndex, 1);
    assert.equal(report.findings[0]?.line, 14); // the unclosed flow sequence
    assert.equal(report.pods.length, 1);
  });

  test('a document too large to analyse is named as left out and fails the run, not passed over in silence', async () => {
    // 120,000 keys in one document (files joined without `---`): more values than one document is analysed with.
    const keys = Array.from({ length: 120_000 }, (_, i) => `  k${i}: v`).join('\n');
    const dir = scratch({
      'joined.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n${keys}\n`,
    });
    const { code, stdout } = await run(['joined.yaml'], dir);
    assert.equal(code, 1);
    assert.match(
      stdout,
      /\nexit 1: 1 input not checked \[1 document-too-large\] \(--fail-on prediction\)\n$/,
    );
    assert.match(
      stdout,
      /note: joined\.yaml:1: This document holds about [\d,]+ YAML values, more than the 200,000 analysed in one document; it was not analysed\. \[document-too-large\]/,
    );
    assert.match(stdout, /0 object\(s\); 0 pods: 0 placed, 0 Pending; 1 input not checked\.\n/);
  });

  const USAGE_CASES: readonly { name: string; args: readonly string[]; error: RegExp }[] = [
    { name: 'an unknown flag', args: ['--bogus', 'examples/'], error: /unknown option --bogus/ },
    { name: 'no manifest path', args: [], error: /no manifest path given/ },
    {
      name: 'a missing path',
      args: ['does-not-exist/'],
      error: /no such file or directory: does-not-exist\//,
    },
    {
      name: 'an unsupported version',
      args: ['--kubernetes-version', '1.20', 'examples/'],
      error: /must be one of 1\.33, 1\.34, 1\.35/,
    },
    {
      name: 'a bad output format',
      args: ['--output', 'yaml', 'examples/'],
      error: /--output must be one of text, json, sarif, junit, not "yaml"/,
    },
    { name: '--cluster without a file', args: ['examples/', '--cluster'], error: /--cluster needs a file/ },
  ];
  for (const testCase of USAGE_CASES) {
    test(`${testCase.name} is a usage error: exit 2 with the usage line on stderr`, async () => {
      const { code, stdout, stderr } = await run(testCase.args);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.match(stderr, testCase.error);
      assert.match(stderr, /usage: foresight simulate/);
    });
  }
});
