/**
 * The kubelet's eviction manager under memory pressure, over simulated time (pkg/kubelet/eviction/
 * eviction_manager.go synchronize, every 10 s of housekeeping): when memory.available (the node's memory capacity
 * minus its pods' working sets) is below the hard threshold (memory.available<100Mi, the default), the node
 * reports the MemoryPressure condition (event NodeHasInsufficientMemory), the node lifecycle controller taints it
 * node.kubernetes.io/memory-pressure:NoSchedule (TaintNodesByCondition), and each cycle evicts one pod, the first
 * in rankMemoryPressure's order (eviction-ranking.ts), with no grace period: phase Failed, reason Evicted, its
 * controller replaces it. Critical pods (priority at least system-cluster-critical's, mirror pods) are passed
 * over. The condition and the taint go 5 minutes after the threshold was last met (--eviction-pressure-transition-
 * period).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/eviction/eviction_manager.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/nodelifecycle/node_lifecycle_controller.go
 * Working sets come from a scenario's memoryPressure step for the pods on the node then; every other pod uses its
 * memory request. A node without status.capacity.memory is taken to have allocatable + 100Mi (what a kubelet
 * with only the default hard threshold reserves). Left out: system and kube-reserved memory use, soft thresholds,
 * minimum reclaim, other signals (disk, pids), the kubelet's admission refusing BestEffort pods (the taint keeps
 * the scheduler away; PodTolerationRestriction, off by default, would add a toleration to other QoS classes).
 */
import type { TaintObject } from '../model/objects';
import { nodeMemoryCapacity } from '../model/oom-score';
import { listOf } from '../model/objects';
import { parseQuantity } from '../model/quantity';
import { PRIORITY } from '../sim/priorities';
import { asArray, asObject, readString } from '../model/json';
import type { ClusterState, SimNode } from '../apiserver/cluster-state';
import type { ContainerUsage } from './eviction-ranking';
import {
  MEMORY_AVAILABLE_THRESHOLD_BYTES,
  memoryEvictionMessage,
  rankMemoryPressure,
  splitPodUsage,
} from './eviction-ranking';
import type { SimPod } from '../apiserver/sim-pod';
import { EVENT_COMPONENT } from '../model/kubernetes-events';

/** The kubelet's housekeeping period: how often the eviction manager synchronizes. */
export const EVICTION_MONITORING_SECONDS = 10;
/** --eviction-pressure-transition-period (5m0s). */
export const PRESSURE_TRANSITION_SECONDS = 300;
/** The taint TaintNodesByCondition puts on a node with MemoryPressure True. */
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
/** SystemCriticalPriority: a pod at or above it is critical and never evicted by the kubelet. */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** What one memoryPressure usage entry names: a workload's pods or one pod (namespace null: any). */
export type UsageSubject =
  | {
      readonly type: 'workload';
      readonly namespace: string | null;
      readonly kind: string;
      readonly name: string;
    }
  | { readonly type: 'pod'; readonly namespace: string | null; readonly name: string };

interface NodePressure {
  /** Working sets given by the scenario, by pod key. */
  readonly usage: Map<string, number>;
  isUnderPressure: boolean;
  lastMetAt: number;
  isCycling: boolean;
}

/** The eviction managers of every node's kubelet. */
export class EvictionManager {
  private readonly nodes = new Map<string, NodePressure>();

  constructor(private readonly state: ClusterState) {}

  /** Sets the working set of the pods on a node that `usage` names; returns what is wrong, or null. */
  setUsage(nodeName: string, usage: readonly { subject: UsageSubject; bytes: number }[]): string | null {
    const node = this.state.nodes.get(nodeName);
    if (node === undefined) {
      return `the cluster has no node "${nodeName}"`;
    }
    const pressure = this.nodes.get(nodeName) ?? {
      usage: new Map<string, number>(),
      isUnderPressure: false,
      lastMetAt: 0,
      isCycling: false,
    };
    this.nodes.set(nodeName, pressure);
    const pods = this.state.podsOn(nodeName).filter((pod) => pod.terminal === null);
    for (const { subject, bytes } of usage) {
      const matched = pods.filter((pod) => matches(pod, subject));
      if (matched.length === 0) {
        return `no pod on node ${nodeName} matches usage key ${describe(subject)}`;
      }
      for (const pod of matched) {
        pressure.usage.set(pod.key, bytes);
      }
    }
    this.cycle(node, pressure);
    return null;
  }

  private cycle(node: SimNode, pressure: NodePressure): void {
    pressure.isCycling = false;
    const { state } = this;
    const now = state.sim.now;
    const available = this.capacity(node) - this.workingSets(node, pressure);
    if (available < MEMORY_AVAILABLE_THRESHOLD_BYTES) {
      pressure.lastMetAt = now;
      if (!pressure.isUnderPressure) {
        this.setCondition(node, pressure, true);
      }
      if (this.evictOne(node, pressure, available)) {
        this.planCycle(node, pressure, EVICTION_MONITORING_SECONDS);
        return;
      }
      // Nothing left to evict: the pressure stays, so does the condition.
      return;
    }
    if (pressure.isUnderPressure) {
      const clearAt = pressure.lastMetAt + PRESSURE_TRANSITION_SECONDS;
      if (now >= clearAt) {
        this.setCondition(node, pressure, false);
      } else {
        this.planCycle(node, pressure, clearAt - now);
      }
    }
  }

  private planCycle(node: SimNode, pressure: NodePressure, delay: number): void {
    if (pressure.isCycling) {
      return;
    }
    pressure.isCycling = true;
    this.state.sim.after(delay, PRIORITY.kubelet, () => this.cycle(node, pressure));
  }

  /** Evicts the first pod in rankMemoryPressure's order; false when none can be evicted. */
  private evictOne(node: SimNode, pressure: NodePressure, available: number): boolean {
    const candidates = this.state
      .podsOn(node.name)
      .filter((pod) => pod.terminal === null && pod.deletionTime === null)
      .filter((pod) => !pod.isMirror && pod.info.priority < SYSTEM_CRITICAL_PRIORITY)
      .map((pod) => ({
        pod,
        name: pod.name,
        priority: pod.info.priority,
        requestBytes: pod.info.requests.memory,
        usageBytes: pressure.usage.get(pod.key) ?? pod.info.requests.memory,
        createdSeq: pod.createdSeq,
      }));
    const victim = rankMemoryPressure(candidates)[0];
    if (victim === undefined) {
      return false;
    }
    const containers = splitPodUsage(victim.usageBytes, containerRequests(victim.pod));
    const message = memoryEvictionMessage(MEMORY_AVAILABLE_THRESHOLD_BYTES, available, containers);
    pressure.usage.delete(victim.pod.key);
    // synchronize: EvictionThresholdMet on the node, then the pod's Evicted (eviction_manager.go).
    const host = node.name;
    this.state.recordEvent(
      {
        reason: 'EvictionThresholdMet',
        component: EVENT_COMPONENT.kubelet,
        host,
        warning: true,
        involvedObject: { kind: 'Node', name: host },
      },
      'Attempting to reclaim memory',
      host,
    );
    this.state.finishPod(victim.pod, 'Failed', 137, message, {
      reason: 'Evicted',
      kube: { reason: 'Evicted', component: EVENT_COMPONENT.kubelet, host, warning: true },
    });
    return true;
  }

  private setCondition(node: SimNode, pressure: NodePressure, isUnderPressure: boolean): void {
    const { state } = this;
    pressure.isUnderPressure = isUnderPressure;
    const reason = isUnderPressure ? 'NodeHasInsufficientMemory' : 'NodeHasSufficientMemory';
    state.recordNode(reason, node.name, `Node ${node.name} status is now: ${reason}`, undefined, {
      reason,
      component: EVENT_COMPONENT.kubelet,
      host: node.name,
    });
    const others = listOf(node.object.spec?.taints).filter((taint) => taint.key !== TAINT_MEMORY_PRESSURE);
    const added: TaintObject = { key: TAINT_MEMORY_PRESSURE, effect: 'NoSchedule' };
    const taints = isUnderPressure ? [...others, added] : others;
    const object = { ...node.object, spec: { ...node.object.spec, taints } };
    state.updateNode(
      node,
      object,
      isUnderPressure ? 'NodeTainted' : 'NodeUntainted',
      isUnderPressure
        ? `Added taints ${TAINT_MEMORY_PRESSURE}:NoSchedule`
        : `Removed taints ${TAINT_MEMORY_PRESSURE}:NoSchedule`,
    );
  }

  /** status.capacity.memory, else allocatable plus the hard threshold (model/oom-score.ts). */
  private capacity(node: SimNode): number {
    return nodeMemoryCapacity(node.object.status?.capacity?.['memory'], node.info.allocatable.memory);
  }

  private workingSets(node: SimNode, pressure: NodePressure): number {
    return this.state
      .podsOn(node.name)
      .filter((pod) => pod.terminal === null)
      .reduce((sum, pod) => sum + (pressure.usage.get(pod.key) ?? pod.info.requests.memory), 0);
  }
}

/** The pod's containers with their memory requests (the limit when no request is written, as defaulted). */
function containerRequests(pod: SimPod): Omit<ContainerUsage, 'usageBytes'>[] {
  return asArray(asObject(pod.object.spec)['containers']).map((raw) => {
    const container = asObject(raw);
    const resources = asObject(container['resources']);
    const value = asObject(resources['requests'])['memory'] ?? asObject(resources['limits'])['memory'];
    const parsed = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : null;
    const isParsed = parsed !== null && parsed.ok;
    return {
      name: readString(container['name']) ?? '',
      requestBytes: isParsed ? parsed.quantity.value : 0,
      requestText: isParsed ? String(value) : '0',
    };
  });
}

function matches(pod: SimPod, subject: UsageSubject): boolean {
  if (subject.namespace !== null && subject.namespace !== pod.namespace) {
    return false;
  }
  if (subject.type === 'pod') {
    return pod.name === subject.name;
  }
  return pod.workload?.kind === subject.kind && pod.workload.name === subject.name;
}

function describe(subject: UsageSubject): string {
  const namespace = subject.namespace === null ? '' : `${subject.namespace}/`;
  return subject.type === 'pod'
    ? `${namespace}${subject.name}`
    : `${namespace}${subject.kind}/${subject.name}`;
}
