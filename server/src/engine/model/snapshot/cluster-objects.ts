/**
 * The cluster objects kube-scheduler's plugins read through informer listers besides nodes and pods: Services,
 * ReplicaSets, StatefulSets and ReplicationControllers (PodTopologySpread derives the default spreading selector
 * of a pod from those that select it) and PodDisruptionBudgets (DefaultPreemption weighs their violations).
 * They come from the cluster file (`kubectl get … -o yaml`) and from the manifests being simulated.
 *
 * A Deployment in the manifests has no ReplicaSet object yet: its pods name the ReplicaSet
 * "<deployment>-<pod-template-hash>" the controller would create, whose selector is the Deployment's plus
 * pod-template-hash (deployment controller: CloneSelectorAndAddLabel). A lookup of such a ReplicaSet is answered
 * from the Deployment. https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/deployment/sync.go
 */
import { clearIfAny } from '../clear-if-any';
import { addRequirements, compileOrNothing, equals, LazySelector, NOTHING_SELECTOR } from '../label-selector';
import type { Labels, PodLabelSelector } from '../label-selector';
import { isRecord } from '../objects';
import type { LabelSelectorObject } from '../objects';
import type { ObjectSource } from '../source';
import { StorageObjects } from './storage-objects';
import { asIntOrString } from '../int-or-percent';
import type { IntOrString } from '../int-or-percent';
import { appendAll } from '../../../../../protocol/collections';

/** The label a Deployment adds to its ReplicaSets' selector and pods. */
const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** A PodDisruptionBudget, reduced to what preemption and eviction read. */
export interface PodDisruptionBudgetInfo {
  readonly namespace: string;
  readonly name: string;
  readonly source: ObjectSource;
  /** The compiled spec.selector; a nil, empty or malformed selector matches nothing here (preemption's rule). */
  readonly selector: PodLabelSelector;
  /** spec.minAvailable and spec.maxUnavailable as written: a count or a percentage ("50%"). */
  readonly minAvailable: IntOrString | null;
  readonly maxUnavailable: IntOrString | null;
  /** status.disruptionsAllowed when the object carries a status (exported from a cluster), else null. */
  readonly statusDisruptionsAllowed: number | null;
  /** Names in status.disruptedPods: evictions the API server already granted. */
  readonly disruptedPods: ReadonlySet<string>;
}

interface Named<T> {
  readonly name: string;
  readonly value: T;
}

/** The listers' contents, by kind and namespace. */
export class ClusterObjects {
  /** PodDisruptionBudgets in input order. */
  readonly podDisruptionBudgets: PodDisruptionBudgetInfo[] = [];
  /** Claims, volumes, classes and CSINodes (the volume plugins' listers; bindings change them over time). */
  readonly storage = new StorageObjects();
  private readonly services = new Map<string, Labels[]>();
  /** serviceSelectorCandidates' index of each namespace's selectors, by first label pair; dropped on add. */
  private readonly serviceIndexes = new Map<
    string,
    { empty: number[]; byFirstPair: Map<string, number[]> }
  >();
  // Workload selectors are compiled when first read (LazySelector): most never are.
  private readonly replicaSets = new Map<string, LazySelector>();
  private readonly statefulSets = new Map<string, LazySelector>();
  private readonly controllers = new Map<string, Labels>();
  private readonly deployments = new Map<string, Named<LazySelector>[]>();
  /** replicaSetSelector's answers for ReplicaSets a Deployment would create, until the next add. */
  private readonly derivedReplicaSets = new Map<string, PodLabelSelector | undefined>();
  /** Answers computed from these objects (a pod's default spread selector), by key, until the next add. */
  private readonly derived = new Map<string, unknown>();
  private changes = 0;

  /** Bumped whenever derived answers are dropped (an object added): an answer kept elsewhere is stale after. */
  get generation(): number {
    return this.changes;
  }

  /**
   * An answer that depends only on `key` and on these objects: computed once, then kept until an object is
   * added. PodTopologySpread's default selector scans every Service of the namespace; pods of one template ask
   * the same question in every scheduling cycle.
   */
  derivedOnce<T>(key: string, compute: () => T): T {
    if (this.derived.has(key)) {
      return this.derived.get(key) as T;
    }
    const value = compute();
    this.derived.set(key, value);
    return value;
  }

  /** Keeps an object of a kind read here; returns false for other kinds. */
  add(kind: string, object: Record<string, unknown>, source: ObjectSource, fromCluster = false): boolean {
    if (this.storage.add(kind, object, source, fromCluster)) {
      return true;
    }
    clearIfAny(this.derivedReplicaSets);
    clearIfAny(this.derived);
    this.changes++;
    const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
    const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
    const namespace =
      typeof metadata['namespace'] === 'string' && metadata['namespace'] !== ''
        ? metadata['namespace']
        : 'default';
    const spec = isRecord(object['spec']) ? object['spec'] : {};
    const key = `${namespace}/${name}`;
    switch (kind) {
      case 'Service': {
        this.serviceIndexes.delete(namespace);
        const selector = spec['selector'];
        // Services with a nil selector match nothing, not everything (GetPodServices).
        if (isRecord(selector)) {
          pushTo(this.services, namespace, stringMap(selector));
        }
        return true;
      }
      case 'ReplicaSet':
        setOnce(this.replicaSets, key, new LazySelector(spec['selector'] as LabelSelectorObject));
        return true;
      case 'StatefulSet':
        setOnce(this.statefulSets, key, new LazySelector(spec['selector'] as LabelSelectorObject));
        return true;
      case 'ReplicationController': {
        // The API server defaults an empty selector to the template's labels.
        let selector = isRecord(spec['selector']) ? stringMap(spec['selector']) : {};
        if (Object.keys(selector).length === 0) {
          const template = isRecord(spec['template']) ? spec['template'] : {};
          const templateMeta = isRecord(template['metadata']) ? template['metadata'] : {};
          selector = isRecord(templateMeta['labels']) ? stringMap(templateMeta['labels']) : {};
        }
        setOnce(this.controllers, key, selector);
        return true;
      }
      case 'Deployment':
        pushTo(this.deployments, namespace, {
          name,
          value: new LazySelector(spec['selector'] as LabelSelectorObject),
        });
        return true;
      case 'PodDisruptionBudget':
        this.podDisruptionBudgets.push(readDisruptionBudget(object, spec, namespace, name, source));
        return true;
      default:
        return false;
    }
  }

  /** The selectors (label maps) of the Services of a namespace that have one. */
  serviceSelectors(namespace: string): readonly Labels[] {
    return this.services.get(namespace) ?? [];
  }

  /**
   * The Service selectors of a namespace that could select `labels`, in serviceSelectors' order: a selector
   * whose first label the pod has with the same value, or an empty one. A selector matches only labels that
   * have each of its pairs, so no other can; callers still test each one. With a Service per workload,
   * testing every Service for every pod costs workloads² per simulation.
   */
  serviceSelectorCandidates(namespace: string, labels: Labels): readonly Labels[] {
    const selectors = this.services.get(namespace) ?? [];
    let index = this.serviceIndexes.get(namespace);
    if (index === undefined) {
      index = { empty: [], byFirstPair: new Map() };
      for (const [position, selector] of selectors.entries()) {
        const first = Object.keys(selector)[0];
        if (first === undefined) {
          index.empty.push(position);
        } else {
          pushTo(index.byFirstPair, `${first}\u0000${selector[first] ?? ''}`, position);
        }
      }
      this.serviceIndexes.set(namespace, index);
    }
    const positions = [...index.empty];
    for (const [key, value] of Object.entries(labels)) {
      appendAll(positions, index.byFirstPair.get(`${key}\u0000${value}`) ?? []);
    }
    const candidates: Labels[] = [];
    for (const position of positions.sort((a, b) => a - b)) {
      const selector = selectors[position];
      if (selector !== undefined) {
        candidates.push(selector);
      }
    }
    return candidates;
  }

  /**
   * The selector of a ReplicaSet: a ReplicaSet object, or the one a Deployment of the namespace would create
   * under that name (the pod's pod-template-hash label completes the name and the selector).
   */
  replicaSetSelector(namespace: string, name: string, podLabels: Labels): PodLabelSelector | undefined {
    const explicit = this.replicaSets.get(`${namespace}/${name}`);
    if (explicit !== undefined) {
      return explicit.value;
    }
    const hash = podLabels[POD_TEMPLATE_HASH_LABEL];
    if (hash === undefined) {
      return undefined;
    }
    const key = `${namespace}/${name}\u0000${hash}`;
    if (this.derivedReplicaSets.has(key)) {
      return this.derivedReplicaSets.get(key);
    }
    const derived = this.deriveReplicaSetSelector(namespace, name, hash);
    this.derivedReplicaSets.set(key, derived);
    return derived;
  }

  /** The selector of the ReplicaSet `name` = "<deployment>-<hash>" of the first Deployment of that name. */
  private deriveReplicaSetSelector(
    namespace: string,
    name: string,
    hash: string,
  ): PodLabelSelector | undefined {
    const suffix = `-${hash}`;
    if (!name.endsWith(suffix)) {
      return undefined;
    }
    const deploymentName = name.slice(0, name.length - suffix.length);
    const deployment = this.deployments.get(namespace)?.find((entry) => entry.name === deploymentName);
    if (deployment === undefined || deployment.value.value.isNothing) {
      return deployment === undefined ? undefined : NOTHING_SELECTOR;
    }
    return addRequirements(deployment.value.value, [equals(POD_TEMPLATE_HASH_LABEL, hash)]);
  }

  /** The selector of a StatefulSet, if known. */
  statefulSetSelector(namespace: string, name: string): PodLabelSelector | undefined {
    return this.statefulSets.get(`${namespace}/${name}`)?.value;
  }

  /** The selector (a label map) of a ReplicationController, if known. */
  replicationControllerSelector(namespace: string, name: string): Labels | undefined {
    return this.controllers.get(`${namespace}/${name}`);
  }
}

function readDisruptionBudget(
  object: Record<string, unknown>,
  spec: Record<string, unknown>,
  namespace: string,
  name: string,
  source: ObjectSource,
): PodDisruptionBudgetInfo {
  const status = isRecord(object['status']) ? object['status'] : {};
  const allowed = status['disruptionsAllowed'];
  const disrupted = isRecord(status['disruptedPods']) ? Object.keys(status['disruptedPods']) : [];
  return {
    namespace,
    name,
    source,
    selector: compileOrNothing(spec['selector'] as LabelSelectorObject),
    minAvailable: asIntOrString(spec['minAvailable']),
    maxUnavailable: asIntOrString(spec['maxUnavailable']),
    statusDisruptionsAllowed: typeof allowed === 'number' && Number.isInteger(allowed) ? allowed : null,
    disruptedPods: new Set(disrupted),
  };
}

function stringMap(value: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry === 'string' || typeof entry === 'number' || typeof entry === 'boolean') {
      result[key] = String(entry);
    }
  }
  return result;
}

function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) {
    map.set(key, [value]);
  } else {
    list.push(value);
  }
}

function setOnce<T>(map: Map<string, T>, key: string, value: T): void {
  if (!map.has(key)) {
    map.set(key, value);
  }
}
