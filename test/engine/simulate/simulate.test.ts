import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseObjects } from '../../support/raw-objects';
import type { Finding } from '../../../protocol/finding';
import { simulate } from '../../../server/src/engine/simulate/simulate';

// simulate() end to end on small inputs: scheduler configuration profiles, pods naming a node, determinism.

function objects(text: string, file: string) {
  const syntax: Finding[] = [];
  const parsed = parseObjects(text, file, syntax);
  assert.deepEqual(syntax, []);
  return parsed;
}

const NODES = ['a', 'b', 'c']
  .map(
    (name) => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
`,
  )
  .join('---\n');

const PODS = [1, 2, 3]
  .map(
    (i) => `apiVersion: v1
kind: Pod
metadata:
  name: p${i}
spec:
  containers:
    - name: app
      image: busybox:1.36
      resources:
        requests: {cpu: 500m, memory: 256Mi}
`,
  )
  .join('---\n');

const MOST_ALLOCATED = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: MostAllocated
            resources:
              - {name: cpu, weight: 1}
              - {name: memory, weight: 1}
`;

describe('simulate', () => {
  test('the default LeastAllocated strategy spreads pods over empty nodes', () => {
    const result = simulate({
      manifests: objects(PODS, 'pods.yaml'),
      cluster: objects(NODES, 'nodes.yaml'),
      version: '1.35',
    });
    assert.deepEqual(
      result.report.pods.map((pod) => pod.nodeName),
      ['a', 'b', 'c'],
    );
  });

  test("a KubeSchedulerConfiguration's MostAllocated strategy packs pods onto one node", () => {
    const cluster = [...objects(NODES, 'nodes.yaml'), ...objects(MOST_ALLOCATED, 'scheduler.yaml')];
    const result = simulate({ manifests: objects(PODS, 'pods.yaml'), cluster, version: '1.35' });
    assert.deepEqual(
      result.report.pods.map((pod) => pod.nodeName),
      ['a', 'a', 'a'],
    );
    assert.deepEqual(
      result.report.findings.filter((finding) => finding.severity === 'error'),
      [],
    );
  });

  test('a pod naming a node is bound to it without scheduling; one naming a missing node stays Pending', () => {
    const manifests = objects(
      `apiVersion: v1
kind: Pod
metadata: {name: pinned}
spec:
  nodeName: c
  containers: [{name: app, image: busybox:1.36}]
---
apiVersion: v1
kind: Pod
metadata: {name: lost}
spec:
  nodeName: z
  containers: [{name: app, image: busybox:1.36}]
`,
      'pinned.yaml',
    );
    const result = simulate({ manifests, cluster: objects(NODES, 'nodes.yaml'), version: '1.35' });
    assert.equal(result.report.pods[0]?.nodeName, 'c');
    assert.equal(result.report.pods[1]?.nodeName, null);
    assert.match(result.report.pods[1]?.unschedulable?.message ?? '', /spec\.nodeName "z" names no node/);
  });

  test('a pod naming a PriorityClass that does not exist is an error finding and creates no pod', () => {
    const manifests = objects(
      `apiVersion: v1
kind: Pod
metadata: {name: urgent}
spec:
  priorityClassName: very-high
  containers: [{name: app, image: busybox:1.36}]
`,
      'urgent.yaml',
    );
    const result = simulate({ manifests, cluster: objects(NODES, 'nodes.yaml'), version: '1.35' });
    assert.equal(result.report.pods.length, 0);
    const finding = result.report.findings.find((entry) => entry.code === 'unknown-priority-class');
    assert.equal(finding?.message, 'Pod "default/urgent": no PriorityClass with name very-high was found');
    assert.deepEqual(finding?.path, ['spec', 'priorityClassName']);
  });

  test('the same input gives the same report twice', () => {
    const run = () =>
      JSON.stringify(
        simulate({
          manifests: objects(PODS, 'pods.yaml'),
          cluster: objects(NODES, 'nodes.yaml'),
          version: '1.35',
        }).report,
      );
    assert.equal(run(), run());
  });
});

describe('simulate on malformed and oversized input', () => {
  const source = (documentIndex: number) => ({ file: 'm.yaml', documentIndex, path: [] as string[] });

  test('an object with a null item in a list of objects is left out with a finding, not a crash', () => {
    const result = simulate({
      manifests: [
        {
          object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [null] } },
          source: source(0),
        },
        {
          object: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'q' },
            spec: { containers: [{ name: 'a', image: 'nginx', args: [null] }] },
          },
          source: source(1),
        },
      ],
      cluster: null,
    });
    assert.deepEqual(
      result.findings.filter((finding) => finding.code === 'invalid-field').map((f) => [f.path, f.message]),
      [
        [
          ['spec', 'containers', 0],
          'Pod "p": spec.containers[0] is null; the API server reads a null list item as an empty object and rejects the Pod, so it is left out of the simulation',
        ],
      ],
    );
    assert.deepEqual(
      result.report.pods.map((pod) => pod.name),
      ['q'],
    );
  });

  test('workloads asking for more pods than maxPods are not simulated; a finding names the workload', () => {
    const deployment = (name: string, replicas: number) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: 'a', image: 'nginx' }] },
        },
      },
    });
    const result = simulate({
      manifests: [
        { object: deployment('small', 6), source: source(0) },
        { object: deployment('huge', 1_000_000), source: source(1) },
      ],
      cluster: null,
      maxPods: 10,
    });
    assert.deepEqual(result.report.pods, []);
    const limit = result.findings.filter((finding) => finding.code === 'workload-too-many-pods');
    assert.deepEqual(
      limit.map((finding) => [finding.object?.documentIndex, finding.severity, finding.message]),
      [
        [
          1,
          'error',
          'The manifests ask for more than 10 pods (reached at Deployment "huge"), more than one simulation creates; nothing was simulated.',
        ],
      ],
    );
  });
});
