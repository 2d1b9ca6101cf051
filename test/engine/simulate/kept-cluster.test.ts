import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { captureText } from '../../../bench/captured-cluster';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../../server/src/engine/simulate/simulate';
import { readCaptureText } from '../../../server/src/language/manifests/capture-reader';
import type { Finding } from '../../../protocol/finding';
import { parseObjects } from '../../support/raw-objects';

// What simulate() keeps of a cluster array between calls (server/src/engine/simulate/kept-cluster.ts) must not
// change a byte: for each cluster, every manifest set is simulated on the SAME cluster array twice in a row, then
// again in the reverse order, and each result must equal the one on a fresh deep copy of the cluster (which shares
// nothing with any earlier call). The manifests preempt, evict and scale down the cluster's pods, a scenario drains
// and fails nodes under a PodDisruptionBudget, a quota refuses pods: a run that changed anything it shares with the
// next would show here.

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'engine');

function parse(text: string, file: string): SourcedObject[] {
  const findings: Finding[] = [];
  return parseObjects(text, file, findings);
}

function read(dir: string, file: string): SourcedObject[] {
  return existsSync(join(dir, file)) ? parse(readFileSync(join(dir, file), 'utf8'), file) : [];
}

/** A captured cluster (bench/captured-cluster.ts): 12 nodes, 360 pods of 4 Deployments, as the editor reads one. */
function capturedCluster(): SourcedObject[] {
  const read = readCaptureText('capture.yaml', captureText(12, 360));
  assert.ok(read.ok);
  return [...read.objects];
}

/**
 * The capture plus a scenario that drains and fails nodes, a budget on app-0001, a PriorityClass, a LimitRange
 * (which a manifest's LimitRange in the same namespace adds to) and its Namespace (so Namespaces are listed: one
 * the cluster lacks does not exist, unless the apply creates it).
 */
function capturedClusterWithScenario(): SourcedObject[] {
  const extra = `
apiVersion: foresight/v1
kind: Scenario
metadata: {name: what-if}
spec:
  steps:
    - {at: 30, drain: {node: node-00001}}
    - {at: 90, failNode: {node: node-00002}}
    - {at: 150, scale: {kind: Deployment, name: app-0002, replicas: 40}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: app-0001, namespace: default}
spec: {maxUnavailable: 1, selector: {matchLabels: {app: app-0001}}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch-low}
value: -10
---
apiVersion: v1
kind: Namespace
metadata: {name: default}
---
apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: default}
spec:
  limits:
    - type: Container
      defaultRequest: {cpu: 50m}
`;
  return [...capturedCluster(), ...parse(extra, 'scenario.yaml')];
}

function deployment(name: string, replicas: number, cpu: string, extra = ''): string {
  return `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      ${extra}
      containers:
        - name: c
          image: registry.example/${name}:2
          resources: {requests: {cpu: ${cpu}, memory: 128Mi}}
`;
}

/** Manifest sets against the captured cluster, each named by what it does to the cluster's pods. */
const CAPTURE_MANIFESTS: readonly { readonly name: string; readonly text: string }[] = [
  { name: 'a new Deployment that fits', text: deployment('web', 20, '200m') },
  {
    name: 'a high-priority Deployment that preempts cluster pods',
    text: `
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: critical}
value: 1000000
---
${deployment('big', 8, '15', 'priorityClassName: critical')}`,
  },
  {
    name: 'a changed cluster Deployment that scales down and rolls out',
    text: deployment('app-0000', 10, '150m'),
  },
  {
    name: 'a namespace with a quota that refuses pods',
    text: `
apiVersion: v1
kind: Namespace
metadata: {name: team}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: pods, namespace: team}
spec: {hard: {pods: "3"}}
---
${deployment('quota', 5, '100m').replace('namespace: default', 'namespace: team')}`,
  },
  {
    name: 'a budget that blocks the drain of the cluster pods it covers',
    text: `
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: app-0003, namespace: default}
spec: {minAvailable: "100%", selector: {matchLabels: {app: app-0003}}}
`,
  },
  {
    name: 'a LimitRange that sets limits where the cluster sets requests',
    text: `
apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: default}
spec:
  limits:
    - type: Container
      max: {memory: 1Gi}
      default: {memory: 256Mi}
---
${deployment('limited', 3, '100m')}`,
  },
  {
    name: 'a quota on Deployments that the cluster fills and a cluster Deployment applied again',
    text: `
apiVersion: v1
kind: ResourceQuota
metadata: {name: deployments, namespace: default}
spec: {hard: {count/deployments.apps: "4"}}
---
${deployment('app-0001', 20, '100m')}`,
  },
  {
    name: 'a Deployment in a namespace the cluster does not have (another set creates it)',
    text: deployment('elsewhere', 2, '100m').replace('namespace: default', 'namespace: team'),
  },
  { name: 'nothing', text: '' },
];

/** The report, records and findings of one call, as text (what a user sees, byte for byte). */
function run(cluster: readonly SourcedObject[], manifests: readonly SourcedObject[]): string {
  return JSON.stringify(simulate({ manifests, cluster, version: '1.35' }));
}

/**
 * Simulates every manifest set on one cluster array twice in a row, then all again in the reverse order, and checks
 * each result against a call on a fresh deep copy of the cluster.
 */
function checkKept(cluster: readonly SourcedObject[], sets: readonly (readonly SourcedObject[])[]): void {
  const fresh = sets.map((manifests) => run(structuredClone(cluster), manifests));
  const order = [...sets.keys(), ...[...sets.keys()].reverse()];
  for (const index of order) {
    const manifests = sets[index] ?? [];
    for (let repeat = 0; repeat < 2; repeat++) {
      assert.equal(run(cluster, manifests), fresh[index], `manifest set ${index}, repeat ${repeat}`);
    }
  }
}

function subfolders(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort();
}

describe('simulate() on a cluster array it was given before', () => {
  test('a captured cluster gives what a fresh copy gives, for manifests that preempt, scale down and are refused', () => {
    checkKept(
      capturedCluster(),
      CAPTURE_MANIFESTS.map(({ text, name }) => parse(text, `${name}.yaml`)),
    );
  });

  test('a captured cluster with drains, a failed node and a budget gives what a fresh copy gives', () => {
    checkKept(
      capturedClusterWithScenario(),
      CAPTURE_MANIFESTS.map(({ text, name }) => parse(text, `${name}.yaml`)),
    );
  });

  const fixtures = [
    ...subfolders(FIXTURES)
      .filter((name) => name !== 'timeline')
      .map((name) => join(FIXTURES, name)),
    ...subfolders(join(FIXTURES, 'timeline')).map((name) => join(FIXTURES, 'timeline', name)),
  ];
  for (const dir of fixtures) {
    test(`the fixture ${dir.slice(FIXTURES.length + 1)} gives what a fresh copy gives, its manifests or none`, () => {
      checkKept(read(dir, 'cluster.yaml'), [read(dir, 'manifests.yaml'), []]);
    });
  }
});
