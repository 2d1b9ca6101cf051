/**
 * A captured cluster of real size: a `kubectl get … -A -o yaml` export (one List document) of `nodes` nodes and
 * `pods` running pods of Deployments (with their ReplicaSets), read and simulated with one Deployment of it
 * re-applied with a new image. Measured in this process: reading the capture (files/capture-reader.ts), then
 * the simulation as `foresight simulate --cluster` runs it, and the heap the whole holds. Also the editor's
 * verdict for it as you type: simulated, or the notice that says why not (MAX_SIMULATED_PODS).
 */
import { performance } from 'node:perf_hooks';
import { dump } from 'js-yaml';
import { readCaptureText } from '../server/src/language/manifests/capture-reader';
import { simulate } from '../server/src/engine/simulate/simulate';
import { MAX_SIMULATED_NODES, MAX_SIMULATED_PODS } from '../server/src/language/service/prediction-types';
import type { Summary } from './support/stats';
import { summarize } from './support/stats';

/** One size's figures. */
export interface CaptureResult {
  readonly nodes: number;
  readonly pods: number;
  /** The capture's YAML size in MB. */
  readonly megabytes: number;
  readonly readMs: Summary;
  readonly simulateMs: Summary;
  /** Heap used after reading and simulating, in MB (after a collection when --expose-gc is on). */
  readonly heapMB: Summary;
  /** What the editor does with it: 'simulated as you type' or the reason it uses the embedded cluster. */
  readonly asYouType: string;
}

/** The capture's text: nodes, then per Deployment its ReplicaSet and pods spread over the nodes. */
export function captureText(nodes: number, pods: number): string {
  const items: unknown[] = [];
  for (let n = 0; n < nodes; n++) {
    const name = `node-${String(n).padStart(5, '0')}`;
    items.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${n % 3}` },
      },
      status: { allocatable: { cpu: '16', memory: '64Gi', pods: '110' } },
    });
  }
  const perDeployment = 100;
  for (let d = 0; d * perDeployment < pods; d++) {
    const app = `app-${String(d).padStart(4, '0')}`;
    const replicas = Math.min(perDeployment, pods - d * perDeployment);
    const labels = { app, 'pod-template-hash': '5d8f9c7b6' };
    const spec = {
      containers: [
        {
          name: 'c',
          image: `registry.example/${app}:1`,
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
          imagePullPolicy: 'IfNotPresent',
          terminationMessagePath: '/dev/termination-log',
        },
      ],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
    };
    items.push({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: app, namespace: 'default', uid: `d-${d}` },
      spec: {
        replicas,
        selector: { matchLabels: { app } },
        template: { metadata: { labels: { app } }, spec },
      },
    });
    items.push({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${app}-5d8f9c7b6`,
        namespace: 'default',
        uid: `r-${d}`,
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: app, uid: `d-${d}`, controller: true },
        ],
      },
      spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec } },
    });
    for (let i = 0; i < replicas; i++) {
      const index = d * perDeployment + i;
      items.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${app}-5d8f9c7b6-${String(i).padStart(5, '0')}`,
          namespace: 'default',
          labels,
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              name: `${app}-5d8f9c7b6`,
              uid: `r-${d}`,
              controller: true,
            },
          ],
        },
        spec: { ...spec, nodeName: `node-${String(index % nodes).padStart(5, '0')}` },
        status: {
          phase: 'Running',
          startTime: '2026-11-01T00:00:00Z',
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      });
    }
  }
  return dump({ apiVersion: 'v1', kind: 'List', items }, { noRefs: true });
}

/** The re-applied Deployment: app-0000 with a new image. */
function manifest(): unknown {
  const labels = { app: 'app-0000' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'app-0000', namespace: 'default' },
    spec: {
      replicas: 100,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'registry.example/app-0000:2',
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
            },
          ],
        },
      },
    },
  };
}

/** Runs the sizes. */
export function benchCapture(options: {
  sizes: readonly (readonly [number, number])[];
  repeats: number;
  log: (line: string) => void;
}): CaptureResult[] {
  const collect = (globalThis as { gc?: () => void }).gc;
  return options.sizes.map(([nodes, pods]) => {
    const text = captureText(nodes, pods);
    const readMs: number[] = [];
    const simulateMs: number[] = [];
    const heapMB: number[] = [];
    for (let run = 0; run <= options.repeats; run++) {
      collect?.();
      const started = performance.now();
      const capture = readCaptureText('capture.yaml', text);
      const read = performance.now();
      if (!capture.ok) {
        throw new Error(capture.message);
      }
      const result = simulate({
        manifests: [{ object: manifest(), source: { file: 'app.yaml', documentIndex: 0, path: [] } }],
        cluster: capture.objects,
        version: '1.35',
      });
      const done = performance.now();
      if (result.report.pods.length === 0) {
        throw new Error('the re-applied Deployment has no pods');
      }
      collect?.();
      if (run > 0) {
        readMs.push(read - started);
        simulateMs.push(done - read);
        heapMB.push(process.memoryUsage().heapUsed / 2 ** 20);
      }
    }
    const asYouType =
      nodes > MAX_SIMULATED_NODES
        ? `embedded cluster: more than ${MAX_SIMULATED_NODES} nodes`
        : pods > MAX_SIMULATED_PODS
          ? `embedded cluster: more than ${MAX_SIMULATED_PODS} running pods (the notice says so)`
          : 'simulated as you type';
    const result: CaptureResult = {
      nodes,
      pods,
      megabytes: Math.round((text.length / 2 ** 20) * 10) / 10,
      readMs: summarize(readMs),
      simulateMs: summarize(simulateMs),
      heapMB: summarize(heapMB),
      asYouType,
    };
    options.log(
      `${nodes} nodes, ${pods} pods (${result.megabytes} MB): read ${Math.round(result.readMs.median)} ms, simulate ${Math.round(result.simulateMs.median)} ms, heap ${Math.round(result.heapMB.median)} MB; ${asYouType}`,
    );
    return result;
  });
}
