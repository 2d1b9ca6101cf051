/**
 * Pod (anti-)affinity terms, parsed once per pod as framework.PodInfo does (RequiredAffinityTerms,
 * RequiredAntiAffinityTerms, PreferredAffinityTerms, PreferredAntiAffinityTerms), and matched as
 * AffinityTerm.Matches: the other pod's namespace is listed (an empty list with no namespaceSelector means the
 * term owner's own namespace) or its namespace's labels match the namespaceSelector, and its labels match the
 * labelSelector. https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/types.go
 *
 * matchLabelKeys and mismatchLabelKeys are merged into the labelSelector as the API server does when it creates
 * the pod (MatchLabelKeysInPodAffinity, on in 1.33–1.35): `key in (value)` / `key notin (value)` for each key the
 * pod has. https://github.com/kubernetes/kubernetes/blob/master/pkg/registry/core/pod/strategy.go
 *
 * For the incoming pod, upstream unrolls a non-empty namespaceSelector into the names of the namespaces it selects
 * (mergeAffinityTermNamespacesIfNotEmpty); matching a pod's namespace labels against it is the same test, since
 * every pod's namespace exists. A namespace the input does not declare has only its kubernetes.io/metadata.name
 * label.
 */
import type { Cluster } from '../../../model/snapshot/cluster';
import { addRequirements, compileLabelSelector } from '../../../model/label-selector';
import type { LabelRequirement, Labels, PodLabelSelector } from '../../../model/label-selector';
import { listOf } from '../../../model/objects';
import type { PodAffinityTermObject, WeightedPodAffinityTermObject } from '../../../model/objects';
import type { PodInfo } from '../../../model/snapshot/pod-info';

/** A parsed PodAffinityTerm (framework.AffinityTerm). */
export interface AffinityTerm {
  readonly namespaces: ReadonlySet<string>;
  /** labels.Nothing() when the term has no namespaceSelector; an empty selector matches every namespace. */
  readonly namespaceSelector: PodLabelSelector;
  readonly selector: PodLabelSelector;
  readonly topologyKey: string;
  /** A canonical text equal for terms that match the same pods in the same topology. */
  readonly key: string;
}

/** A parsed WeightedPodAffinityTerm. */
export interface WeightedAffinityTerm extends AffinityTerm {
  readonly weight: number;
}

/** The four term lists of a pod; a list whose selector does not parse is empty and the error is kept. */
export interface PodAffinityTerms {
  readonly requiredAffinity: readonly AffinityTerm[];
  readonly requiredAntiAffinity: readonly AffinityTerm[];
  readonly preferredAffinity: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinity: readonly WeightedAffinityTerm[];
  /** The parse error, as "<list>: <problem>", or null. */
  readonly parseError: string | null;
}

/** The label every namespace carries (NamespaceDefaultLabelName). */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

const EMPTY: PodAffinityTerms = {
  requiredAffinity: [],
  requiredAntiAffinity: [],
  preferredAffinity: [],
  preferredAntiAffinity: [],
  parseError: null,
};

const CACHE = new WeakMap<PodInfo, PodAffinityTerms>();

/** The parsed terms of a pod (cached per PodInfo). */
export function affinityTermsOf(pod: PodInfo): PodAffinityTerms {
  if (!pod.hasPodAffinity) {
    return EMPTY;
  }
  let terms = CACHE.get(pod);
  if (terms === undefined) {
    terms = parseTerms(pod);
    CACHE.set(pod, terms);
  }
  return terms;
}

/** AffinityTerm.Matches: namespace (listed, or selected by labels) and labels. */
export function termMatches(term: AffinityTerm, pod: PodInfo, namespaceLabels: Labels): boolean {
  return (
    (term.namespaces.has(pod.namespace) || term.namespaceSelector.matches(namespaceLabels)) &&
    term.selector.matches(pod.labels)
  );
}

/** The labels of a namespace as the namespace lister has them (declared, or the name label alone). */
export function namespaceLabelsOf(cluster: Cluster, namespace: string): Labels {
  return cluster.namespaceLabels.get(namespace) ?? { [NAMESPACE_NAME_LABEL]: namespace };
}

function parseTerms(pod: PodInfo): PodAffinityTerms {
  const affinity = pod.pod.spec?.affinity;
  const errors: string[] = [];
  const required = (list: readonly PodAffinityTermObject[] | undefined, name: string): AffinityTerm[] => {
    const result: AffinityTerm[] = [];
    for (const term of listOf(list)) {
      const parsed = parseTerm(pod, term);
      if (typeof parsed === 'string') {
        errors.push(`${name}: ${parsed}`);
        return [];
      }
      result.push(parsed);
    }
    return result;
  };
  const preferred = (
    list: readonly WeightedPodAffinityTermObject[] | undefined,
    name: string,
  ): WeightedAffinityTerm[] => {
    const result: WeightedAffinityTerm[] = [];
    for (const weighted of listOf(list)) {
      const parsed = parseTerm(pod, weighted.podAffinityTerm);
      if (typeof parsed === 'string') {
        errors.push(`${name}: ${parsed}`);
        return [];
      }
      const weight = typeof weighted.weight === 'number' ? weighted.weight : 0;
      result.push({ ...parsed, weight });
    }
    return result;
  };
  return {
    requiredAffinity: required(
      affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
      'requiredAffinityTerms',
    ),
    requiredAntiAffinity: required(
      affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
      'requiredAntiAffinityTerms',
    ),
    preferredAffinity: preferred(
      affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
      'preferredAffinityTerms',
    ),
    preferredAntiAffinity: preferred(
      affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
      'preferredAntiAffinityTerms',
    ),
    parseError: errors.length > 0 ? errors.join(', ') : null,
  };
}

/** newAffinityTerm, after the API server merged matchLabelKeys / mismatchLabelKeys. */
function parseTerm(pod: PodInfo, term: PodAffinityTermObject | undefined): AffinityTerm | string {
  const compiled = compileLabelSelector(term?.labelSelector);
  if (!compiled.ok) {
    return compiled.message;
  }
  let selector = compiled.selector;
  if (!selector.isNothing) {
    const merged: LabelRequirement[] = [];
    for (const key of listOf(term?.matchLabelKeys)) {
      if (Object.hasOwn(pod.labels, key)) {
        merged.push({ key, operator: 'In', values: [pod.labels[key] ?? ''] });
      }
    }
    for (const key of listOf(term?.mismatchLabelKeys)) {
      if (Object.hasOwn(pod.labels, key)) {
        merged.push({ key, operator: 'NotIn', values: [pod.labels[key] ?? ''] });
      }
    }
    selector = merged.length > 0 ? addRequirements(selector, merged) : selector;
  }
  const namespaceSelector = compileLabelSelector(term?.namespaceSelector);
  if (!namespaceSelector.ok) {
    return namespaceSelector.message;
  }
  const listed = listOf(term?.namespaces).map(String);
  const hasSelector = term?.namespaceSelector !== undefined && term.namespaceSelector !== null;
  const namespaces = new Set(listed.length === 0 && !hasSelector ? [pod.namespace] : listed);
  const topologyKey = typeof term?.topologyKey === 'string' ? term.topologyKey : '';
  const key = JSON.stringify([
    [...namespaces].sort(),
    namespaceSelector.selector.key,
    selector.key,
    topologyKey,
  ]);
  return { namespaces, namespaceSelector: namespaceSelector.selector, selector, topologyKey, key };
}
