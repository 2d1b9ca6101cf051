/**
 * Loads a cluster from Kubernetes objects: Nodes, the Pods already bound to them (spec.nodeName), PriorityClasses,
 * Namespaces (their labels), KubeSchedulerConfigurations (handed on, parsed elsewhere), and the Services,
 * workloads and PodDisruptionBudgets scheduler plugins list (cluster-objects.ts). `kubectl get nodes -o
 * yaml` and `kubectl get nodes,pods -A -o yaml` (kind: List) load as they are. Never throws: problems are findings
 * naming the object and the field, and unusable objects are left out.
 *
 * As the scheduler's informers do, pods that finished (status.phase Succeeded or Failed) take no room. Pods of a
 * cluster file that are not bound to a node are left out (they are not the pods being predicted).
 */
import { Cluster } from '../snapshot/cluster';
import type { PriorityClassInfo } from '../snapshot/cluster';
import { CAPTURE_KIND, isCovered, readCaptureHeader } from './capture-header';
import type { CaptureHeader } from './capture-header';
import { PROFILE_KIND } from './profiles/cluster-profile';
import { ClusterObjects } from '../snapshot/cluster-objects';
import { engineFinding } from '../findings';
import { loadNode } from './node-load';
import type { NodeInfo } from '../snapshot/node-info';
import { isRecord } from '../objects';
import { describePod, loadPod } from './pod-load';
import { podEntries } from './pod-entries';
import type { OnBound, PodLoadMemo } from './pod-load-memo';
import { addPriorityClass, systemPriorityClasses } from './priority';
import type { ObjectSource } from '../source';
import type { KubernetesMinor } from '../../version';
import type { Finding } from '../../../../../protocol/finding';
import { appendAll } from '../../../../../protocol/collections';

/** An object read from a file, with where it was written. */
export interface SourcedObject {
  readonly object: unknown;
  readonly source: ObjectSource;
}

/** A loaded cluster. */
interface LoadedCluster {
  readonly cluster: Cluster;
  readonly findings: readonly Finding[];
  /** KubeSchedulerConfiguration objects found, for the scheduler configuration parser. */
  readonly schedulerConfigurations: readonly SourcedObject[];
  /** Pods of the cluster file that finished (Succeeded or Failed): on no node, but their controllers see them. */
  readonly finishedPods: readonly SourcedObject[];
  /** The capture header of the cluster file (capture-header.ts), or null. */
  readonly captureHeader: CaptureHeader | null;
}

/** Options of loadCluster. */
interface ClusterLoadOptions {
  readonly version: KubernetesMinor;
  /** Where the cluster came from, for reports: "embedded default cluster", file names. */
  readonly description: string;
  /** Extra PriorityClasses and Namespaces (e.g. from the manifests being simulated). */
  readonly extraObjects?: readonly SourcedObject[];
  /** Shares the cluster file's pod loads with another load of the same simulation (pod-load-memo.ts). */
  readonly podMemo?: PodLoadMemo;
  /**
   * Whether the caller never changes the cluster's PodInfos (no run sees it): the memo may then hand over the
   * PodInfos it recorded instead of copies.
   */
  readonly isReadOnly?: boolean;
}

/** Lists already expanded, by the array given (and each result by itself): see flattenLists. */
const FLATTENED = new WeakMap<readonly SourcedObject[], readonly SourcedObject[]>();

/**
 * Expands `kind: List` and typed lists (`NodeList`) into their items (paths ['items', i]); items of a typed list
 * without a kind take the list's item kind. Other objects are kept as they are.
 *
 * The result is frozen and kept for the array given: one simulation expands the same cluster file in simulate(),
 * the timeline and the loaders, and for a capture of 150,000 pods each expansion cost 0.4-0.9 s (a wrapper and a
 * path per item, all kept). The inputs are read-only to the engine, so the same array has the same items.
 */
export function flattenLists(inputs: readonly SourcedObject[]): readonly SourcedObject[] {
  const known = FLATTENED.get(inputs);
  if (known !== undefined) {
    return known;
  }
  const result: SourcedObject[] = [];
  const visit = (object: unknown, source: ObjectSource): void => {
    if (isList(object)) {
      const kind = object['kind'];
      const items = object['items'];
      const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
      items.forEach((item, index) => {
        const typed =
          itemKind !== undefined && isRecord(item) && item['kind'] === undefined
            ? { ...item, kind: itemKind }
            : item;
        // concat, not a spread: a spread's array keeps room to grow, 120 bytes more per item (150,000 pods'
        // sources live as long as the simulation).
        visit(typed, { ...source, path: source.path.concat(['items', index]) });
      });
      return;
    }
    result.push({ object, source });
  };
  for (const input of inputs) {
    if (isList(input.object)) {
      visit(input.object, input.source);
    } else {
      // The entry itself, not a copy: a capture passed as 150,000 entries made as many wrappers per call.
      result.push(input);
    }
  }
  const flat = Object.freeze(result);
  FLATTENED.set(inputs, flat);
  FLATTENED.set(flat, flat);
  return flat;
}

/** Whether an object is a list flattenLists expands: `kind: List` or a typed list, with an items array. */
function isList(object: unknown): object is Record<string, unknown> & { kind: string; items: unknown[] } {
  if (!isRecord(object)) {
    return false;
  }
  const kind = object['kind'];
  return typeof kind === 'string' && kind.endsWith('List') && Array.isArray(object['items']);
}

/**
 * Kinds of a cluster file that other parts of the simulation read: admission (ServiceAccounts, LimitRanges,
 * ResourceQuotas), the kubelet (ConfigMaps, Secrets), the controllers (workloads, budgets, autoscalers,
 * ControllerRevisions) and the scenario.
 */
const READ_ELSEWHERE: ReadonlySet<string> = new Set([
  'ServiceAccount',
  'LimitRange',
  'ResourceQuota',
  'ConfigMap',
  'Secret',
  'DaemonSet',
  'HorizontalPodAutoscaler',
  'ControllerRevision',
  'Scenario',
  'NodeGroup',
  CAPTURE_KIND,
  PROFILE_KIND,
]);

/** Loads the cluster objects. */
export function loadCluster(inputs: readonly SourcedObject[], options: ClusterLoadOptions): LoadedCluster {
  const findings: Finding[] = [];
  const nodes: NodeInfo[] = [];
  const nodeNames = new Set<string>();
  const { pods, finishedPods, others } = podEntries(flattenLists(inputs));
  const priorityClasses: Map<string, PriorityClassInfo> = systemPriorityClasses();
  const namespaceLabels = new Map<string, Readonly<Record<string, string>>>();
  const schedulerConfigurations: SourcedObject[] = [];
  const headers: SourcedObject[] = [];
  const objects = new ClusterObjects();
  /** Kinds of the cluster file the simulation does not read: counted, for one note. */
  const unused = new Map<string, { count: number; source: ObjectSource }>();

  const classify = (entry: SourcedObject, isClusterFile: boolean): void => {
    const { object, source } = entry;
    if (!isRecord(object) || typeof object['kind'] !== 'string') {
      if (isClusterFile && object !== null && object !== undefined) {
        const message = 'not a Kubernetes object: it has no kind';
        findings.push(engineFinding('not-an-object', source, ['kind'], message));
      }
      return;
    }
    const kind = object['kind'];
    switch (kind) {
      case 'Node':
        if (isClusterFile) {
          addNode(object, source);
        }
        return;
      case 'Pod':
        return; // the cluster file's: podEntries
      case 'PriorityClass':
        addPriorityClass(object, source, priorityClasses, findings);
        return;
      case 'Namespace':
        addNamespace(object, namespaceLabels);
        return;
      case 'KubeSchedulerConfiguration':
        if (isClusterFile) {
          schedulerConfigurations.push(entry);
        }
        return;
      case CAPTURE_KIND:
        if (isClusterFile) {
          headers.push(entry);
        }
        return;
      default:
        // Services, workloads and PodDisruptionBudgets, of either origin, are what plugins list.
        if (objects.add(kind, object, source, isClusterFile)) {
          return;
        }
        if (isClusterFile && !READ_ELSEWHERE.has(kind)) {
          const entry = unused.get(kind);
          unused.set(kind, { count: (entry?.count ?? 0) + 1, source: entry?.source ?? source });
        }
    }
  };

  const addNode = (object: Record<string, unknown>, source: ObjectSource): void => {
    const node = loadNode(object, source, findings);
    if (node === null) {
      return;
    }
    if (nodeNames.has(node.name)) {
      const message = `Node "${node.name}" is defined more than once; the first definition is used`;
      findings.push(engineFinding('duplicate-object', source, ['metadata', 'name'], message));
      return;
    }
    nodeNames.add(node.name);
    nodes.push(node);
  };

  for (const entry of others) {
    classify(entry, true);
  }
  for (const entry of flattenLists(options.extraObjects ?? [])) {
    classify(entry, false);
  }
  const first = [...unused.values()][0];
  if (first !== undefined) {
    const kinds = [...unused].map(([kind, { count }]) => `${count} ${kind}`).join(', ');
    const message = `not used by the simulation, in the cluster file: ${kinds}`;
    findings.push(engineFinding('ignored-object', first.source, [], message));
  }
  if (nodes.length === 0) {
    const source = inputs[0]?.source ?? { file: options.description, documentIndex: 0, path: [] };
    const message =
      'the cluster has no usable Node: every pod would stay Pending ("no nodes available to schedule pods")';
    findings.push(engineFinding('cluster-no-nodes', source, [], message));
  }
  const { header: captureHeader, findings: headerFindings } = readCaptureHeader(headers);
  appendAll(findings, headerFindings);
  // A capture that lists every claim and volume says which exist in every namespace, even one without any.
  objects.storage.claimsCovered = isCovered(captureHeader, 'persistentvolumeclaims');
  objects.storage.volumesListed ||= isCovered(captureHeader, 'persistentvolumes');
  const cluster = new Cluster(nodes, priorityClasses, namespaceLabels, options.description, objects);
  const { podMemo } = options;
  if (podMemo === undefined) {
    bindPods(cluster, pods, options.version, findings, undefined);
  } else {
    podMemo.bind(
      cluster,
      pods,
      options.version,
      findings,
      (onBound) => bindPods(cluster, pods, options.version, findings, onBound),
      options.isReadOnly === true,
    );
  }
  return { cluster, findings, schedulerConfigurations, finishedPods, captureHeader };
}

/** Adds the cluster file's running pods to their nodes; `onBound` hears of each pod added. */
function bindPods(
  cluster: Cluster,
  pods: readonly SourcedObject[],
  version: KubernetesMinor,
  findings: Finding[],
  onBound: OnBound | undefined,
): void {
  const keys = new Set<string>();
  const context = { version, priorityClasses: cluster.priorityClasses, findings };
  for (const { object, source } of pods) {
    const pod = object as Record<string, unknown>;
    const status = isRecord(pod['status']) ? pod['status'] : {};
    if (status['phase'] === 'Succeeded' || status['phase'] === 'Failed') {
      continue;
    }
    const spec = isRecord(pod['spec']) ? pod['spec'] : {};
    const nodeName = spec['nodeName'];
    if (typeof nodeName !== 'string' || nodeName === '') {
      const message = `${describePod(pod)} is not bound to a node (Pending in the cluster); it is left out`;
      findings.push(engineFinding('ignored-object', source, ['spec', 'nodeName'], message));
      continue;
    }
    const node = cluster.getNode(nodeName);
    if (node === undefined) {
      const message = `${describePod(pod)}: spec.nodeName "${nodeName}" names a node the cluster does not have`;
      findings.push(engineFinding('pod-bound-to-missing-node', source, ['spec', 'nodeName'], message));
      continue;
    }
    const info = loadPod(pod, source, null, context, false);
    if (info === null) {
      continue;
    }
    if (keys.has(info.key)) {
      const message = `${describePod(pod)} is defined more than once; the first definition is used`;
      findings.push(engineFinding('duplicate-object', source, ['metadata', 'name'], message));
      continue;
    }
    keys.add(info.key);
    node.addPod(info);
    onBound?.(node.order, info);
  }
}

function addNamespace(
  object: Record<string, unknown>,
  labels: Map<string, Readonly<Record<string, string>>>,
): void {
  const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
  const name = metadata['name'];
  const namespaceLabels = metadata['labels'];
  if (typeof name === 'string' && name !== '' && !labels.has(name)) {
    const clean: Record<string, string> = { 'kubernetes.io/metadata.name': name };
    if (isRecord(namespaceLabels)) {
      for (const [key, value] of Object.entries(namespaceLabels)) {
        if (typeof value === 'string') {
          clean[key] = value;
        }
      }
    }
    labels.set(name, clean);
  }
}
