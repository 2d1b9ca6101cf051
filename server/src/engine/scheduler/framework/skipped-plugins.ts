/**
 * Which plugins of one extension point returned Skip in a cycle (PreFilter, PreScore), as the name sets the cycle
 * state keeps (CycleState.skipFilterPlugins, skipScorePlugins).
 */
import type { SchedulerPlugin } from './plugin';

/**
 * The plugins of one extension point that returned Skip this cycle. Cycles skip the same few combinations over and
 * over, so the set of names is shared per combination (a bit mask of positions) rather than built per cycle; the
 * sets are read-only for everyone (CycleState's skip sets). Past 30 plugins a set is built each time.
 */
export class SkippedPlugins {
  private mask = 0;
  private extra: Set<string> | null = null;

  constructor(
    private readonly plugins: readonly SchedulerPlugin[],
    private readonly shared: Map<number, ReadonlySet<string>>,
  ) {}

  /** Marks the plugin at this position as skipped. */
  add(position: number): void {
    if (position < MAX_MASKED_PLUGINS) {
      this.mask |= 1 << position;
    } else {
      (this.extra ??= new Set()).add((this.plugins[position] as SchedulerPlugin).name);
    }
  }

  /** The names of the skipped plugins. */
  names(): ReadonlySet<string> {
    if (this.extra !== null) {
      return new Set([...this.masked(), ...this.extra]);
    }
    let set = this.shared.get(this.mask);
    if (set === undefined) {
      set = this.masked();
      this.shared.set(this.mask, set);
    }
    return set;
  }

  private masked(): Set<string> {
    const names = new Set<string>();
    for (let i = 0; i < this.plugins.length && i < MAX_MASKED_PLUGINS; i++) {
      if ((this.mask & (1 << i)) !== 0) {
        names.add((this.plugins[i] as SchedulerPlugin).name);
      }
    }
    return names;
  }
}

/** How many plugins of an extension point SkippedPlugins tracks in its mask. */
const MAX_MASKED_PLUGINS = 30;
