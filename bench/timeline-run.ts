/**
 * One timeline benchmark run (bundled and started by bench/timeline.ts): NODES nodes, DEPLOYMENTS Deployments of
 * REPLICAS replicas already running, written as `kubectl get nodes,deploy,rs,pods -o yaml` would export them
 * (every pod bound to a node, owned by its ReplicaSet), and manifests that give every Deployment a new image, so all
 * of them roll at once (maxSurge 25%, maxUnavailable 25%). Prints the CPU and wall time of the whole timeline, the
 * number of events and scheduling cycles, and peak memory.
 */
import { simulateTimeline } from '../server/src/engine/scenario/run-timeline';
import type { SourcedObject } from '../server/src/engine/model/load/cluster-load';
import { templateHash } from '../server/src/engine/workloads/hash';
import { Scheduler } from '../server/src/engine/scheduler/scheduler';

const [nodes = 1000, deployments = 200, replicas = 50] = (process.argv[2] ?? '')
  .split(',')
  .filter((part) => part !== '')
  .map(Number);

function sourced(objects: readonly unknown[], file: string): SourcedObject[] {
  return objects.map((object, documentIndex) => ({ object, source: { file, documentIndex, path: [] } }));
}

function node(index: number): unknown {
  const name = `node-${String(index).padStart(4, '0')}`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${index % 3}` },
    },
    status: { allocatable: { cpu: '16', memory: '64Gi', pods: '110' } },
  };
}

function template(app: string, version: string): Record<string, unknown> {
  return {
    metadata: { labels: { app } },
    spec: {
      containers: [
        {
          name: 'app',
          image: `registry.example.com/${app}:${version}`,
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
          readinessProbe: {
            httpGet: { path: '/healthz', port: 8080 },
            initialDelaySeconds: 5,
            periodSeconds: 5,
          },
        },
      ],
    },
  };
}

function deployment(index: number, version: string): unknown {
  const app = `app-${index}`;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: app, namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app } }, template: template(app, version) },
  };
}

/** The running ReplicaSet of a Deployment and its pods, spread over the nodes. */
function running(index: number, firstNode: number): unknown[] {
  const app = `app-${index}`;
  const base = template(app, '1.0');
  const hash = templateHash(base);
  const name = `${app}-${hash}`;
  const labels = { app, 'pod-template-hash': hash };
  const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: `uid-${name}`, controller: true };
  const replicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'default',
      uid: owner.uid,
      ownerReferences: [{ kind: 'Deployment', name: app }],
    },
    spec: { replicas, selector: { matchLabels: labels }, template: { ...base, metadata: { labels } } },
  };
  const pods = Array.from({ length: replicas }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${name}-p${i}`, namespace: 'default', labels, ownerReferences: [owner] },
    spec: {
      ...(base['spec'] as object),
      nodeName: `node-${String((firstNode + i) % nodes).padStart(4, '0')}`,
    },
  }));
  return [replicaSet, ...pods];
}

const cluster = sourced(
  [
    ...Array.from({ length: nodes }, (_, i) => node(i)),
    ...Array.from({ length: deployments }, (_, i) => deployment(i, '1.0')),
    ...Array.from({ length: deployments }, (_, i) => running(i, i * replicas)).flat(),
  ],
  'cluster.yaml',
);
const manifests = sourced(
  Array.from({ length: deployments }, (_, i) => deployment(i, '1.1')),
  'app.yaml',
);

// How much of the run is kube-scheduler's cycles (the engine's Scheduler, shared with the one-pass prediction).
let schedulingMs = 0;
// eslint-disable-next-line @typescript-eslint/unbound-method -- wrapped below and always called with its `this`
const scheduleOne = Scheduler.prototype.scheduleOne;
Scheduler.prototype.scheduleOne = function timed(this: Scheduler, ...args: Parameters<typeof scheduleOne>) {
  const begin = performance.now();
  try {
    return scheduleOne.apply(this, args);
  } finally {
    schedulingMs += performance.now() - begin;
  }
};

let peakRss = 0;
let peakHeap = 0;
const sample = (): void => {
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, usage.heapUsed);
};
const timer = setInterval(sample, 20);
const start = performance.now();
const cpuStart = process.cpuUsage();
const result = simulateTimeline({ manifests, cluster });
const cpu = process.cpuUsage(cpuStart);
const elapsed = performance.now() - start;
sample();
clearInterval(timer);
const complete = [...result.rollouts.records.values()].filter(
  (record) => record.outcome === 'Complete',
).length;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
console.log(
  `${nodes} nodes, ${deployments} x ${replicas} replicas: ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU ` +
    `(${elapsed.toFixed(0)} ms wall, of which ${schedulingMs.toFixed(0)} ms in scheduling cycles), ` +
    `${result.events.length} events, ` +
    `${result.records.size} pods scheduled, ${complete}/${deployments} rollouts complete at t=${result.endTime}s, ` +
    `peak RSS ${mib(peakRss)}, peak heap ${mib(peakHeap)}`,
);
