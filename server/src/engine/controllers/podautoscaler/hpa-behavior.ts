/**
 * How the HPA controller turns the metrics' desired replicas into the replicas it writes (normalizeDesiredReplicas
 * and normalizeDesiredReplicasWithBehaviors in pkg/controller/podautoscaler/horizontal.go):
 * - without spec.behavior (autoscaling/v1, or v2 without it): the highest recommendation of the last 300 s
 *   (--horizontal-pod-autoscaler-downscale-stabilization), then at most max(2 × current, 4) and within min/max;
 * - with spec.behavior (API defaults filled in: scale up 0 s window, max of 100% and 4 pods per 15 s; scale down
 *   300 s window, 100% per 15 s; selectPolicy Max): the recommendation is held between the lowest of the scale-up
 *   window and the highest of the scale-down window, then limited by the policies over the scale events of each
 *   policy's period (selectPolicy Max takes the policy allowing the biggest change, Min the smallest, Disabled none).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/podautoscaler/horizontal.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/autoscaling/v2/defaults.go
 * Times are simulated seconds; upstream's comparisons (a recommendation exactly at the cutoff) are kept.
 */
import type { HpaBehavior, HpaScalingRules } from '../../workloads/autoscalers';
import {
  DEFAULT_SCALE_DOWN,
  DEFAULT_SCALE_UP,
  DOWNSCALE_STABILIZATION_SECONDS,
} from '../../workloads/autoscalers';
import { maxOf, minOf } from '../../../../../protocol/collections';

/** A recommendation the controller made at a time. */
export interface TimedRecommendation {
  readonly time: number;
  readonly replicas: number;
}

/** A rescale the controller made at a time: `change` pods added (scale-up events) or removed (scale-down). */
export interface TimedScaleEvent {
  readonly time: number;
  readonly change: number;
}

/** What the controller remembers of one HPA between syncs. */
export interface HpaMemory {
  readonly recommendations: readonly TimedRecommendation[];
  readonly scaleUpEvents: readonly TimedScaleEvent[];
  readonly scaleDownEvents: readonly TimedScaleEvent[];
}

/** What the normalisation needs. */
export interface NormalizeInput {
  readonly now: number;
  readonly currentReplicas: number;
  /** The metrics' desired replicas before normalisation. */
  readonly desiredReplicas: number;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly behavior: HpaBehavior | null;
  readonly memory: HpaMemory;
}

/** The replicas to write, the condition reason that limited them, and the recommendation to remember. */
export interface NormalizeResult {
  readonly replicas: number;
  /** AbleToScale / ScalingLimited reason: ScaleUpLimit, TooManyReplicas, ScaleDownLimit, TooFewReplicas, … */
  readonly limitReason: string;
  readonly recommendation: TimedRecommendation;
}

/** Normalises the desired replicas as the controller does, with or without spec.behavior. */
export function normalizeDesiredReplicas(input: NormalizeInput): NormalizeResult {
  const recommendation = { time: input.now, replicas: input.desiredReplicas };
  if (input.behavior === null) {
    const stabilized = stabilizeLegacy(input);
    const [replicas, limitReason] = limitLegacy(input.currentReplicas, stabilized, input);
    return { replicas, limitReason, recommendation };
  }
  const stabilized = stabilizeWithBehavior(input, input.behavior);
  const [replicas, limitReason] = limitWithBehavior(
    { ...input, desiredReplicas: stabilized },
    input.behavior,
  );
  return { replicas, limitReason, recommendation };
}

/** stabilizeRecommendation: the highest recommendation not older than the downscale window. */
function stabilizeLegacy(input: NormalizeInput): number {
  const cutoff = input.now - DOWNSCALE_STABILIZATION_SECONDS;
  let highest = input.desiredReplicas;
  for (const past of input.memory.recommendations) {
    if (past.time >= cutoff) {
      highest = Math.max(highest, past.replicas);
    }
  }
  return highest;
}

/** convertDesiredReplicasWithRules: scale up at most to max(2 × current, 4); within min and max. */
function limitLegacy(current: number, desired: number, input: NormalizeInput): [number, string] {
  const scaleUpLimit = Math.max(2 * current, 4);
  const [maximum, reason] =
    input.maxReplicas > scaleUpLimit
      ? [scaleUpLimit, 'ScaleUpLimit']
      : [input.maxReplicas, 'TooManyReplicas'];
  if (desired < input.minReplicas) {
    return [input.minReplicas, 'TooFewReplicas'];
  }
  if (desired > maximum) {
    return [maximum, reason];
  }
  return [desired, 'DesiredWithinRange'];
}

/**
 * stabilizeRecommendationWithBehaviors: the lowest recommendation strictly inside the scale-up window and the
 * highest strictly inside the scale-down window (both including this one) bound the current replicas.
 */
function stabilizeWithBehavior(input: NormalizeInput, behavior: HpaBehavior): number {
  const upCutoff = input.now - behavior.scaleUp.stabilizationWindowSeconds;
  const downCutoff = input.now - behavior.scaleDown.stabilizationWindowSeconds;
  let up = input.desiredReplicas;
  let down = input.desiredReplicas;
  for (const past of input.memory.recommendations) {
    if (past.time > upCutoff) {
      up = Math.min(up, past.replicas);
    }
    if (past.time > downCutoff) {
      down = Math.max(down, past.replicas);
    }
  }
  return Math.min(Math.max(input.currentReplicas, up), down);
}

/** convertDesiredReplicasWithBehaviorRate: the policies' limit over recent scale events, then min and max. */
function limitWithBehavior(input: NormalizeInput, behavior: HpaBehavior): [number, string] {
  const { currentReplicas: current, desiredReplicas: desired } = input;
  if (desired > current) {
    const limit = Math.max(current, scaleUpLimit(input, behavior.scaleUp));
    const [maximum, reason] =
      input.maxReplicas > limit ? [limit, 'ScaleUpLimit'] : [input.maxReplicas, 'TooManyReplicas'];
    return desired > maximum ? [maximum, reason] : [desired, 'DesiredWithinRange'];
  }
  if (desired < current) {
    const limit = Math.min(current, scaleDownLimit(input, behavior.scaleDown));
    const [minimum, reason] =
      input.minReplicas < limit ? [limit, 'ScaleDownLimit'] : [input.minReplicas, 'TooFewReplicas'];
    return desired < minimum ? [minimum, reason] : [desired, 'DesiredWithinRange'];
  }
  return [desired, 'DesiredWithinRange'];
}

/** The replicas at the start of a policy's period: today's minus what was added, plus what was removed since. */
function periodStartReplicas(input: NormalizeInput, periodSeconds: number): number {
  const cutoff = input.now - periodSeconds;
  const sum = (events: readonly TimedScaleEvent[]): number =>
    events.filter((event) => event.time > cutoff).reduce((total, event) => total + event.change, 0);
  return input.currentReplicas - sum(input.memory.scaleUpEvents) + sum(input.memory.scaleDownEvents);
}

/** calculateScaleUpLimitWithScalingRules. */
export function scaleUpLimit(input: NormalizeInput, rules: HpaScalingRules): number {
  if (rules.selectPolicy === 'Disabled') {
    return input.currentReplicas;
  }
  const proposals = rules.policies.map((policy) => {
    const start = periodStartReplicas(input, policy.periodSeconds);
    return policy.type === 'Pods' ? start + policy.value : Math.ceil(start * (1 + policy.value / 100));
  });
  return rules.selectPolicy === 'Min' ? minOf(proposals) : maxOf(proposals);
}

/** calculateScaleDownLimitWithBehaviors (a Percent policy's proposal is truncated, as int32 conversion does). */
export function scaleDownLimit(input: NormalizeInput, rules: HpaScalingRules): number {
  if (rules.selectPolicy === 'Disabled') {
    return input.currentReplicas;
  }
  const proposals = rules.policies.map((policy) => {
    const start = periodStartReplicas(input, policy.periodSeconds);
    return policy.type === 'Pods' ? start - policy.value : Math.trunc(start * (1 - policy.value / 100));
  });
  return rules.selectPolicy === 'Min' ? maxOf(proposals) : minOf(proposals);
}

/** Keeps only the memory a future sync can still read (the longest window or policy period). */
export function pruneMemory(memory: HpaMemory, now: number, behavior: HpaBehavior | null): HpaMemory {
  const rules =
    behavior === null ? [DEFAULT_SCALE_UP, DEFAULT_SCALE_DOWN] : [behavior.scaleUp, behavior.scaleDown];
  const horizon = maxOf([
    DOWNSCALE_STABILIZATION_SECONDS,
    ...rules.map((rule) => rule.stabilizationWindowSeconds),
    ...rules.flatMap((rule) => rule.policies.map((policy) => policy.periodSeconds)),
  ]);
  const keep = <T extends { readonly time: number }>(items: readonly T[]): T[] =>
    items.filter((item) => item.time >= now - horizon);
  return {
    recommendations: keep(memory.recommendations),
    scaleUpEvents: keep(memory.scaleUpEvents),
    scaleDownEvents: keep(memory.scaleDownEvents),
  };
}
