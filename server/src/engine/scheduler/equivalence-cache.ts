/**
 * One scheduling verdict per equivalence class of pods: pods that every PreFilter, Filter and PostFilter plugin
 * reads alike, tried against a cluster state that has not changed since the last attempt of their class, get the
 * same verdict. A failed cycle changes nothing, so the hundreds of Pending replicas of one template that a full
 * cluster refuses in a row need one FitError and one preemption verdict, not one each.
 *
 * Upstream reasons the same way twice: kube-scheduler's equivalence cache (pkg/scheduler/core/equivalence_cache.go,
 * later core/equivalence/, keyed by a hash of what the predicates read of a pod and invalidated per predicate and
 * node on cluster events) was removed in 1.13 because its locks and three-level lookups cost more than the
 * predicates they saved (kubernetes/kubernetes#71013); today's queueing hints (each plugin's EventsToRegister /
 * QueueingHintFn) say which cluster events can make a rejected pod schedulable. Here no lock exists and a verdict
 * is kept only while nothing at all has changed (no pod added to or removed from a node, no storage change; a
 * node change rebuilds the scheduler and its cache), so no per-plugin invalidation exists to get wrong.
 *
 * The class key is conservative: the whole pod spec except container fields no scheduler plugin reads (image,
 * command, env, probes…) and hostname/subdomain; the namespace and resolved priority; the labels and owner
 * references whenever a plugin could read them (the pod's own affinity or topology spread, a placed pod's
 * required anti-affinity, a profile with its own PodTopologySpread arguments). Pods a plugin reads by name
 * (generic ephemeral volumes, resource claims), pods naming a node and pods with a nominated node are never
 * cached, nor are pods whose claims (PersistentVolumeClaims) a PreBind may change without a storage change.
 * https://github.com/kubernetes/kubernetes/issues/71013
 */
import { clearIfAny } from '../model/clear-if-any';
import { asArray, isJsonObject } from '../model/json';
import type { JsonObject } from '../model/json';
import type { NodeInfo } from '../model/snapshot/node-info';
import type { PodInfo } from '../model/snapshot/pod-info';
import { PLUGIN_NAMES } from './plugins/names';
import type { SchedulerProfile } from './profile';
import { IN_TREE_REGISTRY } from './registry';
import type { PluginRegistry } from './registry';

/** Container fields no PreFilter, Filter or PostFilter plugin reads: they never split a class. */
const UNREAD_CONTAINER_FIELDS: ReadonlySet<string> = new Set([
  'image',
  'imagePullPolicy',
  'command',
  'args',
  'env',
  'envFrom',
  'workingDir',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'stdin',
  'stdinOnce',
  'tty',
]);

/** Pod spec fields no scheduler plugin reads (a StatefulSet's pods differ in them). */
const UNREAD_SPEC_FIELDS: ReadonlySet<string> = new Set(['hostname', 'subdomain']);

/** Spec lists of containers whose unread fields are dropped from the key. */
const CONTAINER_LISTS: ReadonlySet<string> = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/**
 * The spec part of each pod's class key, shared by every cache of one simulation: the scheduler's (built again at
 * each node change) and the cluster autoscaler's scans name the same Pending pods, and naming one is a JSON
 * serialisation of its spec. It reads only what never changes on a PodInfo (its namespace, priority and spec);
 * whether a pod is nominated or bound is asked at each lookup.
 */
export class PodClassKeys {
  /**
   * Per spec object, the JSON of its read fields (null: kept out of every class) and the last key built on it.
   * The pods of a template share their spec object (apiserver/pod-factory.ts), so a spec is serialised once, not
   * once per pod; and its pods, of one namespace and priority, share one key string: a cache's Map finds a key it
   * holds by identity instead of hashing and comparing hundreds of characters per pod.
   */
  private readonly specTexts = new WeakMap<object, SpecText>();

  /**
   * The spec part of the pod's key, or null when its spec keeps it out of every class: found by its spec object
   * (no entry per pod: a thousand pods of a few hundred templates took a weak map entry each).
   */
  specKeyOf(pod: PodInfo): string | null {
    const spec: unknown = pod.pod.spec;
    if (!isJsonObject(spec)) {
      return null;
    }
    let entry = this.specTexts.get(spec);
    if (entry === undefined) {
      const kept = readSpecFields(spec);
      entry = { text: kept === null ? null : JSON.stringify(kept), last: null };
      this.specTexts.set(spec, entry);
    }
    const { text, last } = entry;
    if (text === null) {
      return null;
    }
    if (last !== null && last.namespace === pod.namespace && last.priority === pod.priority) {
      return last.key;
    }
    // The same text as JSON.stringify([namespace, priority, kept]).
    const key = `[${JSON.stringify(pod.namespace)},${JSON.stringify(pod.priority)},${text}]`;
    entry.last = { namespace: pod.namespace, priority: pod.priority, key };
    return key;
  }
}

/** A spec object's serialised read fields, and the key last built on them (for a namespace and priority). */
interface SpecText {
  readonly text: string | null;
  last: { readonly namespace: string; readonly priority: number; readonly key: string } | null;
}

/** Verdicts by pod class, valid for one cluster generation. */
export class EquivalenceCache<T> {
  private generation = '';
  private readonly verdicts = new Map<string, T>();
  private antiAffinityPlaced: boolean | null = null;

  constructor(
    /** Whether every pod's labels count (a profile whose plugin arguments could read them for any pod). */
    private readonly labelsAlwaysRead: boolean,
    /** The spec keys of the pods (shared by the caches of one simulation). */
    private readonly podKeys: PodClassKeys = new PodClassKeys(),
  ) {}

  /**
   * The cache's settings for a scheduler setup, or null for none: turned off, or plugins other than the in-tree
   * ones (not known to read a pod only as the key assumes). A profile with PodTopologySpread arguments may have
   * default constraints that filter, whose selector comes from any pod's labels and owner.
   */
  static settingsFor(setup: {
    readonly profiles: readonly SchedulerProfile[];
    readonly registry: PluginRegistry;
    readonly equivalenceCache?: boolean;
    readonly podClassKeys?: PodClassKeys;
  }): { readonly labelsAlwaysRead: boolean; readonly podKeys?: PodClassKeys } | null {
    if (setup.equivalenceCache === false || setup.registry !== IN_TREE_REGISTRY) {
      return null;
    }
    const labelsAlwaysRead = setup.profiles.some((profile) =>
      Object.hasOwn(profile.pluginConfig, PLUGIN_NAMES.PodTopologySpread),
    );
    return setup.podClassKeys === undefined
      ? { labelsAlwaysRead }
      : { labelsAlwaysRead, podKeys: setup.podClassKeys };
  }

  /**
   * Whether any verdict is held: callers skip computing the generation when none is (the usual case while pods
   * keep being placed, each placement changing the generation).
   */
  get isEmpty(): boolean {
    return this.verdicts.size === 0;
  }

  /** The verdict stored for the pod's class at this generation, if any. */
  lookup(pod: PodInfo, generation: string, nodes: readonly NodeInfo[]): T | undefined {
    if (generation !== this.generation) {
      this.reset(generation);
      return undefined;
    }
    const key = this.keyOf(pod, nodes);
    return key === null ? undefined : this.verdicts.get(key);
  }

  /** Stores the verdict for the pod's class at this generation (dropping those of older generations). */
  store(pod: PodInfo, generation: string, nodes: readonly NodeInfo[], verdict: T): void {
    if (generation !== this.generation) {
      this.reset(generation);
    }
    const key = this.keyOf(pod, nodes);
    if (key !== null) {
      this.verdicts.set(key, verdict);
    }
  }

  private reset(generation: string): void {
    this.generation = generation;
    clearIfAny(this.verdicts);
    this.antiAffinityPlaced = null;
  }

  private keyOf(pod: PodInfo, nodes: readonly NodeInfo[]): string | null {
    const nominated = pod.pod.status?.nominatedNodeName;
    if ((typeof nominated === 'string' && nominated !== '') || pod.nodeName !== null) {
      return null;
    }
    const spec = this.podKeys.specKeyOf(pod);
    if (spec === null) {
      return null;
    }
    const ownTerms = pod.hasPodAffinity || asArray(pod.pod.spec?.topologySpreadConstraints).length > 0;
    if (!this.labelsAlwaysRead && !ownTerms && !this.isAntiAffinityPlaced(nodes)) {
      return spec;
    }
    return `${spec}|${JSON.stringify([pod.labels, pod.pod.metadata?.ownerReferences ?? null])}`;
  }

  /** Whether a placed pod has required anti-affinity (InterPodAffinity then matches every pod's labels). */
  private isAntiAffinityPlaced(nodes: readonly NodeInfo[]): boolean {
    this.antiAffinityPlaced ??= nodes.some((node) => node.podsWithRequiredAntiAffinity.length > 0);
    return this.antiAffinityPlaced;
  }
}

/**
 * The namespace, priority and spec (less unread fields) of a pod, or null when its spec keeps it out of every
 * class: what PodClassKeys.specKeyOf answers, computed afresh (its tests compare the two). A nominated or bound
 * pod is kept out by EquivalenceCache.keyOf, at each lookup.
 */
export function specKeyOf(pod: PodInfo): string | null {
  const spec: unknown = pod.pod.spec;
  const kept = isJsonObject(spec) ? readSpecFields(spec) : null;
  return kept === null ? null : JSON.stringify([pod.namespace, pod.priority, kept]);
}

/** The spec's fields a scheduler plugin reads, or null when the spec keeps the pod out of every class. */
function readSpecFields(spec: JsonObject): JsonObject | null {
  if (asArray(spec['resourceClaims']).length > 0) {
    return null;
  }
  for (const volume of asArray(spec['volumes'])) {
    if (
      isJsonObject(volume) &&
      (volume['ephemeral'] !== undefined || volume['persistentVolumeClaim'] !== undefined)
    ) {
      return null;
    }
  }
  const kept: JsonObject = {};
  for (const [field, value] of Object.entries(spec)) {
    if (UNREAD_SPEC_FIELDS.has(field)) {
      continue;
    }
    kept[field] = CONTAINER_LISTS.has(field) ? asArray(value).map(readContainerFields) : value;
  }
  return kept;
}

function readContainerFields(container: unknown): unknown {
  if (!isJsonObject(container)) {
    return container;
  }
  const kept: JsonObject = {};
  for (const [field, value] of Object.entries(container)) {
    if (!UNREAD_CONTAINER_FIELDS.has(field)) {
      kept[field] = value;
    }
  }
  return kept;
}
