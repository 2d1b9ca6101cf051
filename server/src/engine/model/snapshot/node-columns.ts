/**
 * NodeColumns: the running sums NodeResourcesFit and NodeResourcesBalancedAllocation read for every node, copied
 * into typed arrays indexed by the node's position in its cluster (NodeInfo.order). The scheduler visits nodes in
 * rotated cluster order, so it reads these arrays sequentially, instead of chasing a node's allocatable, requested
 * and pod list objects (and their boxed numbers), scattered over the heap once pods have been bound: on 5,000 nodes
 * those cache misses were most of the cost of the resource filter.
 *
 * Values are copies, written by NodeInfo after every change of its sums, never sums of their own: they are equal
 * to the NodeInfo fields bit for bit. Node copies made for what-if evaluations belong to no cluster and have none.
 */
import type { NodeInfo } from './node-info';

/** The resource sums of every node of a cluster, by node order. */
export class NodeColumns {
  /** status.allocatable cpu, in millicores. */
  readonly allocatableMilliCpu: Float64Array;
  /** status.allocatable memory, in bytes. */
  readonly allocatableMemory: Float64Array;
  /** status.allocatable ephemeral-storage, in bytes. */
  readonly allocatableEphemeralStorage: Float64Array;
  /** status.allocatable pods. */
  readonly allowedPodNumber: Float64Array;
  /** Requested cpu of the node's pods (NodeInfo.requested). */
  readonly requestedMilliCpu: Float64Array;
  /** Requested memory of the node's pods. */
  readonly requestedMemory: Float64Array;
  /** Requested ephemeral-storage of the node's pods. */
  readonly requestedEphemeralStorage: Float64Array;
  /** Non-zero requested cpu (NodeInfo.nonZeroRequested). */
  readonly nonZeroMilliCpu: Float64Array;
  /** Non-zero requested memory. */
  readonly nonZeroMemory: Float64Array;
  /** Pods on the node. */
  readonly podCount: Float64Array;
  /**
   * When the row was last written: a number drawn from one counter that only grows, so two equal stamps mean no
   * write in between. Scorers that remember a node's score for a pod's requests (score-cache.ts) compare it.
   */
  readonly stamp: Float64Array;
  private writes = 0;

  constructor(size: number) {
    this.allocatableMilliCpu = new Float64Array(size);
    this.allocatableMemory = new Float64Array(size);
    this.allocatableEphemeralStorage = new Float64Array(size);
    this.allowedPodNumber = new Float64Array(size);
    this.requestedMilliCpu = new Float64Array(size);
    this.requestedMemory = new Float64Array(size);
    this.requestedEphemeralStorage = new Float64Array(size);
    this.nonZeroMilliCpu = new Float64Array(size);
    this.nonZeroMemory = new Float64Array(size);
    this.podCount = new Float64Array(size);
    this.stamp = new Float64Array(size);
  }

  /** Copies a node's sums into its row. */
  write(row: number, node: NodeInfo): void {
    const { allocatable, requested, nonZeroRequested } = node;
    this.allocatableMilliCpu[row] = allocatable.milliCpu;
    this.allocatableMemory[row] = allocatable.memory;
    this.allocatableEphemeralStorage[row] = allocatable.ephemeralStorage;
    this.allowedPodNumber[row] = allocatable.allowedPodNumber;
    this.requestedMilliCpu[row] = requested.milliCpu;
    this.requestedMemory[row] = requested.memory;
    this.requestedEphemeralStorage[row] = requested.ephemeralStorage;
    this.nonZeroMilliCpu[row] = nonZeroRequested.milliCpu;
    this.nonZeroMemory[row] = nonZeroRequested.memory;
    this.podCount[row] = node.pods.length;
    this.writes++;
    this.stamp[row] = this.writes;
  }
}
