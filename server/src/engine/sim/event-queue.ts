/**
 * The simulation's event queue: a binary min-heap ordered by time, then priority, then a numeric insertion
 * sequence. The sequence makes the order total, so events pushed in the same order always pop in the same order
 * (STYLE: "events order by time, priority, then a numeric insertion sequence"). No clock, no randomness.
 */

/** An entry of the queue: when, how urgent within the same instant (lower first), and what. */
export interface QueuedEvent<T> {
  readonly time: number;
  readonly priority: number;
  /** Insertion order, unique per queue: the final tie-break. */
  readonly seq: number;
  readonly payload: T;
}

/** Whether `a` comes before `b`. */
export function isBefore<T>(a: QueuedEvent<T>, b: QueuedEvent<T>): boolean {
  if (a.time !== b.time) {
    return a.time < b.time;
  }
  if (a.priority !== b.priority) {
    return a.priority < b.priority;
  }
  return a.seq < b.seq;
}

/** A priority queue of events; push and pop are O(log n). */
export class EventQueue<T> {
  private readonly heap: QueuedEvent<T>[] = [];
  private nextSeq = 0;

  /** How many events wait. */
  get size(): number {
    return this.heap.length;
  }

  /** Adds an event; returns its insertion sequence. Times must be finite numbers. */
  push(time: number, priority: number, payload: T): number {
    if (!Number.isFinite(time)) {
      throw new Error(`event time must be finite, got ${String(time)}`);
    }
    const event: QueuedEvent<T> = { time, priority, seq: this.nextSeq++, payload };
    this.heap.push(event);
    this.siftUp(this.heap.length - 1);
    return event.seq;
  }

  /** The next event without removing it. */
  peek(): QueuedEvent<T> | undefined {
    return this.heap[0];
  }

  /** Removes and returns the next event. */
  pop(): QueuedEvent<T> | undefined {
    const heap = this.heap;
    const first = heap[0];
    const last = heap.pop();
    if (first === undefined || last === undefined) {
      return undefined;
    }
    if (heap.length > 0) {
      heap[0] = last;
      this.siftDown(0);
    }
    return first;
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    const item = heap[index] as QueuedEvent<T>;
    let i = index;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = heap[parentIndex] as QueuedEvent<T>;
      if (!isBefore(item, parent)) {
        break;
      }
      heap[i] = parent;
      i = parentIndex;
    }
    heap[i] = item;
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    const length = heap.length;
    const item = heap[index] as QueuedEvent<T>;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= length) {
        break;
      }
      const right = left + 1;
      let child = left;
      if (right < length && isBefore(heap[right] as QueuedEvent<T>, heap[left] as QueuedEvent<T>)) {
        child = right;
      }
      const childItem = heap[child] as QueuedEvent<T>;
      if (!isBefore(childItem, item)) {
        break;
      }
      heap[i] = childItem;
      i = child;
    }
    heap[i] = item;
  }
}
