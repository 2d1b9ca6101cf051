/**
 * Builders for cluster autoscaler tests: a NodeGroup document, a Deployment with cpu requests, a run.
 */
import { nodes, run, workload } from '../../support/timeline-builders';
import type { TimelineResult } from '../../../server/src/engine/scenario/run-timeline';

/** A NodeGroup document whose template has this cpu (and 16Gi, 110 pods). */
export function nodeGroup(
  name: string,
  spec: {
    minSize?: number;
    maxSize: number;
    cpu?: string;
    labels?: Record<string, string>;
    taints?: unknown[];
    provisioningSeconds?: number;
    selector?: unknown;
  },
): Record<string, unknown> {
  return {
    apiVersion: 'foresight/v1',
    kind: 'NodeGroup',
    metadata: { name },
    spec: {
      minSize: spec.minSize ?? 0,
      maxSize: spec.maxSize,
      ...(spec.provisioningSeconds === undefined ? {} : { provisioningSeconds: spec.provisioningSeconds }),
      ...(spec.selector === undefined ? {} : { selector: spec.selector }),
      template: {
        metadata: { labels: spec.labels ?? {} },
        spec: { taints: spec.taints ?? [] },
        status: { allocatable: { cpu: spec.cpu ?? '2', memory: '16Gi', pods: '110' } },
      },
    },
  };
}

/** A Deployment of `replicas` pods requesting `cpu` each, with an optional pod spec addition. */
export function cpuDeployment(
  name: string,
  replicas: number,
  cpu: string,
  podSpec: Record<string, unknown> = {},
): Record<string, unknown> {
  return workload(
    'Deployment',
    name,
    'nginx:1.27',
    { replicas },
    {
      containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu, memory: '128Mi' } } }],
      ...podSpec,
    },
  );
}

/** A Scenario document with autoscaler settings. */
export function autoscalerScenario(
  settings: Record<string, unknown>,
  until?: number,
): Record<string, unknown> {
  return {
    apiVersion: 'foresight/v1',
    kind: 'Scenario',
    spec: { ...(until === undefined ? {} : { until }), autoscaler: settings },
  };
}

/** Runs the timeline on `workers` nodes labelled into group "workers" plus the extra cluster objects. */
export function runAutoscaled(input: {
  workers: number;
  cpu?: string;
  cluster: readonly unknown[];
  manifests: readonly unknown[];
  until?: number;
}): TimelineResult {
  const captured = nodes(input.workers, input.cpu ?? '2').map((node) => {
    const object = node as { metadata: { labels: Record<string, string> } };
    return {
      ...object,
      metadata: { ...object.metadata, labels: { ...object.metadata.labels, pool: 'workers' } },
    };
  });
  return run({
    cluster: [...captured, ...input.cluster],
    manifests: input.manifests,
    ...(input.until === undefined ? {} : { until: input.until }),
  });
}
