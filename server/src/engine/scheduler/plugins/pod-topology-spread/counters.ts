/**
 * PodTopologySpread's pod counters over a topology index: per value of a constraint's topology key (Filter and
 * PreScore), or per node for the hostname key (Score), named by what determines them so the index keeps one
 * counter per name in sync across cycles (helper/topology-counter.ts).
 */
import type { PodLabelSelector } from '../../../model/label-selector';
import { labelValue } from '../../../model/label-selector';
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { anchorOf } from '../helper/topology-counter';
import type { PodCounter, TopologyIndex } from '../helper/topology-counter';
import { hasAllTopologyKeys } from './common';
import type { NodeInclusion, SpreadConstraint } from './common';

/**
 * The counters' names and functions by constraint (by selector for the per-node counter), reused while what they
 * were derived from is the very same: a class's constraints, inclusion and selector are built once and never
 * changed (pod-classes.ts), and these texts were joined for every pod in every PreScore. Weak keys.
 */
const COUNTER_INPUTS = new WeakMap<object, CounterInputs>();

/** What a counter is named and built with, and what that was derived from. */
interface CounterInputs {
  readonly constraints: readonly SpreadConstraint[] | null;
  readonly inclusion: NodeInclusion | null;
  readonly namespace: string;
  readonly requireAllKeys: boolean;
  readonly rule: string;
  readonly key: string;
  readonly domainOf: (node: NodeInfo) => string | null;
  readonly matches: (other: PodInfo) => boolean;
  readonly options: { readonly keepPerNode?: boolean; readonly anchor: ReturnType<typeof anchorOf> };
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
  const namespace = pod.namespace;
  let inputs = COUNTER_INPUTS.get(constraint);
  if (
    inputs === undefined ||
    inputs.constraints !== constraints ||
    inputs.inclusion !== inclusion ||
    inputs.namespace !== namespace ||
    inputs.requireAllKeys !== requireAllKeys
  ) {
    const allKeys = requireAllKeys ? constraints.map((c) => c.topologyKey).join('\u0001') : '';
    const rule = [
      'pts',
      allKeys,
      constraint.topologyKey,
      constraint.honorsNodeAffinity ? inclusion.affinityKey : '-',
      constraint.honorsNodeTaints ? inclusion.tolerationsKey : '-',
    ].join('\u0000');
    const selector = constraint.selector;
    inputs = {
      constraints,
      inclusion,
      namespace,
      requireAllKeys,
      rule,
      key: `${rule}\u0000${namespace}\u0000${selector.key}`,
      domainOf: (node) => {
        if (requireAllKeys && !hasAllTopologyKeys(node.labels, constraints)) {
          return null;
        }
        return inclusion.includes(constraint, node)
          ? (labelValue(node.labels, constraint.topologyKey) ?? '')
          : null;
      },
      matches: (other) => other.namespace === namespace && selector.matches(other.labels),
      options: { anchor: anchorOf(selector) },
    };
    COUNTER_INPUTS.set(constraint, inputs);
  }
  const domains = index.domains(inputs.rule, inputs.domainOf);
  return index.counter(inputs.key, domains, inputs.matches, inputs.options);
}

/** Pods of the namespace matching the selector on each node, whatever its labels (per-node counts for Score). */
export function perNodeCounter(
  index: TopologyIndex,
  namespace: string,
  selector: PodLabelSelector,
): PodCounter {
  const domains = index.domains('pts-node', (node) => node.name);
  let inputs = COUNTER_INPUTS.get(selector);
  if (inputs === undefined || inputs.namespace !== namespace) {
    inputs = {
      constraints: null,
      inclusion: null,
      namespace,
      requireAllKeys: false,
      rule: 'pts-node',
      key: `pts-node\u0000${namespace}\u0000${selector.key}`,
      domainOf: (node) => node.name,
      matches: (other) => other.namespace === namespace && selector.matches(other.labels),
      options: { keepPerNode: true, anchor: anchorOf(selector) },
    };
    COUNTER_INPUTS.set(selector, inputs);
  }
  return index.counter(inputs.key, domains, inputs.matches, inputs.options);
}
