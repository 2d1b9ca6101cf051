/**
 * Findings of the engine about its input (a bad cluster file, a pod bound to a missing node): data, never
 * exceptions. Each names the object by its ObjectSource, the field by a path inside it, and carries a stable code.
 */
import type { ObjectSource } from './source';

/** How serious an engine finding is. Errors make the input invalid; the others are advice. */
export type EngineSeverity = 'error' | 'warning' | 'information';

/** Stable codes of engine findings, with their severity. */
export const ENGINE_FINDING_CODES = {
  /** The cluster has no Node. */
  'cluster-no-nodes': 'error',
  /** A Node has no status.allocatable. */
  'node-missing-allocatable': 'error',
  /** A Node's status.allocatable lacks "pods": the node accepts no pod. */
  'node-allocatable-incomplete': 'warning',
  /** A quantity cannot be parsed. */
  'invalid-quantity': 'error',
  /** A quantity is negative where it must not be. */
  'negative-quantity': 'error',
  /** A taint lacks a key or has no valid effect. */
  'invalid-taint': 'error',
  /** An object lacks metadata.name. */
  'missing-name': 'error',
  /** Two objects of one kind share a name (and namespace). */
  'duplicate-object': 'error',
  /** A pod is bound (spec.nodeName) to a node the cluster does not have. */
  'pod-bound-to-missing-node': 'error',
  /** A pod names a PriorityClass that does not exist. */
  'unknown-priority-class': 'error',
  /** A field has the wrong type. */
  'invalid-field': 'error',
  /** An object of a kind the engine ignores. */
  'ignored-object': 'information',
  /** A scheduler profile names a plugin the engine does not model. */
  'plugin-not-modelled': 'information',
  /** A scheduler plugin's arguments are invalid; defaults were used. */
  'invalid-plugin-args': 'warning',
  /** An object is not a Kubernetes object (no kind, or not a mapping). */
  'not-an-object': 'error',
  /** A pod could not be read for scheduling (its spec is not an object). */
  'invalid-pod': 'error',
  /** The cluster file's workloads declare more pods than one simulation creates. */
  'too-many-pods': 'error',
  /** The input has a syntax error. */
  'syntax-error': 'error',
} as const satisfies Record<string, EngineSeverity>;

/** A stable engine finding code. */
export type EngineFindingCode = keyof typeof ENGINE_FINDING_CODES;

/** One finding about the engine's input. */
export interface EngineFinding {
  readonly code: EngineFindingCode;
  readonly severity: EngineSeverity;
  /** The object the finding is about. */
  readonly source: ObjectSource;
  /** The field inside that object ([] for the object itself), e.g. ['status', 'allocatable', 'cpu']. */
  readonly path: readonly (string | number)[];
  /** What is wrong, naming the object: `Node "w1": status.allocatable.cpu "-1" is negative`. */
  readonly message: string;
}

/** Builds a finding with the severity of its code. */
export function engineFinding(
  code: EngineFindingCode,
  source: ObjectSource,
  path: readonly (string | number)[],
  message: string,
): EngineFinding {
  return { code, severity: ENGINE_FINDING_CODES[code], source, path, message };
}

/** Whether any finding is an error. */
export function hasErrors(findings: readonly EngineFinding[]): boolean {
  return findings.some((finding) => finding.severity === 'error');
}

/** Formats a field path the way kubectl explains fields: spec.containers[0].resources. */
export function formatFieldPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : text === '' ? part : `.${part}`;
  }
  return text;
}
