/**
 * Small builders for scheduler tests: a node with these resources, labels and taints; a pod with these requests,
 * tolerations and affinity; a plugin run through its phases on one node, as the framework would.
 */
import { Cluster } from '../../../server/src/engine/model/snapshot/cluster';
import { loadNode } from '../../../server/src/engine/model/load/node-load';
import type { NodeInfo } from '../../../server/src/engine/model/snapshot/node-info';
import { loadPod } from '../../../server/src/engine/model/load/pod-load';
import type { PodInfo } from '../../../server/src/engine/model/snapshot/pod-info';
import { systemPriorityClasses } from '../../../server/src/engine/model/load/priority';
import { CycleState } from '../../../server/src/engine/scheduler/framework/cycle-state';
import type {
  FrameworkHandle,
  NodeScore,
  PluginFactory,
  SchedulerPlugin,
} from '../../../server/src/engine/scheduler/framework/plugin';
import { SUCCESS } from '../../../server/src/engine/scheduler/framework/status';
import type { Status } from '../../../server/src/engine/scheduler/framework/status';
import type { KubernetesMinor } from '../../../server/src/engine/version';
import type { Finding } from '../../../protocol/finding';

/** Options of a test node. */
export interface NodeOptions {
  readonly cpu?: string;
  readonly memory?: string;
  readonly pods?: number;
  readonly ephemeralStorage?: string;
  readonly extended?: Readonly<Record<string, string | number>>;
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints?: readonly { key: string; value?: string; effect: string }[];
  readonly unschedulable?: boolean;
  readonly images?: readonly { names: string[]; sizeBytes: number }[];
}

/** A Node object (plain JSON). */
export function nodeObject(name: string, options: NodeOptions = {}): Record<string, unknown> {
  const allocatable: Record<string, string | number> = {
    cpu: options.cpu ?? '4',
    memory: options.memory ?? '16Gi',
    pods: options.pods ?? 110,
    ...options.extended,
  };
  if (options.ephemeralStorage !== undefined) {
    allocatable['ephemeral-storage'] = options.ephemeralStorage;
  }
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...options.labels } },
    spec: { taints: options.taints ?? [], unschedulable: options.unschedulable ?? false },
    status: { allocatable, images: options.images ?? [] },
  };
}

/** A NodeInfo; throws when the node is invalid (tests build valid nodes). */
export function makeNode(name: string, options: NodeOptions = {}): NodeInfo {
  const findings: Finding[] = [];
  const node = loadNode(nodeObject(name, options), { file: 'test', documentIndex: 0, path: [] }, findings);
  if (node === null) {
    throw new Error(`invalid test node ${name}: ${findings.map((finding) => finding.message).join('; ')}`);
  }
  return node;
}

type List = Readonly<Record<string, string | number>>;

/** A container with requests and limits (both optional). */
export function container(
  requests: List = {},
  limits: List = {},
  extra: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  return { name: 'c', image: 'busybox:1.36', resources: { requests, limits }, ...extra };
}

/** A PodInfo from a pod spec (namespace default). */
export function makePod(
  name: string,
  spec: Readonly<Record<string, unknown>> = {},
  version: KubernetesMinor = '1.35',
): PodInfo {
  const findings: Finding[] = [];
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { containers: [container()], ...spec },
  };
  const context = { version, priorityClasses: systemPriorityClasses(), findings };
  const pod = loadPod(object, { file: 'test', documentIndex: 0, path: [] }, null, context, true);
  if (pod === null || findings.length > 0) {
    throw new Error(`invalid test pod ${name}: ${findings.map((finding) => finding.message).join('; ')}`);
  }
  return pod;
}

/** Places pods on a node (as if already running there). */
export function withPods(node: NodeInfo, pods: readonly PodInfo[]): NodeInfo {
  for (const pod of pods) {
    pod.nodeName = node.name;
    node.addPod(pod);
  }
  return node;
}

/** A cluster of nodes (default profile data: no PriorityClasses beyond the system ones). */
export function makeCluster(nodes: readonly NodeInfo[]): Cluster {
  return new Cluster(nodes, systemPriorityClasses(), new Map(), 'test cluster');
}

/** A plugin built as a framework would, over a cluster; argument problems are collected. */
export function buildPlugin(
  factory: PluginFactory,
  nodes: readonly NodeInfo[],
  options: { args?: unknown; version?: KubernetesMinor } = {},
): { plugin: SchedulerPlugin; argsProblems: string[] } {
  const cluster = makeCluster(nodes);
  const handle: FrameworkHandle = {
    cluster,
    runFilterPlugins: () => SUCCESS,
    runPreFilterExtensionAddPod: () => SUCCESS,
    runPreFilterExtensionRemovePod: () => SUCCESS,
  };
  const argsProblems: string[] = [];
  const plugin = factory({
    args: options.args,
    version: options.version ?? '1.35',
    handle,
    reportArgsProblem: (message) => argsProblems.push(message),
  });
  return { plugin, argsProblems };
}

/** The outcome of PreFilter (when the plugin has one) then Filter on one node. */
export function runFilter(
  plugin: SchedulerPlugin,
  pod: PodInfo,
  node: NodeInfo,
  nodes: readonly NodeInfo[] = [node],
): Status {
  const state = new CycleState();
  const preFilter = plugin.preFilter?.(state, pod, nodes);
  if (preFilter !== undefined && preFilter.status.code === 'Skip') {
    return preFilter.status;
  }
  if (preFilter !== undefined && preFilter.status.code !== 'Success') {
    return preFilter.status;
  }
  return plugin.filter?.(state, pod, node) ?? SUCCESS;
}

/** Scores after PreScore (a Skip gives null) and NormalizeScore, by node name. */
export function runScore(
  plugin: SchedulerPlugin,
  pod: PodInfo,
  nodes: readonly NodeInfo[],
): Record<string, number> | null {
  const state = new CycleState();
  const preScore = plugin.preScore?.(state, pod, nodes);
  if (preScore !== undefined && preScore.code === 'Skip') {
    return null;
  }
  const scores: NodeScore[] = nodes.map((node) => ({
    name: node.name,
    score: plugin.score?.(state, pod, node) ?? 0,
  }));
  plugin.normalizeScore?.(state, pod, scores);
  return Object.fromEntries(scores.map((entry) => [entry.name, entry.score]));
}

/** The messages of a status's reasons ([] for Success). */
export function messages(status: Status): string[] {
  return status.reasons.map((reason) => reason.message);
}
