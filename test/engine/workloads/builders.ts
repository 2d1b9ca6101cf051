/**
 * Small builders of workload manifests and nodes for the workload tests.
 */
import type { ObjectSource } from '../../../server/src/engine/model/source';
import type { WorkloadInput } from '../../../server/src/engine/workloads';

/** A source in file `file`, document `index`. */
export function sourceOf(file = 'app.yaml', index = 0): ObjectSource {
  return { file, documentIndex: index, path: [] };
}

/** Wraps objects as inputs, one document each. */
export function inputs(...objects: unknown[]): WorkloadInput[] {
  return objects.map((object, index) => ({ object, source: sourceOf('app.yaml', index) }));
}

/** A pod template with labels and one container. */
export function podTemplate(
  labels: Record<string, string>,
  spec: Record<string, unknown> = {},
): Record<string, unknown> {
  return { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec } };
}

/** An apps/v1 workload (Deployment, ReplicaSet, StatefulSet, DaemonSet) selecting app=<name>. */
export function appsWorkload(
  kind: string,
  name: string,
  spec: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, ...metadata },
    spec: { selector: { matchLabels: { app: name } }, template: podTemplate({ app: name }), ...spec },
  };
}

/** A batch/v1 Job whose pods never restart in place. */
export function job(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { template: podTemplate({ app: name }, { restartPolicy: 'Never' }), ...spec },
  };
}

/** A node with labels and taints. */
export function node(
  name: string,
  labels: Record<string, string> = {},
  taints: readonly Record<string, unknown>[] = [],
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    spec: { taints },
    status: { allocatable: { cpu: '4', memory: '16Gi', pods: '110' } },
  };
}

/** Reads metadata of an expanded pod. */
export function metadataOf(pod: Record<string, unknown>): {
  name: string;
  generateName?: string;
  namespace: string;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences: { apiVersion: string; kind: string; name: string; uid: string; controller: boolean }[];
  finalizers?: string[];
} {
  return pod['metadata'] as ReturnType<typeof metadataOf>;
}

/** Reads the spec of an expanded pod. */
export function specOf(pod: Record<string, unknown>): Record<string, unknown> {
  return pod['spec'] as Record<string, unknown>;
}
