/**
 * Gives the cluster state at any cursor: forwards by applying the next events to the current state, backwards
 * from the nearest snapshot taken while indexing. Seeking costs at most SNAPSHOT_INTERVAL events either way.
 */
import { applyNextEvent, initialState } from './cluster-state';
import type { ClusterState } from './cluster-state';
import type { Timeline } from './timeline';

/** Events between two snapshots. */
const SNAPSHOT_INTERVAL = 256;

/** The cluster state at any cursor of one timeline. */
export class StateSeeker {
  /** snapshots[k] is the state after k × SNAPSHOT_INTERVAL events. */
  private readonly snapshots: ClusterState[] = [];
  private readonly current: ClusterState;

  constructor(private readonly timeline: Timeline) {
    const state = initialState(timeline);
    this.snapshots.push(state.clone());
    while (state.cursor < timeline.events.length) {
      applyNextEvent(timeline, state);
      if (state.cursor % SNAPSHOT_INTERVAL === 0) {
        this.snapshots.push(state.clone());
      }
    }
    this.current = state;
  }

  /** The state after `cursor` events (clamped to the timeline). The object is reused: read it, do not keep it. */
  seek(cursor: number): ClusterState {
    const target = Math.max(0, Math.min(Math.floor(cursor), this.timeline.events.length));
    const state = this.current;
    const snapshotIndex = Math.floor(target / SNAPSHOT_INTERVAL);
    if (target < state.cursor || target - state.cursor > target - snapshotIndex * SNAPSHOT_INTERVAL) {
      const snapshot = this.snapshots[snapshotIndex];
      if (snapshot !== undefined) {
        state.copyFrom(snapshot);
      }
    }
    while (state.cursor < target) {
      applyNextEvent(this.timeline, state);
    }
    return state;
  }
}
