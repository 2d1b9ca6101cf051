/**
 * `kubectl drain NODE` as a client of the simulated cluster (staging/src/k8s.io/kubectl/pkg/drain/drain.go):
 * cordon the node, sort its pods out (drain-filters.ts; any refusal fails the drain), then evict every pod at
 * once; an eviction a disruption budget refuses (429) is retried every 5 seconds, one refused for two budgets
 * (500) fails the drain; the drain completes when every evicted pod is gone (polled every second).
 * Retries are only attempted when the budget's status changed, on the 5-second grid of the first attempt, which
 * gives the same times as polling without filling the timeline with identical refusals.
 */
import { PRIORITY } from '../sim/priorities';
import type { BudgetIndex } from '../apiserver/budget-index';
import type { ClusterState, SimNode } from '../apiserver/cluster-state';
import { evictPod } from '../controllers/disruption/disruption-controller';
import { refusalMessage } from '../apiserver/eviction';
import type { DrainOptions } from './drain-filters';
import { selectPodsForDrain } from './drain-filters';
import type { SimPod } from '../apiserver/sim-pod';
import type { TimingSettings } from '../sim/timing-settings';
import { recordNodeNotSchedulable } from '../controllers/controller-events';
import { appendAll } from '../../../../protocol/collections';

/** Where a drain stands. */
type DrainState = 'NotStarted' | 'Evicting' | 'Completed' | 'Failed';

/** A pod the drain could not evict (yet). */
export interface DrainRefusal {
  readonly pod: string;
  /** The budget, "namespace/name", when one refused. */
  readonly budget: string | null;
  readonly message: string;
}

/** What a drain did. */
interface DrainOutcome {
  readonly node: string;
  readonly options: DrainOptions;
  state: DrainState;
  startedAt: number | null;
  completedAt: number | null;
  readonly evicted: { pod: string; time: number; budget: string | null }[];
  /** Pods still refused when the simulation ended (empty once completed). */
  blocked: DrainRefusal[];
  /** Errors that fail the drain (filters, a pod under two budgets). */
  readonly errors: string[];
  readonly skipped: string[];
}

interface Blocked {
  readonly pod: SimPod;
  readonly firstAttempt: number;
  isScheduled: boolean;
  refusal: DrainRefusal;
}

/** One `kubectl drain` of one node. */
export class DrainProcess {
  readonly outcome: DrainOutcome;
  private readonly blocked = new Map<string, Blocked>();
  private readonly waiting = new Map<string, number>();
  private lastDone = 0;

  constructor(
    private readonly state: ClusterState,
    private readonly index: BudgetIndex,
    private readonly settings: TimingSettings,
    private readonly node: SimNode,
    options: DrainOptions,
  ) {
    this.outcome = {
      node: node.name,
      options,
      state: 'NotStarted',
      startedAt: null,
      completedAt: null,
      evicted: [],
      blocked: [],
      errors: [],
      skipped: [],
    };
    state.onBudget(() => this.retryBlocked());
    state.onPod((pod, change) => {
      const evictedAt = this.waiting.get(pod.key);
      if (change === 'gone' && evictedAt !== undefined) {
        this.waiting.delete(pod.key);
        const now = state.sim.now;
        this.lastDone = Math.max(this.lastDone, evictedAt + Math.ceil(now - evictedAt));
        this.finishIfDone();
      }
    });
  }

  /** Cordons the node and evicts its pods. */
  start(): void {
    const { state, node, outcome } = this;
    const now = state.sim.now;
    outcome.startedAt = now;
    outcome.state = 'Evicting';
    state.recordNode('DrainStarted', node.name, `kubectl drain ${node.name}`);
    if (node.object.spec?.unschedulable !== true) {
      const object = { ...node.object, spec: { ...node.object.spec, unschedulable: true } };
      state.updateNode(node, object, 'NodeCordoned', `node/${node.name} cordoned`);
      recordNodeNotSchedulable(state, node.name);
    }
    const selection = selectPodsForDrain(state.podsOn(node.name), outcome.options);
    appendAll(
      outcome.skipped,
      selection.skipped.map((entry) => `${entry.pod.key} (${entry.reason})`),
    );
    if (selection.errors.length > 0) {
      appendAll(outcome.errors, selection.errors);
      outcome.state = 'Failed';
      const message = `error: unable to drain node "${node.name}" due to error: ${selection.errors.join(', ')}`;
      state.recordNode('DrainBlocked', node.name, message, { reason: selection.errors.join('; ') });
      return;
    }
    this.lastDone = now;
    for (const pod of selection.evict) {
      this.attempt(pod, now);
    }
    this.finishIfDone();
  }

  private attempt(pod: SimPod, firstAttempt: number): void {
    const { state, node, outcome } = this;
    if (pod.isGone || pod.deletionTime !== null) {
      this.blocked.delete(pod.key);
      if (!pod.isGone) {
        this.waiting.set(pod.key, state.sim.now);
      }
      return;
    }
    const verdict = evictPod(state, this.index, pod);
    if (verdict.allowed) {
      this.blocked.delete(pod.key);
      const budget = verdict.budget ?? undefined;
      state.recordPod(
        'EvictionAllowed',
        pod,
        `evicting pod ${pod.key}`,
        budget === undefined ? {} : { disruptionBudget: budget },
      );
      outcome.evicted.push({ pod: pod.key, time: state.sim.now, budget: verdict.budget });
      this.waiting.set(pod.key, state.sim.now);
      state.deletePod(pod, `Evicted by kubectl drain ${node.name}`, {
        reason: `Evicted by kubectl drain ${node.name}`,
        ...(budget === undefined ? {} : { budget }),
      });
      return;
    }
    const refusal: DrainRefusal = { pod: pod.key, budget: verdict.budget, message: refusalMessage(verdict) };
    const details = {
      reason: verdict.cause,
      ...(verdict.budget === null ? {} : { disruptionBudget: verdict.budget }),
    };
    const known = this.blocked.get(pod.key);
    state.recordPod('EvictionBlocked', pod, verdict.reason.message, details);
    if (!verdict.isRetriable) {
      this.blocked.delete(pod.key);
      const message = `error when evicting pods/"${pod.name}" -n "${pod.namespace}": ${verdict.reason.message}`;
      outcome.errors.push(message);
      outcome.blocked.push(refusal);
      outcome.state = 'Failed';
      state.recordNode('DrainBlocked', node.name, message, details);
      return;
    }
    if (known === undefined || known.refusal.message !== refusal.message) {
      const message = `error when evicting pods/"${pod.name}" -n "${pod.namespace}" (will retry after ${this.settings.drainRetrySeconds}s): ${verdict.reason.message}`;
      state.recordNode('DrainBlocked', node.name, message, details);
    }
    this.blocked.set(pod.key, { pod, firstAttempt, isScheduled: false, refusal });
  }

  private retryBlocked(): void {
    const now = this.state.sim.now;
    const period = this.settings.drainRetrySeconds;
    for (const entry of this.blocked.values()) {
      if (entry.isScheduled) {
        continue;
      }
      entry.isScheduled = true;
      const steps = Math.max(1, Math.ceil((now - entry.firstAttempt) / period));
      this.state.sim.at(entry.firstAttempt + steps * period, PRIORITY.client, () => {
        entry.isScheduled = false;
        this.attempt(entry.pod, entry.firstAttempt);
        this.finishIfDone();
      });
    }
  }

  private finishIfDone(): void {
    const { outcome, state, node } = this;
    if (outcome.state !== 'Evicting' || this.blocked.size > 0 || this.waiting.size > 0) {
      return;
    }
    const at = Math.max(this.lastDone, state.sim.now);
    state.sim.at(at, PRIORITY.client, () => {
      if (outcome.state === 'Evicting' && this.blocked.size === 0 && this.waiting.size === 0) {
        outcome.state = 'Completed';
        outcome.completedAt = state.sim.now;
        state.recordNode('DrainCompleted', node.name, `node/${node.name} drained`);
      }
    });
  }

  /** The pods still refused (for the report when the simulation ends). */
  refusals(): DrainRefusal[] {
    return [...this.blocked.values()].map((entry) => entry.refusal);
  }

  /** Pods evicted but never gone (their node's kubelet is down, or the simulation stopped first). */
  stillTerminating(): string[] {
    return [...this.waiting.keys()];
  }
}
