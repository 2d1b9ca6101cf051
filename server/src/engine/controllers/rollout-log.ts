/**
 * The record of each rollout for the report (`rollouts`): the controller's strategy with maxSurge / maxUnavailable
 * as it resolved them, then every step (each sync that scaled something: the new and old replicas, available,
 * unavailable), then how it ended. Each step is also a RolloutStep timeline event.
 *
 * Pods become available after the last sync that scaled anything (a StatefulSet's last pod turns Ready, a
 * DaemonSet's pods start), so the counts at the end are recorded with the end: the RolloutComplete (or
 * ProgressDeadlineExceeded) event carries them, and they close the steps when they differ from the last one.
 * Without them a completed rollout would read "available 1" with every pod Ready.
 */
import type { RolloutStepDetails } from '../../../../protocol/timeline';
import type { ClusterState } from '../apiserver/cluster-state';

/** One step of a rollout. */
export interface RolloutStep extends RolloutStepDetails {
  readonly time: number;
}

/** How a rollout ended (or had not) when the simulation stopped. */
export type RolloutOutcome = 'Complete' | 'ProgressDeadlineExceeded' | 'InProgress';

/** A workload's rollout. */
export interface RolloutRecord {
  readonly kind: 'Deployment' | 'StatefulSet' | 'DaemonSet';
  readonly namespace: string;
  readonly name: string;
  readonly strategy: string;
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  readonly replicas: number;
  /** Whether it replaces running pods (an update) rather than starting a new workload. */
  readonly isUpdate: boolean;
  readonly startedAt: number;
  readonly steps: RolloutStep[];
  outcome: RolloutOutcome;
  /** When it completed or missed its deadline. */
  endedAt: number | null;
  /** The controller's condition message at the end ("ReplicaSet ... has successfully progressed."). */
  message: string;
}

/** What starts a rollout record. */
type RolloutStart = Omit<RolloutRecord, 'steps' | 'outcome' | 'endedAt' | 'message' | 'startedAt'>;

/** Rollout records by "Kind/namespace/name". */
export class RolloutLog {
  readonly records = new Map<string, RolloutRecord>();

  constructor(private readonly state: ClusterState) {}

  /** Starts (or restarts, after a new template) the record of a workload's rollout. */
  start(start: RolloutStart): RolloutRecord {
    // Written field by field (not spread), in the order the report keeps: one object literal of a fixed shape,
    // where a spread then five more fields grew the copy's property storage field by field (a record per
    // workload per run).
    const record: RolloutRecord = {
      kind: start.kind,
      namespace: start.namespace,
      name: start.name,
      strategy: start.strategy,
      maxSurge: start.maxSurge,
      maxUnavailable: start.maxUnavailable,
      replicas: start.replicas,
      isUpdate: start.isUpdate,
      startedAt: this.state.sim.now,
      steps: [],
      outcome: 'InProgress',
      endedAt: null,
      message: '',
    };
    this.records.set(keyOf(start.kind, start.namespace, start.name), record);
    return record;
  }

  /** The record of a workload, if its rollout is tracked. */
  get(kind: RolloutRecord['kind'], namespace: string, name: string): RolloutRecord | undefined {
    // Asked on every sync of every workload; with no rollout tracked, no key is built.
    return this.records.size === 0 ? undefined : this.records.get(keyOf(kind, namespace, name));
  }

  /** Adds a step (and its RolloutStep event) unless the rollout ended or the step repeats the last one. */
  step(record: RolloutRecord, numbers: RolloutStepDetails, message: string): void {
    if (record.outcome !== 'InProgress') {
      return;
    }
    const last = record.steps[record.steps.length - 1];
    if (last !== undefined && isSameCounts(last, numbers)) {
      return;
    }
    record.steps.push({ time: this.state.sim.now, ...numbers });
    this.state.recordWorkload('RolloutStep', record.kind, record.namespace, record.name, message, {
      rollout: { ...numbers },
    });
  }

  /**
   * Ends a rollout: complete, or past its progress deadline, with the controller's counts at that moment (the
   * end event carries them; they close the steps unless the last step already has them).
   */
  end(
    record: RolloutRecord,
    outcome: Exclude<RolloutOutcome, 'InProgress'>,
    message: string,
    numbers: RolloutStepDetails,
  ): void {
    if (record.outcome !== 'InProgress') {
      return;
    }
    record.outcome = outcome;
    record.endedAt = this.state.sim.now;
    record.message = message;
    const last = record.steps[record.steps.length - 1];
    if (last === undefined || !isSameCounts(last, numbers)) {
      record.steps.push({ time: this.state.sim.now, ...numbers });
    }
    const type = outcome === 'Complete' ? 'RolloutComplete' : 'ProgressDeadlineExceeded';
    this.state.recordWorkload(type, record.kind, record.namespace, record.name, message, {
      rollout: { ...numbers },
    });
  }
}

function isSameCounts(a: RolloutStepDetails, b: RolloutStepDetails): boolean {
  return (
    a.newReplicas === b.newReplicas &&
    a.oldReplicas === b.oldReplicas &&
    a.available === b.available &&
    a.unavailable === b.unavailable
  );
}

function keyOf(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}
