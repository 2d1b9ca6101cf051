/**
 * The report's account of load and pressure over the timeline, read from its events: `horizontalPodAutoscalers` (each HPA's
 * SuccessfulRescale and FailedGetResourceMetric events, in the controller's words) and `kubeletEvictions` (pods
 * the kubelet's eviction manager evicted under node pressure, with its message), and their text.
 */
import type { TimelineEvent } from '../../../../../protocol/timeline';

/** One decision of an HPA. */
interface ReportHorizontalPodAutoscalerEvent {
  readonly time: number;
  readonly reason: 'SuccessfulRescale' | 'FailedGetResourceMetric';
  readonly message: string;
  /** The scale target's replicas before and after (SuccessfulRescale), else null. */
  readonly from: number | null;
  readonly to: number | null;
}

/** An HPA that acted (or could not) over the timeline. */
export interface ReportHorizontalPodAutoscaler {
  readonly namespace: string;
  readonly name: string;
  /** "Kind/name" of its scale target, when a rescale named it. */
  readonly target: string | null;
  readonly events: readonly ReportHorizontalPodAutoscalerEvent[];
}

/** A pod the kubelet evicted under node pressure. */
export interface ReportKubeletEviction {
  readonly time: number;
  readonly node: string;
  /** "namespace/name". */
  readonly pod: string;
  readonly message: string;
}

/** The HPAs' events, grouped by HPA in order of their first event. */
export function reportHorizontalPodAutoscalers(
  events: readonly TimelineEvent[],
): ReportHorizontalPodAutoscaler[] {
  const byKey = new Map<
    string,
    { namespace: string; name: string; target: string | null; events: ReportHorizontalPodAutoscalerEvent[] }
  >();
  for (const event of events) {
    if (event.type !== 'SuccessfulRescale' && event.type !== 'FailedGetResourceMetric') {
      continue;
    }
    const namespace = event.object.namespace ?? 'default';
    const key = `${namespace}/${event.object.name}`;
    const entry = byKey.get(key) ?? { namespace, name: event.object.name, target: null, events: [] };
    byKey.set(key, entry);
    const rescale = event.details?.rescale;
    entry.target ??= rescale?.target ?? null;
    entry.events.push({
      time: event.time,
      reason: event.type,
      message: event.message,
      from: rescale?.from ?? null,
      to: rescale?.to ?? null,
    });
  }
  return [...byKey.values()];
}

/** The pods the kubelet evicted (PodEvicted with reason Evicted), in time order. */
export function reportKubeletEvictions(events: readonly TimelineEvent[]): ReportKubeletEviction[] {
  return events
    .filter((event) => event.type === 'PodEvicted' && event.details?.reason === 'Evicted')
    .map((event) => ({
      time: event.time,
      node: event.node ?? '',
      pod: `${event.object.namespace ?? 'default'}/${event.object.name}`,
      message: event.message.trimEnd(),
    }));
}

/** The two sections as text (nothing when nothing happened). */
export function formatPressure(
  horizontalPodAutoscalers: readonly ReportHorizontalPodAutoscaler[],
  evictions: readonly ReportKubeletEviction[],
): string[] {
  const lines: string[] = [];
  if (horizontalPodAutoscalers.length > 0) {
    lines.push('', 'Horizontal pod autoscalers');
    for (const autoscaler of horizontalPodAutoscalers) {
      const target = autoscaler.target === null ? '' : ` → ${autoscaler.target}`;
      lines.push(`  HorizontalPodAutoscaler ${autoscaler.namespace}/${autoscaler.name}${target}`);
      for (const event of autoscaler.events) {
        lines.push(`    ${String(event.time).padStart(5)}s ${event.reason}: ${event.message}`);
      }
    }
  }
  if (evictions.length > 0) {
    lines.push('', 'Evicted by the kubelet (node pressure)');
    for (const eviction of evictions) {
      lines.push(
        `  ${String(eviction.time).padStart(5)}s ${eviction.pod} on ${eviction.node}: ${eviction.message}`,
      );
    }
  }
  return lines;
}
