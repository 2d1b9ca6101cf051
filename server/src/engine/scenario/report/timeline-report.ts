/**
 * The timeline's part of the JSON report (schemas/report.schema.json): `rollouts` (each workload's strategy and
 * waves), `disruptionBudgets` (status as the disruption controller computes it, and the evictions each refuses),
 * `drains` (per node: the scenario's drains as they ran, every other node's drain analysed at the end), `jobs`
 * (job-report.ts) and `events`.
 */
import type { TimelineEvent } from '../../../../../protocol/timeline';
import type { BudgetIndex } from '../../apiserver/budget-index';
import type { ClusterState } from '../../apiserver/cluster-state';
import { analyzeDrain } from '../../drain/drain-analysis';
import { DEFAULT_DRAIN_OPTIONS } from '../../drain/drain-filters';
import { checkEviction, refusalMessage } from '../../apiserver/eviction';
import type { RolloutOutcome, RolloutRecord } from '../../controllers/rollout-log';
import type { TimelineResult } from '../run-timeline';
import { reportJobs } from './job-report';
import { reportAutoscaler } from '../../autoscaler/autoscaler-report';
import type { ReportAutoscaler } from '../../autoscaler/autoscaler-report';
import type { ReportJob } from './job-report';
import { reportHorizontalPodAutoscalers, reportKubeletEvictions } from './pressure-report';
import type { ReportHorizontalPodAutoscaler, ReportKubeletEviction } from './pressure-report';
import { asArray, asObject } from '../../model/json';

/** One wave of a rollout. */
interface ReportRolloutStep {
  readonly time: number;
  readonly newReplicas: number;
  readonly oldReplicas: number;
  readonly available: number;
  readonly unavailable: number;
}

/** A workload's rollout. */
export interface ReportRollout {
  readonly namespace: string;
  readonly name: string;
  readonly kind: RolloutRecord['kind'];
  readonly strategy: string;
  /** As the controller resolves them against the replicas (surge rounds up, unavailable down). */
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  readonly replicas: number;
  readonly startedAt: number;
  readonly outcome: RolloutOutcome;
  readonly endedAt: number | null;
  readonly message: string;
  readonly steps: readonly ReportRolloutStep[];
}

/** An eviction a budget refuses. */
interface ReportBlockedEviction {
  /** "namespace/name". */
  readonly pod: string;
  readonly message: string;
}

/** A PodDisruptionBudget's status at the end of the timeline. */
interface ReportDisruptionBudget {
  readonly namespace: string;
  readonly name: string;
  readonly expectedPods: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly disruptionsAllowed: number;
  /** The DisruptionAllowed condition's SyncFailed message, or null. */
  readonly syncError: string | null;
  /** Selected pods whose eviction would be refused now. */
  readonly blocks: readonly ReportBlockedEviction[];
  /** disruptionsAllowed each time the disruption controller or an eviction changed it (seconds). */
  readonly allowedChanges: readonly { readonly at: number; readonly disruptionsAllowed: number }[];
}

/** A refusal that holds a drain. */
interface ReportDrainBlock {
  readonly pod: string;
  readonly disruptionBudget: string | null;
  readonly message: string;
}

/** A node's drain. */
export interface ReportDrain {
  readonly node: string;
  /** 'scenario': the scenario drained it; 'analysis': what a drain at the end would meet. */
  readonly origin: 'scenario' | 'analysis';
  readonly verdict: 'Allowed' | 'WaitsForBudget' | 'NeverFinishes' | 'Completed' | 'Failed' | 'NotFinished';
  readonly startedAt: number | null;
  readonly completedAt: number | null;
  readonly evicted: readonly string[];
  readonly blockedBy: readonly ReportDrainBlock[];
  readonly errors: readonly string[];
  readonly skipped: readonly string[];
}

/** The timeline sections of the report. */
/** A PersistentVolumeClaim at the end of the timeline. */
export interface ReportClaim {
  readonly namespace: string;
  readonly name: string;
  readonly phase: 'Pending' | 'Bound' | 'Lost';
  /** The volume it is bound to, or null. */
  readonly volumeName: string | null;
  /** Its class ('' asks for a volume without class). */
  readonly storageClassName: string;
  /** The node affinity's zone of its volume (a provisioned zonal volume, a captured PV), or null. */
  readonly zone: string | null;
  /** The controller that created it ("StatefulSet/db"), or null for a claim of the apply or the cluster file. */
  readonly createdBy: string | null;
}

export interface TimelineReport {
  readonly timeline: { readonly endTime: number; readonly settled: boolean };
  /** The claims of the cluster file, the apply and the controllers, with their binding. */
  readonly persistentVolumeClaims: readonly ReportClaim[];
  readonly rollouts: readonly ReportRollout[];
  readonly disruptionBudgets: readonly ReportDisruptionBudget[];
  readonly drains: readonly ReportDrain[];
  /** What each Job did (job-report.ts). */
  readonly jobs: readonly ReportJob[];
  /** Each HPA's rescales and failures (pressure-report.ts). */
  readonly horizontalPodAutoscalers: readonly ReportHorizontalPodAutoscaler[];
  /** Pods the kubelet evicted under node pressure (pressure-report.ts). */
  readonly kubeletEvictions: readonly ReportKubeletEviction[];
  /** What the cluster autoscaler did (autoscaler/autoscaler-report.ts); only when the cluster has NodeGroups. */
  readonly autoscaler?: ReportAutoscaler;
  readonly events: readonly TimelineEvent[];
}

/** Which nodes the report's drains cover (SimulationInput.drains). */
export type DrainCoverage = 'every-node' | 'budget-held';

/** Builds the timeline sections from a finished simulation. */
export function buildTimelineReport(
  result: TimelineResult,
  drains: DrainCoverage = 'every-node',
): TimelineReport {
  const { state, index } = result;
  const rollouts = [...result.rollouts.records.values()].map((record): ReportRollout => ({
    namespace: record.namespace,
    name: record.name,
    kind: record.kind,
    strategy: record.strategy,
    maxSurge: record.maxSurge,
    maxUnavailable: record.maxUnavailable,
    replicas: record.replicas,
    startedAt: record.startedAt,
    outcome: record.outcome,
    endedAt: record.endedAt,
    message: record.message,
    steps: record.steps.map((step) => ({ ...step })),
  }));
  const lastEvent = result.events[result.events.length - 1];
  return {
    timeline: {
      endTime: result.stoppedAtLimit ? result.endTime : (lastEvent?.time ?? 0),
      settled: !result.stoppedAtLimit,
    },
    persistentVolumeClaims: reportClaims(result),
    rollouts,
    disruptionBudgets: reportBudgets(state, index),
    drains: reportDrains(result, drains),
    jobs: reportJobs(state),
    horizontalPodAutoscalers: reportHorizontalPodAutoscalers(result.events),
    kubeletEvictions: reportKubeletEvictions(result.events),
    ...(result.autoscaler === null
      ? {}
      : {
          autoscaler: reportAutoscaler(result.autoscaler, (key) => {
            const pod = state.pods.get(key);
            return pod !== undefined && pod.nodeName === null && !pod.isGone;
          }),
        }),
    events: result.events,
  };
}

function reportClaims(result: TimelineResult): ReportClaim[] {
  const storage = result.storage;
  return [...storage.claims.values()].map((claim) => {
    const volume = claim.volumeName === '' ? undefined : storage.volumes.get(claim.volumeName);
    return {
      namespace: claim.namespace,
      name: claim.name,
      phase: claim.phase,
      volumeName: claim.volumeName === '' ? null : claim.volumeName,
      storageClassName: claim.storageClassName,
      zone: volume === undefined ? null : volumeZone(volume.nodeAffinity, volume.labels),
      createdBy: claim.createdBy,
    };
  });
}

/** The zone a volume is pinned to: an In requirement on topology.kubernetes.io/zone with one value, or its label. */
function volumeZone(nodeAffinity: unknown, labels: Readonly<Record<string, string>>): string | null {
  const terms = asArray(asObject(nodeAffinity)['nodeSelectorTerms']);
  for (const term of terms) {
    for (const expression of asArray(asObject(term)['matchExpressions'])) {
      const requirement = asObject(expression);
      const values = asArray(requirement['values']);
      const key = requirement['key'];
      if (
        typeof key === 'string' &&
        ZONE_KEYS.has(key) &&
        requirement['operator'] === 'In' &&
        values.length === 1 &&
        typeof values[0] === 'string'
      ) {
        return values[0];
      }
    }
  }
  return labels[ZONE_LABEL] ?? null;
}

const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** Zone keys a volume's node affinity uses: the well-known one, its beta form, and CSI drivers' own. */
const ZONE_KEYS: ReadonlySet<string> = new Set([
  ZONE_LABEL,
  'failure-domain.beta.kubernetes.io/zone',
  'topology.gke.io/zone',
  'topology.ebs.csi.aws.com/zone',
  'topology.disk.csi.azure.com/zone',
]);

function reportBudgets(state: ClusterState, index: BudgetIndex): ReportDisruptionBudget[] {
  return [...state.disruptionBudgets.values()].map((budget) => {
    const blocks: ReportBlockedEviction[] = [];
    for (const pod of index.podsOf(budget).sort((a, b) => (a.key < b.key ? -1 : 1))) {
      if (pod.deletionTime !== null) {
        continue;
      }
      const budgets = index.budgetsOf(pod).map((candidate) => ({
        key: candidate.key,
        name: candidate.name,
        unhealthyPodEvictionPolicy: candidate.unhealthyPodEvictionPolicy,
        status: candidate.status,
      }));
      const verdict = checkEviction(pod.isReady, budgets);
      if (!verdict.allowed) {
        const message = verdict.isRetriable
          ? `${verdict.reason.message} ${verdict.cause}`
          : refusalMessage(verdict);
        blocks.push({ pod: pod.key, message });
      }
    }
    const { status } = budget;
    return {
      namespace: budget.namespace,
      name: budget.name,
      expectedPods: status.expectedPods,
      currentHealthy: status.currentHealthy,
      desiredHealthy: status.desiredHealthy,
      disruptionsAllowed: status.disruptionsAllowed,
      syncError: status.syncError,
      blocks,
      allowedChanges: budget.allowedChanges.map((change) => ({ ...change })),
    };
  });
}

function reportDrains(result: TimelineResult, coverage: DrainCoverage): ReportDrain[] {
  const { state, index } = result;
  const drained = new Map(result.drains.map((drain) => [drain.process.outcome.node, drain.process]));
  // A budget refuses only the eviction of a pod it selects (analyzeDrain asks index.budgetsOf of each pod).
  const covered =
    coverage === 'every-node'
      ? state.nodeList()
      : state
          .nodeList()
          .filter(
            (node) =>
              drained.has(node.name) ||
              state.podsOn(node.name).some((pod) => index.budgetsOf(pod).length > 0),
          );
  return covered.map((node): ReportDrain => {
    const process = drained.get(node.name);
    if (process !== undefined) {
      const { outcome } = process;
      const blocked = outcome.state === 'Evicting' ? process.refusals() : outcome.blocked;
      return {
        node: node.name,
        origin: 'scenario',
        verdict:
          outcome.state === 'Completed'
            ? 'Completed'
            : outcome.state === 'Failed'
              ? 'Failed'
              : result.stoppedAtLimit
                ? 'NotFinished'
                : 'NeverFinishes',
        startedAt: outcome.startedAt,
        completedAt: outcome.completedAt,
        evicted: outcome.evicted.map((entry) => entry.pod),
        blockedBy: blocked.map((refusal) => ({
          pod: refusal.pod,
          disruptionBudget: refusal.budget,
          message: refusal.message,
        })),
        errors: [...outcome.errors],
        skipped: [...outcome.skipped],
      };
    }
    const analysis = analyzeDrain(state, index, node.name, DEFAULT_DRAIN_OPTIONS);
    return {
      node: node.name,
      origin: 'analysis',
      verdict: analysis.verdict,
      startedAt: null,
      completedAt: null,
      evicted: [...analysis.evictable],
      blockedBy: analysis.blocked.map((refusal) => ({
        pod: refusal.pod,
        disruptionBudget: refusal.budget,
        message: refusal.message,
      })),
      errors: [...analysis.errors],
      skipped: [...analysis.skipped],
    };
  });
}
