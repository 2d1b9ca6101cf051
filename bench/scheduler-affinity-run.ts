/**
 * The body of bench/scheduler-affinity.ts, bundled by it with esbuild and run in a fresh process per size: builds
 * nodes in 3 zones and workloads of 50 replicas with zone spreading, hostname spreading and required
 * anti-affinity, schedules them with the default profile, and prints pods/s, placements and peak memory.
 */
import { Cluster } from '../server/src/engine/model/snapshot/cluster';
import { ClusterObjects } from '../server/src/engine/model/snapshot/cluster-objects';
import { NodeInfo } from '../server/src/engine/model/snapshot/node-info';
import { createPodInfo } from '../server/src/engine/model/snapshot/pod-info';
import type { PodInfo } from '../server/src/engine/model/snapshot/pod-info';
import { systemPriorityClasses } from '../server/src/engine/model/load/priority';
import { toResources } from '../server/src/engine/model/resources';
import { buildFramework } from '../server/src/engine/scheduler/framework/build-framework';
import { DEFAULT_PROFILE } from '../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../server/src/engine/scheduler/registry';
import { Scheduler } from '../server/src/engine/scheduler/scheduler';

const GiB = 1024 ** 3;
const REPLICAS = 50;
const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';

/** Nodes large enough (128 cpu, 1000 pods) that resources never decide: spreading and affinity do. */
function makeNodes(count: number): NodeInfo[] {
  const nodes: NodeInfo[] = [];
  for (let i = 0; i < count; i++) {
    const name = `node-${String(i).padStart(5, '0')}`;
    const object = {
      kind: 'Node',
      metadata: { name, labels: { [HOSTNAME]: name, [ZONE]: `zone-${i % 3}` } },
      status: { allocatable: { cpu: '128', memory: '256Gi', pods: '1000' } },
    };
    const allocatable = toResources(
      new Map([
        ['cpu', 128_000],
        ['memory', 256 * GiB],
        ['pods', 1000],
      ]),
    );
    nodes.push(new NodeInfo(object, { file: 'bench', documentIndex: i, path: [] }, allocatable));
  }
  return nodes;
}

/** The pods of `count / 50` workloads, in workload order (as expansion lists them), and their ReplicaSets. */
function makePods(count: number, objects: ClusterObjects): PodInfo[] {
  const pods: PodInfo[] = [];
  for (let i = 0; i < count; i++) {
    const app = `app-${Math.floor(i / REPLICAS)}`;
    const replicaSet = `${app}-7d4b9c`;
    if (i % REPLICAS === 0) {
      const selector = { matchLabels: { app, 'pod-template-hash': '7d4b9c' } };
      objects.add(
        'ReplicaSet',
        { kind: 'ReplicaSet', metadata: { name: replicaSet, namespace: 'bench' }, spec: { selector } },
        { file: 'bench', documentIndex: i, path: [] },
      );
    }
    const selector = { matchLabels: { app } };
    const pod = {
      kind: 'Pod',
      metadata: {
        name: `${replicaSet}-${i}`,
        namespace: 'bench',
        labels: { app, 'pod-template-hash': '7d4b9c' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: replicaSet, controller: true }],
      },
      spec: {
        containers: [
          { name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '128Mi' } } },
        ],
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule', labelSelector: selector },
          { maxSkew: 2, topologyKey: HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: selector },
        ],
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: selector, topologyKey: HOSTNAME },
            ],
          },
        },
      },
    };
    const source = { file: 'bench', documentIndex: i, path: [] };
    pods.push(createPodInfo({ pod, source, owner: null, priority: 0, podLevelResources: true }, []));
  }
  return pods;
}

function runOnce(nodeCount: number, podCount: number): void {
  const objects = new ClusterObjects();
  const pods = makePods(podCount, objects);
  const cluster = new Cluster(makeNodes(nodeCount), systemPriorityClasses(), new Map(), 'bench', objects);
  const { framework } = buildFramework(DEFAULT_PROFILE, IN_TREE_REGISTRY, cluster, '1.35');
  const scheduler = new Scheduler(cluster, new Map([[DEFAULT_PROFILE.schedulerName, framework]]), {
    detail: 'compact',
  });
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  let placed = 0;
  const cpuStarted = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < pods.length; i++) {
    if (scheduler.scheduleOne(pods[i] as PodInfo).nodeName !== null) {
      placed++;
    }
    if (i % 5000 === 0) {
      const usage = process.memoryUsage();
      peakRss = Math.max(peakRss, usage.rss);
      peakHeap = Math.max(peakHeap, usage.heapUsed);
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const usage = process.memoryUsage();
  peakRss = Math.max(peakRss, usage.rss);
  peakHeap = Math.max(peakHeap, usage.heapUsed);
  // Pods per CPU second is the figure to compare: wall time also counts other processes on a shared machine.
  const rate = Math.round(podCount / cpuSeconds);
  const wallRate = Math.round(podCount / seconds);
  console.log(
    `${String(nodeCount).padStart(5)} nodes ${String(podCount).padStart(6)} pods: ${rate.toLocaleString('en-US').padStart(9)} pods/s of CPU` +
      ` (${wallRate.toLocaleString('en-US')} pods/s wall, ${seconds.toFixed(2)} s, ${placed} placed)` +
      `  peak RSS ${Math.round(peakRss / 2 ** 20)} MiB, heap ${Math.round(peakHeap / 2 ** 20)} MiB`,
  );
}

const [nodeArg, podArg] = (process.argv[2] ?? '').split(',').map(Number);
runOnce(nodeArg ?? 1000, podArg ?? 10_000);
