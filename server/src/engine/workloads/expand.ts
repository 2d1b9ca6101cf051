/**
 * Expands workloads into the pods their controllers would create: the entry point of this folder.
 * Deployment → ReplicaSet → pods; ReplicaSet and ReplicationController → pods; StatefulSet → ordered pods;
 * DaemonSet → a pod per eligible node; Job → its first active pods; CronJob → the Job it would create → pods;
 * a bare Pod → itself. HorizontalPodAutoscalers in the input adjust the replicas of their targets. Lists
 * (`kind: List`, `PodList`…) are unwrapped if given. Other kinds are ignored.
 *
 * Pure and deterministic: the same input gives the same pods, names and findings, in input order.
 */
import type { ObjectSource } from '../model/source';
import { indexAutoscalers } from './autoscalers';
import type { ExpandContext, WorkloadExpander } from './context';
import { addPod, PodLimitReached } from './context';
import { expandDaemonSet } from './daemon-set';
import { expandCronJob, expandJob } from './job';
import type { JsonObject } from '../model/json';
import { asArray, asObject, cloneJson, isJsonObject, readString } from '../model/json';
import { NameAllocator } from './names';
import { expandDeployment, expandReplicaSet } from './replica-set';
import { expandStatefulSet } from './stateful-set';
import type { ExpandOptions, ExpansionResult, WorkloadInput } from './types';
import { MAX_EXPANDED_PODS } from './types';
import { DEFAULT_NAMESPACE, readWorkload } from './workload';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';
import { appendAll } from '../../../../protocol/collections';

const EXPANDERS: Readonly<Record<string, WorkloadExpander>> = {
  Deployment: expandDeployment,
  ReplicaSet: expandReplicaSet,
  ReplicationController: expandReplicaSet,
  StatefulSet: expandStatefulSet,
  DaemonSet: expandDaemonSet,
  Job: expandJob,
  CronJob: expandCronJob,
};

/** The kinds that become pods. */
export const EXPANDED_KINDS: readonly string[] = ['Pod', ...Object.keys(EXPANDERS)];

interface FlatObject {
  readonly object: JsonObject;
  readonly source: ObjectSource;
}

/** Expands workloads into pods. Never throws: malformed input becomes findings. */
export function expandWorkloads(
  inputs: readonly WorkloadInput[],
  options: ExpandOptions = {},
): ExpansionResult {
  const objects = flatten(inputs);
  const findings: Finding[] = [];
  const context: ExpandContext = {
    names: new NameAllocator(),
    autoscalers: indexAutoscalers(objects.map((entry) => entry.object)),
    nodes: options.nodes ?? [],
    pods: [],
    maxPods: options.maxPods ?? MAX_EXPANDED_PODS,
  };
  for (const { object } of objects) {
    if (object['kind'] === 'Pod') {
      const metadata = asObject(object['metadata']);
      const name = readString(metadata['name']);
      if (name !== undefined) {
        context.names.reserve(readString(metadata['namespace']) ?? DEFAULT_NAMESPACE, name);
      }
    }
  }
  for (const { object, source } of objects) {
    const kind = readString(object['kind']);
    try {
      if (kind === 'Pod') {
        expandBarePod(object, source, context);
        continue;
      }
      const expander = kind === undefined ? undefined : EXPANDERS[kind];
      if (expander === undefined) {
        continue;
      }
      const workload = readWorkload(object, source, findings);
      if (workload !== null) {
        expander(workload, context);
        appendAll(findings, workload.findings);
      }
    } catch (error: unknown) {
      if (!(error instanceof PodLimitReached)) {
        throw error;
      }
      const name = readString(asObject(object['metadata'])['name']);
      const what = `${kind ?? 'object'}${name === undefined ? '' : ` "${name}"`}`;
      findings.push(
        engineFinding(
          'workload-too-many-pods',
          source,
          kind === 'Pod' ? [] : ['spec'],
          `The manifests ask for more than ${error.maxPods.toLocaleString('en-US')} pods (reached at ${what}), more than one simulation creates; nothing was simulated.`,
        ),
      );
      return { pods: [], findings, limitReached: true };
    }
  }
  return { pods: context.pods, findings };
}

/** A bare Pod is created as written, in the default namespace when it names none. */
function expandBarePod(object: JsonObject, source: ObjectSource, context: ExpandContext): void {
  const pod = cloneJson(object);
  const metadata = asObject(pod['metadata']);
  const namespace = readString(metadata['namespace']) ?? DEFAULT_NAMESPACE;
  metadata['namespace'] = namespace;
  const generateName = readString(metadata['generateName']);
  if (readString(metadata['name']) === undefined && generateName !== undefined) {
    metadata['name'] = context.names.generate(
      namespace,
      generateName,
      `Pod/${source.file}/${source.documentIndex}`,
    );
  }
  pod['metadata'] = metadata;
  addPod(context, { pod, owner: null, source, replicaIndex: 0 });
}

/** Unwraps `kind: List` and typed lists (items inherit apiVersion and kind from a typed list). */
function flatten(inputs: readonly WorkloadInput[]): FlatObject[] {
  const flat: FlatObject[] = [];
  for (const input of inputs) {
    if (!isJsonObject(input.object)) {
      continue;
    }
    const kind = readString(input.object['kind']) ?? '';
    const isList = kind === 'List' || (kind.length > 4 && kind.endsWith('List'));
    if (!isList || !Array.isArray(input.object['items'])) {
      flat.push({ object: input.object, source: input.source });
      continue;
    }
    const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
    for (const [index, item] of asArray(input.object['items']).entries()) {
      if (!isJsonObject(item)) {
        continue;
      }
      const object =
        itemKind !== undefined && item['kind'] === undefined ? { ...item, kind: itemKind } : item;
      flat.push({ object, source: { ...input.source, path: [...input.source.path, 'items', index] } });
    }
  }
  return flat;
}
