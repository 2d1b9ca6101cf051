/**
 * PodTopologySpread's constraints, as common.go builds them: the pod's own constraints of one
 * whenUnsatisfiable action (labelSelector plus matchLabelKeys), or, when it has none, the profile's default
 * constraints with a selector derived from the Services and the controller that select the pod
 * (helper.DefaultSelector); node inclusion policies (nodeAffinityPolicy, nodeTaintsPolicy); the per-domain
 * counters of matching pods.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/podtopologyspread/common.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/helper/spread.go
 *
 * The feature gates of 1.33–1.35 are all on here (MinDomains, NodeInclusionPolicy and MatchLabelKeys in
 * PodTopologySpread are GA or beta-on in those releases).
 */
import type { ClusterObjects } from '../../../model/snapshot/cluster-objects';
import {
  addRequirements,
  compileLabelSelector,
  equals,
  labelValue,
  selectorFromRequirements,
  selectorFromSet,
} from '../../../model/label-selector';
import type { Labels, PodLabelSelector } from '../../../model/label-selector';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import { RequiredNodeAffinity } from '../../../model/node-selector';
import { listOf } from '../../../model/objects';
import type { TolerationObject, TopologySpreadConstraintObject } from '../../../model/objects';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { findMatchingUntoleratedTaint, isDoNotScheduleTaint } from '../../../model/taints';
import type { DefaultSpreadConstraint } from '../../config';
import { anchorOf } from '../helper/topology-counter';
import type { PodCounter, TopologyIndex } from '../helper/topology-counter';

/** v1.LabelHostname: the topology key whose domains are single nodes. */
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';

/** whenUnsatisfiable values. */
export type UnsatisfiableAction = 'DoNotSchedule' | 'ScheduleAnyway';

/** A constraint with its selector parsed (topologySpreadConstraint). */
export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: PodLabelSelector;
  readonly minDomains: number;
  readonly honorsNodeAffinity: boolean;
  readonly honorsNodeTaints: boolean;
}

/** Constraints, or why they could not be built (a malformed labelSelector: upstream's error status). */
export type ConstraintsResult =
  | { readonly ok: true; readonly constraints: readonly SpreadConstraint[] }
  | { readonly ok: false; readonly message: string };

/** What the plugin was configured with. */
export interface SpreadDefaults {
  readonly constraints: readonly DefaultSpreadConstraint[];
  /** Whether they are the system defaults (defaultingType System). */
  readonly systemDefaulted: boolean;
}

/**
 * The pod's constraints for one action (getConstraints / initPreScoreState): its own when it has any, else the
 * defaults with the derived selector (none when that selector is empty).
 */
export function podConstraints(
  pod: PodInfo,
  action: UnsatisfiableAction,
  defaults: SpreadDefaults,
  objects: ClusterObjects,
): ConstraintsResult {
  const own = listOf(pod.pod.spec?.topologySpreadConstraints);
  if (own.length > 0) {
    return filterConstraints(own, pod.labels, action);
  }
  const built = filterConstraints(defaults.constraints, pod.labels, action);
  if (!built.ok || built.constraints.length === 0) {
    return built;
  }
  const selector = defaultSelector(pod, objects);
  if (selector.isEmpty || selector.isNothing) {
    return { ok: true, constraints: [] };
  }
  return { ok: true, constraints: built.constraints.map((constraint) => ({ ...constraint, selector })) };
}

/** filterTopologySpreadConstraints: the constraints of one action, with matchLabelKeys merged in. */
function filterConstraints(
  constraints: readonly (TopologySpreadConstraintObject | DefaultSpreadConstraint)[],
  podLabels: Labels,
  action: UnsatisfiableAction,
): ConstraintsResult {
  const result: SpreadConstraint[] = [];
  for (const constraint of constraints) {
    if (constraint.whenUnsatisfiable !== action) {
      continue;
    }
    const full = constraint as TopologySpreadConstraintObject;
    const compiled = compileLabelSelector(full.labelSelector);
    if (!compiled.ok) {
      return { ok: false, message: compiled.message };
    }
    let selector = compiled.selector;
    const matchLabels = listOf(full.matchLabelKeys)
      .filter((key) => Object.hasOwn(podLabels, key))
      .map((key) => equals(key, podLabels[key] ?? ''));
    if (matchLabels.length > 0) {
      // mergeLabelSetWithSelector: a nil selector has no requirements to add, so only the pod's labels remain.
      selector = selectorFromRequirements([...matchLabels, ...selector.requirements]);
    }
    result.push({
      maxSkew: constraint.maxSkew,
      topologyKey: constraint.topologyKey,
      selector,
      minDomains: typeof full.minDomains === 'number' ? full.minDomains : 1,
      honorsNodeAffinity: full.nodeAffinityPolicy !== 'Ignore',
      honorsNodeTaints: full.nodeTaintsPolicy === 'Honor',
    });
  }
  return { ok: true, constraints: result };
}

/**
 * helper.DefaultSelector: the labels of every Service of the pod's namespace that selects it, merged, plus the
 * selector of its controller when that is a ReplicationController, ReplicaSet or StatefulSet.
 */
export function defaultSelector(pod: PodInfo, objects: ClusterObjects): PodLabelSelector {
  // The answer depends on the namespace, the labels and the controller reference only.
  const owner = listOf(pod.pod.metadata?.ownerReferences).find((ref) => ref.controller === true);
  const key = JSON.stringify([
    'defaultSelector',
    pod.namespace,
    pod.labels,
    owner === undefined ? null : [owner.apiVersion ?? '', owner.kind ?? '', owner.name ?? null],
  ]);
  return objects.derivedOnce(key, () => computeDefaultSelector(pod, objects));
}

function computeDefaultSelector(pod: PodInfo, objects: ClusterObjects): PodLabelSelector {
  let labelSet: Record<string, string> = {};
  for (const serviceSelector of objects.serviceSelectorCandidates(pod.namespace, pod.labels)) {
    if (selectorFromSet(serviceSelector).matches(pod.labels)) {
      labelSet = { ...labelSet, ...serviceSelector };
    }
  }
  let selector = selectorFromSet(labelSet);
  const owner = listOf(pod.pod.metadata?.ownerReferences).find((ref) => ref.controller === true);
  if (owner === undefined || typeof owner.name !== 'string') {
    return selector;
  }
  const kind = `${owner.apiVersion ?? ''}/${owner.kind ?? ''}`;
  if (kind === 'v1/ReplicationController') {
    const controller = objects.replicationControllerSelector(pod.namespace, owner.name);
    if (controller !== undefined) {
      selector = selectorFromSet({ ...labelSet, ...controller });
    }
  } else if (kind === 'apps/v1/ReplicaSet' || kind === 'apps/v1/StatefulSet') {
    const other =
      kind === 'apps/v1/ReplicaSet'
        ? objects.replicaSetSelector(pod.namespace, owner.name, pod.labels)
        : objects.statefulSetSelector(pod.namespace, owner.name);
    if (other !== undefined && !other.isNothing) {
      selector = addRequirements(selector, other.requirements);
    }
  }
  return selector;
}

/** The incoming pod's side of matchNodeInclusionPolicies, prepared once per cycle. */
export class NodeInclusion {
  private readonly required: RequiredNodeAffinity;
  private readonly tolerations: readonly TolerationObject[];
  /** A text equal for pods with the same node constraints, for cache keys. */
  readonly affinityKey: string;
  /** A text equal for pods with the same tolerations, for cache keys. */
  readonly tolerationsKey: string;

  constructor(pod: PodInfo) {
    const spec = pod.pod.spec ?? {};
    this.required = new RequiredNodeAffinity(spec);
    this.tolerations = listOf(spec.tolerations);
    this.affinityKey = JSON.stringify([
      spec.nodeSelector ?? null,
      spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null,
    ]);
    this.tolerationsKey = JSON.stringify(this.tolerations);
  }

  /** Whether the node counts for the constraint under its policies (Honor: the pod could land there). */
  includes(constraint: SpreadConstraint, node: NodeInfo): boolean {
    if (constraint.honorsNodeAffinity && !this.required.matches(node)) {
      return false;
    }
    return (
      !constraint.honorsNodeTaints ||
      findMatchingUntoleratedTaint(node.taints, this.tolerations, isDoNotScheduleTaint) === undefined
    );
  }
}

/** nodeLabelsMatchSpreadConstraints: whether the node has every constraint's topology key. */
export function hasAllTopologyKeys(labels: Labels, constraints: readonly SpreadConstraint[]): boolean {
  for (const constraint of constraints) {
    if (!Object.hasOwn(labels, constraint.topologyKey)) {
      return false;
    }
  }
  return true;
}

/**
 * The counter of one constraint of a set: pods of the pod's namespace matching the constraint's selector, per
 * value of its topology key, over the nodes that count (every key of the set present when `requireAllKeys`, else a
 * missing key reads as the value ""; and the constraint's inclusion policies).
 */
export function constraintCounter(
  index: TopologyIndex,
  pod: PodInfo,
  constraints: readonly SpreadConstraint[],
  constraint: SpreadConstraint,
  inclusion: NodeInclusion,
  requireAllKeys: boolean,
): PodCounter {
  const allKeys = requireAllKeys ? constraints.map((c) => c.topologyKey).join('\u0001') : '';
  const rule = [
    'pts',
    allKeys,
    constraint.topologyKey,
    constraint.honorsNodeAffinity ? inclusion.affinityKey : '-',
    constraint.honorsNodeTaints ? inclusion.tolerationsKey : '-',
  ].join('\u0000');
  const domains = index.domains(rule, (node) => {
    if (requireAllKeys && !hasAllTopologyKeys(node.labels, constraints)) {
      return null;
    }
    return inclusion.includes(constraint, node)
      ? (labelValue(node.labels, constraint.topologyKey) ?? '')
      : null;
  });
  const namespace = pod.namespace;
  const selector = constraint.selector;
  const key = `${rule}\u0000${namespace}\u0000${selector.key}`;
  const matches = (other: PodInfo): boolean =>
    other.namespace === namespace && selector.matches(other.labels);
  return index.counter(key, domains, matches, { anchor: anchorOf(selector) });
}

/** Pods of the namespace matching the selector on each node, whatever its labels (per-node counts for Score). */
export function perNodeCounter(
  index: TopologyIndex,
  namespace: string,
  selector: PodLabelSelector,
): PodCounter {
  const domains = index.domains('pts-node', (node) => node.name);
  const key = `pts-node\u0000${namespace}\u0000${selector.key}`;
  const matches = (other: PodInfo): boolean =>
    other.namespace === namespace && selector.matches(other.labels);
  return index.counter(key, domains, matches, { keepPerNode: true, anchor: anchorOf(selector) });
}
