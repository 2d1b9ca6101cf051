/**
 * The horizontal pod autoscaler controller over simulated time (reconcileAutoscaler in
 * pkg/controller/podautoscaler/horizontal.go): every 15 s (--horizontal-pod-autoscaler-sync-period) each HPA reads
 * its target's scale; outside [minReplicas, maxReplicas] it moves it back in; otherwise it computes the desired
 * replicas from the cpu utilization of the target's pods (hpa-replicas.ts), normalises them (hpa-behavior.ts) and
 * writes the scale, with the controller's SuccessfulRescale event ("New size: 6; reason: cpu resource utilization
 * (percentage of request) above target"). When it cannot compute (a container without a cpu request), it records
 * FailedGetResourceMetric with upstream's error and leaves the scale alone.
 * Metrics exist only once a scenario's `load` step gives the workload a cpu load; before that the HPA only set
 * the starting replicas (workloads/autoscalers.ts). Every HPA starts with the target's replicas at time 0 as a
 * recommendation (recordInitialRecommendation), so the default 300 s window holds a scale-down for its length. The controller syncs while something can still change (a load
 * was set, a pod of the target changed, or a recommendation is still inside a window), then sleeps until the next
 * change, so a run still ends.
 * Left out: metrics other than cpu Utilization, the HPA's status and conditions (the events say what they would).
 */
import type { AutoscalerIndex, AutoscalerSpec } from '../../workloads/autoscalers';
import { DOWNSCALE_STABILIZATION_SECONDS, autoscalerKey } from '../../workloads/autoscalers';
import { PRIORITY } from '../../sim/priorities';
import { MAX_EXPANDED_PODS } from '../../workloads/types';
import type { ClusterState } from '../../apiserver/cluster-state';
import type { HpaMemory, TimedRecommendation } from './hpa-behavior';
import { normalizeDesiredReplicas, pruneMemory } from './hpa-behavior';
import { podCpuRequest, podSamples, readyRequestMilli, targetPods } from './hpa-pods';
import { resourceReplicas } from './hpa-replicas';
import type { ScalableKind, ScaleSubresource } from '../../apiserver/scale-subresource';
import { isScalableKind } from '../../apiserver/scale-subresource';
import type { SimPod } from '../../apiserver/sim-pod';
import { asArray, asObject } from '../../model/json';
import type { Finding } from '../../../../../protocol/finding';
import { engineFinding } from '../../model/findings';
import { EVENT_COMPONENT } from '../../model/kubernetes-events';
import { maxOf } from '../../../../../protocol/collections';

/** --horizontal-pod-autoscaler-sync-period (15s). */
export const HPA_SYNC_PERIOD_SECONDS = 15;

/** The metric name the controller puts in its rescale reason for a cpu utilization target. */
const CPU_METRIC_NAME = 'cpu resource utilization (percentage of request)';

/** A load on a workload: cpu as a utilization of its Ready pods' requests at the time, or in millicores. */
export type WorkloadLoad = { readonly cpuUtilization: number } | { readonly cpuMilli: number };

interface Autoscaler {
  readonly spec: AutoscalerSpec;
  readonly kind: ScalableKind;
  readonly targetKey: string;
  /** The total cpu use of the target's pods (millicores), or null before any load step. */
  loadMilli: number | null;
  memory: HpaMemory;
  /** When the last thing that can change a recommendation happened (load, rescale, a pod change). */
  changedAt: number;
  /** The time of the next sync already planned, or null while the controller sleeps for this HPA. */
  nextSync: number | null;
  lastSync: number;
  lastError: string | null;
}

/** Runs every HPA of the cluster and the apply. */
export class HpaController {
  private readonly autoscalers = new Map<string, Autoscaler>();
  /** HPAs whose missing cpu request is already a finding. */
  private readonly reported = new Set<Autoscaler>();

  constructor(
    private readonly state: ClusterState,
    index: AutoscalerIndex,
    private readonly scale: ScaleSubresource,
    private readonly findings: Finding[],
  ) {
    for (const [key, spec] of index) {
      if (isScalableKind(spec.targetKind)) {
        const targetKey = `${spec.namespace}/${spec.targetName}`;
        this.autoscalers.set(key, {
          spec,
          kind: spec.targetKind,
          targetKey,
          loadMilli: null,
          memory: {
            recommendations: initialRecommendation(state.sim.now, scale.replicas(spec.targetKind, targetKey)),
            scaleUpEvents: [],
            scaleDownEvents: [],
          },
          changedAt: 0,
          nextSync: null,
          lastSync: -1,
          lastError: null,
        });
      }
    }
    state.onPod((pod) => {
      // Every pod change comes here: without autoscalers (the map is filled above, once), no key is worded.
      if (pod.workload === null || this.autoscalers.size === 0) {
        return;
      }
      const autoscaler = this.autoscalers.get(
        autoscalerKey(pod.namespace, pod.workload.kind, pod.workload.name),
      );
      if (autoscaler !== undefined && autoscaler.loadMilli !== null) {
        autoscaler.changedAt = state.sim.now;
        this.wake(autoscaler);
      }
    });
  }

  /**
   * Sets the cpu load of a workload from now on; returns what is wrong (no HPA targets it, its HPA has no cpu
   * utilization metric) or null.
   */
  setLoad(kind: string, namespace: string, name: string, load: WorkloadLoad): string | null {
    const autoscaler = this.autoscalers.get(autoscalerKey(namespace, kind, name));
    if (autoscaler === undefined) {
      return `no HorizontalPodAutoscaler targets ${kind} ${namespace}/${name}`;
    }
    if (autoscaler.spec.cpuUtilization === null) {
      return `HorizontalPodAutoscaler ${namespace}/${autoscaler.spec.name} has no cpu Utilization metric (the only one simulated)`;
    }
    const pods = targetPods(this.state, autoscaler.kind, namespace, name);
    autoscaler.loadMilli =
      'cpuMilli' in load ? load.cpuMilli : (load.cpuUtilization / 100) * readyRequestMilli(pods);
    autoscaler.changedAt = this.state.sim.now;
    this.wake(autoscaler);
    return null;
  }

  /**
   * The scale of a workload was written by someone else (kubectl scale): its HPA, if any, syncs at the next period
   * and moves it back within [minReplicas, maxReplicas] even without metrics.
   */
  scaleChanged(kind: string, namespace: string, name: string): void {
    const autoscaler = this.autoscalers.get(autoscalerKey(namespace, kind, name));
    if (autoscaler !== undefined) {
      autoscaler.changedAt = this.state.sim.now;
      this.wake(autoscaler);
    }
  }

  /** Plans the next sync on the 15 s grid (now, if now is on it and not synced yet). */
  private wake(autoscaler: Autoscaler): void {
    if (autoscaler.nextSync !== null) {
      return;
    }
    const now = this.state.sim.now;
    let time = Math.ceil(now / HPA_SYNC_PERIOD_SECONDS) * HPA_SYNC_PERIOD_SECONDS;
    if (time <= autoscaler.lastSync) {
      time = autoscaler.lastSync + HPA_SYNC_PERIOD_SECONDS;
    }
    autoscaler.nextSync = time;
    this.state.sim.at(time, PRIORITY.controller, () => {
      autoscaler.nextSync = null;
      autoscaler.lastSync = time;
      this.sync(autoscaler);
      if (this.hasMoreToDo(autoscaler)) {
        this.wake(autoscaler);
      }
    });
  }

  /**
   * Whether a later sync could decide differently with the load unchanged: something changed (the load, a rescale,
   * a pod of the target) within the longest window or policy period, plus one sync. A pod that changes later wakes
   * the controller again; a Pending pod that never changes does not keep it (and the run) going.
   */
  private hasMoreToDo(autoscaler: Autoscaler): boolean {
    const behavior = autoscaler.spec.behavior;
    const rules = behavior === null ? [] : [behavior.scaleUp, behavior.scaleDown];
    const horizon = maxOf([
      DOWNSCALE_STABILIZATION_SECONDS,
      ...rules.map((rule) => rule.stabilizationWindowSeconds),
      ...rules.flatMap((rule) => rule.policies.map((policy) => policy.periodSeconds)),
    ]);
    return this.state.sim.now - autoscaler.changedAt <= horizon + HPA_SYNC_PERIOD_SECONDS;
  }

  private sync(autoscaler: Autoscaler): void {
    const { spec } = autoscaler;
    const now = this.state.sim.now;
    const current = this.scale.replicas(autoscaler.kind, autoscaler.targetKey);
    if (current === undefined || (current === 0 && spec.minReplicas !== 0)) {
      return; // no target, or scaling disabled (ScalingActive False, ScalingDisabled)
    }
    let desired = current;
    let reason = '';
    if (current > spec.maxReplicas) {
      [desired, reason] = [spec.maxReplicas, 'Current number of replicas above Spec.MaxReplicas'];
    } else if (current < spec.minReplicas) {
      [desired, reason] = [spec.minReplicas, 'Current number of replicas below Spec.MinReplicas'];
    } else if (autoscaler.loadMilli !== null && spec.cpuUtilization !== null) {
      const pods = targetPods(this.state, autoscaler.kind, spec.namespace, spec.targetName);
      const result = resourceReplicas(current, spec.cpuUtilization, podSamples(pods, autoscaler.loadMilli));
      if (!result.ok) {
        this.recordError(autoscaler, `failed to get cpu utilization: ${result.error}`, pods);
        return;
      }
      autoscaler.lastError = null;
      const metricDesired = Math.max(0, result.replicas);
      reason =
        metricDesired > current
          ? `${CPU_METRIC_NAME} above target`
          : metricDesired < current
            ? 'All metrics below target'
            : '';
      const normalized = normalizeDesiredReplicas({
        now,
        currentReplicas: current,
        desiredReplicas: metricDesired,
        minReplicas: spec.minReplicas,
        maxReplicas: spec.maxReplicas,
        behavior: spec.behavior,
        memory: autoscaler.memory,
      });
      desired = normalized.replicas;
      autoscaler.memory = pruneMemory(
        {
          ...autoscaler.memory,
          recommendations: [...autoscaler.memory.recommendations, normalized.recommendation],
        },
        now,
        spec.behavior,
      );
    }
    // A hostile maxReplicas under a huge load stops where kubectl scale steps stop: the pods one run creates.
    desired = Math.min(desired, MAX_EXPANDED_PODS);
    if (desired === current) {
      return;
    }
    this.scale.write(autoscaler.kind, autoscaler.targetKey, desired);
    autoscaler.changedAt = now;
    const event = { time: now, change: Math.abs(desired - current) };
    autoscaler.memory =
      desired > current
        ? { ...autoscaler.memory, scaleUpEvents: [...autoscaler.memory.scaleUpEvents, event] }
        : { ...autoscaler.memory, scaleDownEvents: [...autoscaler.memory.scaleDownEvents, event] };
    this.state.recordWorkload(
      'SuccessfulRescale',
      'HorizontalPodAutoscaler',
      spec.namespace,
      spec.name,
      `New size: ${desired}; reason: ${reason}`,
      { rescale: { target: `${spec.targetKind}/${spec.targetName}`, from: current, to: desired } },
      { reason: 'SuccessfulRescale', component: EVENT_COMPONENT.horizontalPodAutoscaler },
    );
  }

  /**
   * FailedGetResourceMetric, once per distinct error (Kubernetes aggregates repeats into one event's count); a
   * container without a cpu request is also a finding on that container of the template.
   */
  private recordError(autoscaler: Autoscaler, message: string, pods: readonly SimPod[]): void {
    if (autoscaler.lastError === message) {
      return;
    }
    autoscaler.lastError = message;
    const { spec } = autoscaler;
    const component = EVENT_COMPONENT.horizontalPodAutoscaler;
    this.state.recordWorkload(
      'FailedGetResourceMetric',
      'HorizontalPodAutoscaler',
      spec.namespace,
      spec.name,
      message,
      undefined,
      { reason: 'FailedGetResourceMetric', component, warning: true },
    );
    // computeReplicasForMetrics fails too: one invalid metric of the HPA's (the cpu one is all it has here).
    const involvedObject = { kind: 'HorizontalPodAutoscaler', namespace: spec.namespace, name: spec.name };
    this.state.recordEvent(
      { reason: 'FailedComputeMetricsReplicas', component, warning: true, involvedObject },
      `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${message}`,
      null,
    );
    const pod = pods.find((candidate) => podCpuRequest(candidate).containerWithoutRequest !== null);
    const container = pod === undefined ? null : podCpuRequest(pod).containerWithoutRequest;
    if (pod === undefined || container === null || this.reported.has(autoscaler)) {
      return;
    }
    this.reported.add(autoscaler);
    this.findings.push(
      engineFinding(
        'hpa-cannot-compute',
        pod.info.source,
        containerPath(pod, container),
        `HorizontalPodAutoscaler ${spec.namespace}/${spec.name} cannot scale ${spec.targetKind} ${spec.targetName}: ${message}; the HPA divides cpu use by the pods' cpu requests, so every container needs one`,
        { autoscaler: `${spec.namespace}/${spec.name}`, container },
      ),
    );
  }
}

/**
 * recordInitialRecommendation: on an HPA's first sync (at once for an HPA applied now; long ago, in steady state, for
 * one the cluster runs) the controller remembers the target's replicas as a recommendation, so that a lower
 * recommendation is held by the scale-down stabilization window for its length rather than applied at once.
 */
function initialRecommendation(now: number, replicas: number | undefined): TimedRecommendation[] {
  return replicas === undefined ? [] : [{ time: now, replicas }];
}

/** The path of a container (regular or sidecar) in a pod's template, by name. */
function containerPath(pod: SimPod, name: string): (string | number)[] {
  const spec = asObject(pod.object.spec);
  for (const list of ['containers', 'initContainers'] as const) {
    const index = asArray(spec[list]).findIndex((container) => asObject(container)['name'] === name);
    if (index >= 0) {
      return ['spec', list, index];
    }
  }
  return ['spec'];
}
