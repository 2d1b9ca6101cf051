/**
 * NodeStatuses: the filter status of each node a cycle examined, by node name, in the order set (upstream's
 * NodeToStatus). A cycle rejects hundreds of nodes and most records are never asked about them (the pod was
 * placed), so set() only appends to two arrays; the Map is built the first time anything reads it. Reading gives
 * exactly what a Map filled by the same set() calls would give (a name set twice keeps its first position and its
 * last status).
 */
import type { Status } from './status';

/** A write-then-read map of node name to status. */
export class NodeStatuses implements ReadonlyMap<string, Status> {
  private readonly names: string[] = [];
  private readonly statuses: Status[] = [];
  private map: Map<string, Status> | null = null;

  /** Records a node's status. */
  set(name: string, status: Status): void {
    if (this.map !== null) {
      this.map.set(name, status);
      return;
    }
    this.names.push(name);
    this.statuses.push(status);
  }

  get size(): number {
    return this.read().size;
  }

  get(name: string): Status | undefined {
    return this.read().get(name);
  }

  has(name: string): boolean {
    return this.read().has(name);
  }

  forEach(visit: (status: Status, name: string, map: ReadonlyMap<string, Status>) => void): void {
    for (const [name, status] of this.read()) {
      visit(status, name, this);
    }
  }

  entries(): MapIterator<[string, Status]> {
    return this.read().entries();
  }

  keys(): MapIterator<string> {
    return this.read().keys();
  }

  values(): MapIterator<Status> {
    return this.read().values();
  }

  [Symbol.iterator](): MapIterator<[string, Status]> {
    return this.read().entries();
  }

  private read(): Map<string, Status> {
    if (this.map === null) {
      const map = new Map<string, Status>();
      for (let i = 0; i < this.names.length; i++) {
        map.set(this.names[i] as string, this.statuses[i] as Status);
      }
      this.map = map;
      this.names.length = 0;
      this.statuses.length = 0;
    }
    return this.map;
  }
}
