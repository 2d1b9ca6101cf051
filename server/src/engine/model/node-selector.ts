/**
 * Node selectors as kube-scheduler matches them: a pod's nodeSelector plus its required node affinity
 * (RequiredNodeAffinity), and weighted preferred terms (PreferredSchedulingTerms), after
 * component-helpers/scheduling/corev1/nodeaffinity and the label selector rules of apimachinery:
 * https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/labels/selector.go
 *
 * Terms are ORed, requirements inside a term ANDed. An empty term (no expressions, no fields) matches nothing.
 * A term that does not parse (unknown operator, In without values, Gt with a non-integer…) matches nothing, as
 * the lazy selector upstream does. matchFields supports metadata.name with In / NotIn and exactly one value.
 * Left out: label key and value syntax validation (the API server rejects such pods first).
 */
import type {
  NodeSelectorObject,
  NodeSelectorRequirementObject,
  NodeSelectorTermObject,
  PodSpecObject,
  PreferredSchedulingTermObject,
} from './objects';
import { listOf } from './objects';

/** The only field a node selector can match on (metav1.ObjectNameField). */
export const OBJECT_NAME_FIELD = 'metadata.name';

/** What a node selector looks at on a node. */
interface NodeLabelsAndName {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

type Predicate = (node: NodeLabelsAndName) => boolean;

/** A parsed term: a predicate, or null when the term is empty or malformed (it then matches nothing). */
type ParsedTerm = Predicate | null;

/** A pod's required node constraints: nodeSelector and requiredDuringSchedulingIgnoredDuringExecution. */
export class RequiredNodeAffinity {
  private readonly selector: readonly (readonly [string, string])[] | null;
  private readonly terms: readonly ParsedTerm[] | null;

  constructor(spec: PodSpecObject) {
    const nodeSelector = spec.nodeSelector;
    const pairs = nodeSelector !== undefined && nodeSelector !== null ? Object.entries(nodeSelector) : [];
    this.selector = pairs.length > 0 ? pairs : null;
    const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    this.terms = required !== undefined && required !== null ? parseNodeSelector(required) : null;
  }

  /** Whether the pod has no nodeSelector and no required node affinity. */
  get isEmpty(): boolean {
    return this.selector === null && this.terms === null;
  }

  /** Whether the node satisfies every nodeSelector pair and at least one required term. */
  matches(node: NodeLabelsAndName): boolean {
    if (this.selector !== null) {
      for (const [key, value] of this.selector) {
        if (node.labels[key] !== value) {
          return false;
        }
      }
    }
    return this.terms === null || this.terms.some((term) => term !== null && term(node));
  }
}

/** Weighted preferred terms; a node scores the sum of the weights of the terms it matches. */
export class PreferredSchedulingTerms {
  private readonly terms: readonly { readonly weight: number; readonly match: Predicate }[];

  constructor(terms: readonly PreferredSchedulingTermObject[]) {
    const parsed: { weight: number; match: Predicate }[] = [];
    for (const term of terms) {
      const weight = typeof term.weight === 'number' ? term.weight : 0;
      const match = weight === 0 ? null : parseTerm(term.preference);
      if (match !== null) {
        parsed.push({ weight, match });
      }
    }
    this.terms = parsed;
  }

  /** Whether no term can score. */
  get isEmpty(): boolean {
    return this.terms.length === 0;
  }

  /** The sum of the weights of the matching terms. */
  score(node: NodeLabelsAndName): number {
    let total = 0;
    for (const term of this.terms) {
      if (term.match(node)) {
        total += term.weight;
      }
    }
    return total;
  }
}

/** Parses a NodeSelector into its terms (empty and malformed terms become null). */
function parseNodeSelector(selector: NodeSelectorObject): ParsedTerm[] {
  return listOf(selector.nodeSelectorTerms).map((term) => parseTerm(term));
}

function parseTerm(term: NodeSelectorTermObject | undefined): ParsedTerm {
  const expressions = listOf(term?.matchExpressions);
  const fields = listOf(term?.matchFields);
  if (expressions.length === 0 && fields.length === 0) {
    return null;
  }
  const predicates: Predicate[] = [];
  for (const requirement of expressions) {
    const predicate = parseLabelRequirement(requirement);
    if (predicate === null) {
      return null;
    }
    predicates.push(predicate);
  }
  for (const requirement of fields) {
    const predicate = parseFieldRequirement(requirement);
    if (predicate === null) {
      return null;
    }
    predicates.push(predicate);
  }
  return (node) => predicates.every((predicate) => predicate(node));
}

/** A label requirement (labels.NewRequirement rules), or null when malformed. */
function parseLabelRequirement(requirement: NodeSelectorRequirementObject): Predicate | null {
  const key = requirement.key;
  const values = listOf(requirement.values).map(String);
  if (typeof key !== 'string') {
    return null;
  }
  switch (requirement.operator) {
    case 'In':
    case 'NotIn': {
      if (values.length === 0) {
        return null;
      }
      const set = new Set(values);
      const isIn = requirement.operator === 'In';
      return (node) => {
        const value = node.labels[key];
        return value === undefined ? !isIn : set.has(value) === isIn;
      };
    }
    case 'Exists':
      return values.length === 0 ? (node) => node.labels[key] !== undefined : null;
    case 'DoesNotExist':
      return values.length === 0 ? (node) => node.labels[key] === undefined : null;
    case 'Gt':
    case 'Lt': {
      const bound = values.length === 1 ? parseInt64(values[0] ?? '') : null;
      if (bound === null) {
        return null;
      }
      const isGreater = requirement.operator === 'Gt';
      return (node) => {
        const value = node.labels[key];
        const parsed = value === undefined ? null : parseInt64(value);
        return parsed !== null && (isGreater ? parsed > bound : parsed < bound);
      };
    }
    default:
      return null;
  }
}

/** A field requirement: metadata.name with In or NotIn and exactly one value, or null when malformed. */
function parseFieldRequirement(requirement: NodeSelectorRequirementObject): Predicate | null {
  const values = listOf(requirement.values);
  if ((requirement.operator !== 'In' && requirement.operator !== 'NotIn') || values.length !== 1) {
    return null;
  }
  const wanted = String(values[0]);
  const isIn = requirement.operator === 'In';
  const key = requirement.key;
  return (node) => {
    // Only metadata.name exists as a node field; any other key reads as an empty value.
    const value = key === OBJECT_NAME_FIELD ? node.name : '';
    return (value === wanted) === isIn;
  };
}

/** Parses a base-10 int64 as strconv.ParseInt does (optional sign, digits only), or null. */
function parseInt64(text: string): bigint | null {
  if (!/^[+-]?[0-9]+$/.test(text)) {
    return null;
  }
  const value = BigInt(text);
  return value > 9223372036854775807n || value < -9223372036854775808n ? null : value;
}
