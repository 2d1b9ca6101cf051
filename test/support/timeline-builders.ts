/**
 * Small builders for timeline tests: nodes, workloads and a run of the timeline over them.
 */
import type { TimelineEvent } from '../../protocol/timeline';
import type { SourcedObject } from '../../server/src/engine/model/load/cluster-load';
import type { TimelineResult } from '../../server/src/engine/scenario/run-timeline';
import { simulateTimeline } from '../../server/src/engine/scenario/run-timeline';
import type { Scenario, ScenarioAction } from '../../server/src/engine/scenario/scenario-spec';
import type { TimingSettings } from '../../server/src/engine/sim/timing-settings';

/** Objects as documents of one file. */
export function sourced(objects: readonly unknown[], file: string): SourcedObject[] {
  return objects.map((object, documentIndex) => ({ object, source: { file, documentIndex, path: [] } }));
}

/** `count` workers "worker-1"… with this allocatable. */
export function nodes(count: number, cpu = '4', memory = '16Gi'): unknown[] {
  return Array.from({ length: count }, (_, index) => {
    const name = `worker-${index + 1}`;
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name } },
      status: { allocatable: { cpu, memory, pods: '110' } },
    };
  });
}

/** A container requesting cpu and memory, optionally with a readiness probe. */
export function container(image: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'app', image, resources: { requests: { cpu: '100m', memory: '128Mi' } }, ...extra };
}

/** An apps/v1 workload selecting app=<name>. */
export function workload(
  kind: 'Deployment' | 'StatefulSet' | 'DaemonSet',
  name: string,
  image: string,
  spec: Record<string, unknown> = {},
  podSpec: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, namespace: 'default' },
    spec: {
      ...(kind === 'StatefulSet' ? { serviceName: name } : {}),
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [container(image)], ...podSpec } },
      ...spec,
    },
  };
}

/** What a test run takes. */
export interface RunInput {
  readonly cluster: readonly unknown[];
  readonly manifests?: readonly unknown[];
  readonly steps?: readonly { at: number; action: ScenarioAction }[];
  readonly until?: number;
  readonly timing?: Partial<TimingSettings>;
  readonly version?: '1.33' | '1.34' | '1.35';
}

/** Runs the timeline. */
export function run(input: RunInput): TimelineResult {
  const scenario: Scenario = {
    steps: (input.steps ?? []).map((step) => ({
      ...step,
      source: { file: 'test', documentIndex: 0, path: [] },
      path: [],
      origin: { from: 'flag' as const, source: `step at ${step.at}` },
    })),
    until: null,
    timing: {},
  };
  return simulateTimeline({
    cluster: sourced(input.cluster, 'cluster.yaml'),
    manifests: sourced(input.manifests ?? [], 'app.yaml'),
    version: input.version ?? '1.35',
    scenario,
    ...(input.until === undefined ? {} : { until: input.until }),
    ...(input.timing === undefined ? {} : { timing: input.timing }),
  });
}

/** The events of one type, optionally about objects whose name starts with `prefix`. */
export function eventsOf(result: TimelineResult, type: TimelineEvent['type'], prefix = ''): TimelineEvent[] {
  return result.events.filter((event) => event.type === type && event.object.name.startsWith(prefix));
}

/** An autoscaling/v2 HPA of Deployment web: 2 to 10 replicas at 50% cpu; `extra` adds to or replaces its spec. */
export function hpa(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
        },
      ],
      ...extra,
    },
  };
}

/** A scenario step giving Deployment web this cpu utilization (percent of its Ready pods' requests) from `at`. */
export function loadStep(at: number, cpuUtilization: number): { at: number; action: ScenarioAction } {
  return {
    at,
    action: { type: 'load', kind: 'Deployment', namespace: 'default', name: 'web', load: { cpuUtilization } },
  };
}
