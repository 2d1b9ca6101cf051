/**
 * CycleState: data shared between the phases of one scheduling cycle (one pod), under typed keys each owned by
 * one plugin, as fwk.CycleState upstream. A phase that finds its key missing recomputes the data.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/cycle_state.go
 */

/** A typed key; create one per plugin and data kind, as a module constant beside the plugin. */
export class StateKey<T> {
  /** Phantom field that ties the key to its value type; never set. */
  declare readonly valueType?: T;

  constructor(
    /** Unique name, conventionally "PreFilter" + plugin name, as upstream. */
    readonly name: string,
  ) {}
}

/** State that must be copied when the cycle state is cloned (for what-if evaluations such as preemption). */
export interface ClonableState {
  clone(): unknown;
}

/** Per-cycle data. */
export class CycleState {
  private readonly data = new Map<StateKey<unknown>, unknown>();
  /** Plugins whose PreFilter returned Skip: their Filter does not run this cycle. */
  skipFilterPlugins: ReadonlySet<string> = new Set();
  /** Plugins whose PreScore returned Skip: their Score does not run this cycle. */
  skipScorePlugins: ReadonlySet<string> = new Set();

  /** The value under a key, or undefined. */
  read<T>(key: StateKey<T>): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  /** Stores a value under a key. */
  write<T>(key: StateKey<T>, value: T): void {
    this.data.set(key, value);
  }

  /** Removes a key. */
  delete(key: StateKey<unknown>): void {
    this.data.delete(key);
  }

  /** A copy; values with a clone() method are cloned, others shared (they must then be immutable). */
  clone(): CycleState {
    const copy = new CycleState();
    for (const [key, value] of this.data) {
      copy.data.set(key, isClonable(value) ? value.clone() : value);
    }
    copy.skipFilterPlugins = this.skipFilterPlugins;
    copy.skipScorePlugins = this.skipScorePlugins;
    return copy;
  }
}

function isClonable(value: unknown): value is ClonableState {
  return typeof value === 'object' && value !== null && typeof (value as ClonableState).clone === 'function';
}
