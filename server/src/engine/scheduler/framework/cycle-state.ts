/**
 * CycleState: data shared between the phases of one scheduling cycle (one pod), under typed keys each owned by
 * one plugin, as fwk.CycleState upstream. A phase that finds its key missing recomputes the data.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/cycle_state.go
 */
import type { SchedulerPlugin } from './plugin';

/**
 * A typed key; create one per plugin and data kind, as a module constant beside the plugin. It remembers the
 * last state it was read from or written to, so the Filter and Score phases, which read their key once per node,
 * skip the map lookup (scheduling is single-threaded; the cache is checked against the state's identity).
 */
export class StateKey<T> {
  /** Phantom field that ties the key to its value type; never set. */
  declare readonly valueType?: T;
  /** The state of the last read or write through this key (internal to CycleState). */
  lastState: CycleState | null = null;
  /** The value it had there. */
  lastValue: T | undefined = undefined;

  constructor(
    /** Unique name, conventionally "PreFilter" + plugin name, as upstream. */
    readonly name: string,
  ) {}
}

/** State that must be copied when the cycle state is cloned (for what-if evaluations such as preemption). */
export interface ClonableState {
  clone(): unknown;
}

/** No plugin: the skip sets of a fresh state, shared (the framework replaces them, nothing adds to them). */
const NO_PLUGINS: ReadonlySet<string> = new Set();

/** Per-cycle data. */
export class CycleState {
  private readonly data = new Map<StateKey<unknown>, unknown>();
  /** Plugins whose PreFilter returned Skip: their Filter does not run this cycle. */
  skipFilterPlugins: ReadonlySet<string> = NO_PLUGINS;
  /** Plugins whose PreScore returned Skip: their Score does not run this cycle. */
  skipScorePlugins: ReadonlySet<string> = NO_PLUGINS;

  /** Filter plugins not skipped this cycle, once computed by the framework (null: not yet). */
  activeFilterPlugins: readonly SchedulerPlugin[] | null = null;

  /** The value under a key, or undefined. */
  read<T>(key: StateKey<T>): T | undefined {
    if (key.lastState === this) {
      return key.lastValue;
    }
    const value = this.data.get(key) as T | undefined;
    key.lastState = this;
    key.lastValue = value;
    return value;
  }

  /** Stores a value under a key. */
  write<T>(key: StateKey<T>, value: T): void {
    this.data.set(key, value);
    key.lastState = this;
    key.lastValue = value;
  }

  /** Removes a key. */
  delete(key: StateKey<unknown>): void {
    this.data.delete(key);
    if (key.lastState === this) {
      key.lastState = null;
      key.lastValue = undefined;
    }
  }

  /** A copy; values with a clone() method are cloned, others shared (they must then be immutable). */
  clone(): CycleState {
    const copy = new CycleState();
    for (const [key, value] of this.data) {
      copy.data.set(key, isClonable(value) ? value.clone() : value);
    }
    copy.skipFilterPlugins = this.skipFilterPlugins;
    copy.skipScorePlugins = this.skipScorePlugins;
    copy.activeFilterPlugins = this.activeFilterPlugins;
    return copy;
  }
}

function isClonable(value: unknown): value is ClonableState {
  return typeof value === 'object' && value !== null && typeof (value as ClonableState).clone === 'function';
}
