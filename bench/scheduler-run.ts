/**
 * The body of bench/scheduler.ts, bundled by it with esbuild (as dist/ bundles the engine) and run in a fresh
 * process per run: builds identical nodes and plain resource-fit pods, schedules them with the default profile
 * and adaptive percentageOfNodesToScore, and prints pods/s and peak memory.
 */
import { Cluster } from '../server/src/engine/model/snapshot/cluster';
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

/** Nodes large enough (128 cpu, 1000 pods) that every pod fits: the bench measures placement, not preemption. */
function makeNodes(count: number): NodeInfo[] {
  const nodes: NodeInfo[] = [];
  for (let i = 0; i < count; i++) {
    const name = `node-${String(i).padStart(5, '0')}`;
    const object = {
      kind: 'Node',
      metadata: {
        name,
        labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${i % 3}` },
      },
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

function makePods(count: number): PodInfo[] {
  const pods: PodInfo[] = [];
  for (let i = 0; i < count; i++) {
    const pod = {
      kind: 'Pod',
      metadata: { name: `pod-${i}`, namespace: 'bench' },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            resources: { requests: { cpu: `${100 + (i % 4) * 50}m`, memory: '128Mi' } },
          },
        ],
      },
    };
    pods.push(
      createPodInfo(
        {
          pod,
          source: { file: 'bench', documentIndex: i, path: [] },
          owner: null,
          priority: 0,
          podLevelResources: true,
        },
        [],
      ),
    );
  }
  return pods;
}

function runOnce(nodeCount: number, podCount: number): void {
  const nodes = makeNodes(nodeCount);
  const pods = makePods(podCount);
  const cluster = new Cluster(nodes, systemPriorityClasses(), new Map(), 'bench');
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
    const record = scheduler.scheduleOne(pods[i] as PodInfo);
    if (record.nodeName !== null) {
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
