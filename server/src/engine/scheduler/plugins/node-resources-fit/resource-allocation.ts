/**
 * Resource allocation scoring shared by NodeResourcesFit and NodeResourcesBalancedAllocation
 * (resource_allocation.go, least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go and
 * balanced_allocation.go upstream). Integer arithmetic truncates like Go's int64.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/noderesources/resource_allocation.go
 *
 * For each configured resource: allocatable on the node, and what the node would have requested with the pod.
 * cpu and memory count either the non-zero requests (100m / 200Mi for a container that sets none: Fit's
 * strategies) or the plain requests (BalancedAllocation). An extended resource the pod does not request, or that
 * the node does not have, is left out of the score.
 */
import type { NodeColumns } from '../../../model/snapshot/node-columns';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import {
  RESOURCE_CPU,
  RESOURCE_EPHEMERAL_STORAGE,
  RESOURCE_MEMORY,
  isScalarResourceName,
} from '../../../model/resources';
import { MAX_NODE_SCORE } from '../../framework/plugin';
import type { ResourceSpec, UtilizationShapePoint } from '../../config/node-resources-args';
import { ScoreCache } from './score-cache';
import type { ScoreCacheEntry } from './score-cache';

/** Scores allocatable/requested vectors (entries with allocatable 0 are left out). */
export type VectorScorer = (requested: Float64Array, allocatable: Float64Array) => number;

/** The largest score a RequestedToCapacityRatio shape point may give (config.MaxCustomPriorityScore). */
export const MAX_CUSTOM_PRIORITY_SCORE = 10;
const MAX_UTILIZATION = 100;

/** What the pod requests of each configured resource, in the order of `resources`. */
export function podRequestVector(
  pod: PodInfo,
  resources: readonly ResourceSpec[],
  useRequested: boolean,
): number[] {
  return resources.map((resource) => {
    if (resource.name === RESOURCE_CPU) {
      return useRequested ? pod.requests.milliCpu : pod.nonZeroMilliCpu;
    }
    if (resource.name === RESOURCE_MEMORY) {
      return useRequested ? pod.requests.memory : pod.nonZeroMemory;
    }
    return pod.requests.get(resource.name);
  });
}

/** How a configured resource is read from a node (resolved once, not per node). */
const enum ResourceKind {
  Cpu,
  Memory,
  EphemeralStorage,
  Scalar,
  Other,
}

function resourceKind(name: string): ResourceKind {
  if (name === RESOURCE_CPU) {
    return ResourceKind.Cpu;
  }
  if (name === RESOURCE_MEMORY) {
    return ResourceKind.Memory;
  }
  if (name === RESOURCE_EPHEMERAL_STORAGE) {
    return ResourceKind.EphemeralStorage;
  }
  return isScalarResourceName(name) ? ResourceKind.Scalar : ResourceKind.Other;
}

/** A scorer over one node: fills the vectors (reused between calls) and applies the strategy. */
export class ResourceAllocationScorer {
  private readonly requested: Float64Array;
  private readonly allocatable: Float64Array;
  private readonly kinds: readonly ResourceKind[];
  private readonly names: readonly string[];
  private readonly cache = new ScoreCache();

  constructor(
    resources: readonly ResourceSpec[],
    private readonly useRequested: boolean,
    private readonly scorer: VectorScorer,
  ) {
    this.requested = new Float64Array(resources.length);
    this.allocatable = new Float64Array(resources.length);
    this.kinds = resources.map((resource) => resourceKind(resource.name));
    this.names = resources.map((resource) => resource.name);
  }

  /** The node's score for a pod whose request vector is `podRequests` (podRequestVector). */
  score(node: NodeInfo, podRequests: readonly number[]): number {
    const { kinds, requested, allocatable } = this;
    const columns = node.columns;
    if (columns !== null) {
      return this.scoreFromColumns(node, columns, podRequests);
    }
    const nodeRequested = this.useRequested ? node.requested : node.nonZeroRequested;
    for (let i = 0; i < kinds.length; i++) {
      const podRequest = podRequests[i] ?? 0;
      let alloc = 0;
      let req = 0;
      switch (kinds[i]) {
        case ResourceKind.Cpu:
          alloc = node.allocatable.milliCpu;
          req = nodeRequested.milliCpu + podRequest;
          break;
        case ResourceKind.Memory:
          alloc = node.allocatable.memory;
          req = nodeRequested.memory + podRequest;
          break;
        case ResourceKind.EphemeralStorage:
          alloc = node.allocatable.ephemeralStorage;
          req = node.requested.ephemeralStorage + podRequest;
          break;
        case ResourceKind.Scalar: {
          // An extended resource the pod does not request, or the node does not have, is left out.
          const name = this.names[i] ?? '';
          if (podRequest !== 0 && node.allocatable.scalar?.has(name) === true) {
            alloc = node.allocatable.get(name);
            req = node.requested.get(name) + podRequest;
          }
          break;
        }
        default:
          break;
      }
      allocatable[i] = alloc;
      requested[i] = alloc === 0 ? 0 : req;
    }
    return this.scorer(requested, allocatable);
  }

  /**
   * score for several nodes into `scores`: the same numbers, reusing what the cache remembers for this request
   * vector on nodes whose sums have not changed since (ScoreCache).
   */
  scoreNodes(nodes: readonly NodeInfo[], podRequests: readonly number[], scores: Float64Array): void {
    let columns: NodeColumns | null = null;
    let entry: ScoreCacheEntry | null = null;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as NodeInfo;
      const nodeColumns = node.columns;
      if (nodeColumns === null) {
        scores[i] = this.score(node, podRequests);
        continue;
      }
      if (nodeColumns !== columns) {
        columns = nodeColumns;
        entry = this.cache.entryFor(nodeColumns, podRequests);
      }
      const known = entry as ScoreCacheEntry;
      const row = node.order;
      const stamp = nodeColumns.stamp[row] as number;
      if (known.stamps[row] === stamp) {
        scores[i] = known.scores[row] as number;
      } else {
        const score = this.scoreFromColumns(node, nodeColumns, podRequests);
        known.scores[row] = score;
        known.stamps[row] = stamp;
        scores[i] = score;
      }
    }
  }

  /** score, reading cpu, memory and ephemeral-storage from the cluster's columns (the same values). */
  private scoreFromColumns(node: NodeInfo, columns: NodeColumns, podRequests: readonly number[]): number {
    const { kinds, requested, allocatable } = this;
    const row = node.order;
    const requestedMilliCpu = this.useRequested ? columns.requestedMilliCpu : columns.nonZeroMilliCpu;
    const requestedMemory = this.useRequested ? columns.requestedMemory : columns.nonZeroMemory;
    for (let i = 0; i < kinds.length; i++) {
      const podRequest = podRequests[i] ?? 0;
      let alloc = 0;
      let req = 0;
      switch (kinds[i]) {
        case ResourceKind.Cpu:
          alloc = columns.allocatableMilliCpu[row] as number;
          req = (requestedMilliCpu[row] as number) + podRequest;
          break;
        case ResourceKind.Memory:
          alloc = columns.allocatableMemory[row] as number;
          req = (requestedMemory[row] as number) + podRequest;
          break;
        case ResourceKind.EphemeralStorage:
          alloc = columns.allocatableEphemeralStorage[row] as number;
          req = (columns.requestedEphemeralStorage[row] as number) + podRequest;
          break;
        case ResourceKind.Scalar: {
          // An extended resource the pod does not request, or the node does not have, is left out.
          const name = this.names[i] ?? '';
          if (podRequest !== 0 && node.allocatable.scalar?.has(name) === true) {
            alloc = node.allocatable.get(name);
            req = node.requested.get(name) + podRequest;
          }
          break;
        }
        default:
          break;
      }
      allocatable[i] = alloc;
      requested[i] = alloc === 0 ? 0 : req;
    }
    return this.scorer(requested, allocatable);
  }
}

/** LeastAllocated: the weighted mean of (allocatable - requested) * 100 / allocatable; over-committed scores 0. */
export function leastAllocatedScorer(resources: readonly ResourceSpec[]): VectorScorer {
  const weights = resources.map((resource) => resource.weight);
  return (requested, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < weights.length; i++) {
      const capacity = allocatable[i] as number;
      if (capacity === 0) {
        continue;
      }
      const used = requested[i] as number;
      const weight = weights[i] as number;
      nodeScore +=
        (used > capacity ? 0 : Math.trunc(((capacity - used) * MAX_NODE_SCORE) / capacity)) * weight;
      weightSum += weight;
    }
    return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
  };
}

/** MostAllocated: the weighted mean of requested * 100 / allocatable, requested capped at allocatable. */
export function mostAllocatedScorer(resources: readonly ResourceSpec[]): VectorScorer {
  const weights = resources.map((resource) => resource.weight);
  return (requested, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < weights.length; i++) {
      const capacity = allocatable[i] as number;
      if (capacity === 0) {
        continue;
      }
      const used = Math.min(requested[i] as number, capacity);
      const weight = weights[i] as number;
      nodeScore += Math.trunc((used * MAX_NODE_SCORE) / capacity) * weight;
      weightSum += weight;
    }
    return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
  };
}

/**
 * RequestedToCapacityRatio: each resource's utilization (requested * 100 / allocatable) mapped through the
 * broken-line shape (scores scaled from 0..10 to 0..100); resources scoring 0 are left out of the mean, which
 * is rounded to nearest.
 */
export function requestedToCapacityRatioScorer(
  resources: readonly ResourceSpec[],
  shape: readonly UtilizationShapePoint[],
): VectorScorer {
  const points = shape.map((point) => ({
    utilization: point.utilization,
    score: point.score * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE),
  }));
  const brokenLine = (p: number): number => {
    for (let i = 0; i < points.length; i++) {
      const point = points[i] as { utilization: number; score: number };
      if (p <= point.utilization) {
        if (i === 0) {
          return point.score;
        }
        const previous = points[i - 1] as { utilization: number; score: number };
        return (
          previous.score +
          Math.trunc(
            ((point.score - previous.score) * (p - previous.utilization)) /
              (point.utilization - previous.utilization),
          )
        );
      }
    }
    return points[points.length - 1]?.score ?? 0;
  };
  return (requested, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < resources.length; i++) {
      const capacity = allocatable[i] ?? 0;
      if (capacity === 0) {
        continue;
      }
      const used = requested[i] ?? 0;
      const score =
        used > capacity
          ? brokenLine(MAX_UTILIZATION)
          : brokenLine(Math.trunc((used * MAX_UTILIZATION) / capacity));
      if (score > 0) {
        const weight = (resources[i] as ResourceSpec).weight;
        nodeScore += score * weight;
        weightSum += weight;
      }
    }
    return weightSum === 0 ? 0 : goRound(nodeScore / weightSum);
  };
}

/**
 * BalancedAllocation: 100 * (1 - the standard deviation of the requested fractions), fractions capped at 1; with
 * two resources the deviation is |f1 - f2| / 2.
 */
export const balancedAllocationScorer: VectorScorer = (requested, allocatable) => {
  let count = 0;
  let total = 0;
  let first = 0;
  let second = 0;
  for (let i = 0; i < requested.length; i++) {
    const capacity = allocatable[i] ?? 0;
    if (capacity === 0) {
      continue;
    }
    const fraction = Math.min((requested[i] ?? 0) / capacity, 1);
    total += fraction;
    if (count === 0) {
      first = fraction;
    } else if (count === 1) {
      second = fraction;
    }
    count++;
  }
  let std = 0;
  if (count === 2) {
    std = Math.abs((first - second) / 2);
  } else if (count > 2) {
    const mean = total / count;
    let sum = 0;
    for (let i = 0; i < requested.length; i++) {
      const capacity = allocatable[i] ?? 0;
      if (capacity !== 0) {
        const fraction = Math.min((requested[i] ?? 0) / capacity, 1);
        sum += (fraction - mean) * (fraction - mean);
      }
    }
    std = Math.sqrt(sum / count);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
};

/** math.Round: half away from zero. */
function goRound(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}
