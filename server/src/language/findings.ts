/**
 * Findings: what the language layer reports about a manifest, in offsets, before they become LSP diagnostics.
 * Each finding has a stable code; the severity is chosen from the code, in one table.
 */

/** How serious a finding is; mapped one to one onto LSP DiagnosticSeverity. */
export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** Every diagnostic code of the extension with its severity. Codes are stable: users filter on them. */
export const DIAGNOSTIC_CODES = {
  /** The text is not valid YAML. */
  'yaml-syntax': 'error',
  /**
   * A mapping has the same key twice. A warning, not an error: kubectl converts YAML to JSON leniently
   * (sigs.k8s.io/yaml YAMLToJSON, not YAMLToJSONStrict), so the last value silently wins and the API server
   * never sees the duplicate.
   */
  'yaml-duplicate-key': 'warning',
  /** A tab is used for indentation. */
  'yaml-tab-indent': 'error',
  /** Aliases expand beyond the limit (billion laughs). */
  'yaml-alias-limit': 'error',
  /** The document nests deeper than the analysis allows. */
  'yaml-too-deep': 'error',
  /** A document holds more YAML values than the analysis allows (limits.ts); it was not analysed. */
  'document-too-large': 'information',
  /** The analysis stopped before the end of the file (time budget, documents or values per file). */
  'analysis-incomplete': 'information',
  /** The file is larger than kubeForesight.maxFileSizeKB and was not analysed. */
  'file-too-large': 'information',
  /** The file contains a NUL byte or other binary content and was not analysed. */
  'file-not-text': 'information',
  /** Documents of the file are template text ({{ … }}) and were not analysed (the whole file when all are). */
  'helm-template-skipped': 'information',
  /** A Helm chart folder (Chart.yaml beside templates/) is a template, skipped as a unit. */
  'helm-chart-skipped': 'information',
  /** Documents of a file of Kubernetes objects are not objects (no apiVersion and kind): kubectl refuses them. */
  'document-not-an-object': 'information',
  /** The same object is defined again later: sequential kubectl apply keeps the later definition. */
  'duplicate-object': 'warning',
  /** metadata.generateName without a name: kubectl apply refuses it. */
  'generate-name-with-apply': 'error',
  /** The apiVersion or kind is not a built-in one, and the group is a built-in group. */
  'unknown-kind': 'error',
  /** A kind of a group that is neither built-in nor defined by a CustomResourceDefinition in the workspace. */
  'unknown-custom-kind': 'information',
  /** The apiVersion was removed in (or before) the selected Kubernetes version. */
  'removed-api-version': 'error',
  /** The apiVersion is still served but deprecated. */
  'deprecated-api-version': 'warning',
  /** A field has the wrong type. */
  'schema-type': 'error',
  /** A required field is missing. */
  'schema-required': 'error',
  /** A field is not part of the schema (strict field validation). */
  'schema-unknown-field': 'error',
  /** A value is not one of the allowed values. */
  'schema-enum': 'error',
  /** Any other schema constraint (minimum, maximum, …). */
  'schema-constraint': 'error',
  /** A resource quantity is malformed ("128mb"). */
  'invalid-quantity': 'error',
  /** A resource quantity is negative where the API server requires it to be non-negative. */
  'negative-quantity': 'error',
  /** A workload's selector does not match its pod template labels. */
  'selector-mismatch': 'error',
  /** metadata.name is not a valid DNS name for its kind. */
  'invalid-name': 'error',
  /** A label key is not a valid qualified name. */
  'invalid-label-key': 'error',
  /** A label value is not valid label syntax. */
  'invalid-label-value': 'error',
  /** Two containers of one pod have the same name. */
  'duplicate-container-name': 'error',
  /** A container port name is longer than 15 characters or not an IANA service name. */
  'invalid-port-name': 'error',
  /** A Service targetPort name that no selected container defines. */
  'target-port-not-found': 'warning',
  /** Predicted: replicas of a workload that stay Pending, on the field that causes it. */
  'pod-unschedulable': 'warning',
  /** Predicted: a further reason some nodes reject those replicas (minority causes). */
  'pod-unschedulable-cause': 'information',
  /** Predicted: the pods are BestEffort, first to be evicted under node pressure. */
  'best-effort-pod': 'information',
  /** Predicted: scheduling this pod preempts lower-priority pods. */
  'pod-preempts': 'information',
  /** Predicted: a rollout stalls (ProgressDeadlineExceeded), on its strategy. */
  'rollout-stalls': 'warning',
  /** Predicted: a PodDisruptionBudget allows no voluntary disruption; drains of its pods' nodes never finish. */
  'pdb-blocks-disruptions': 'warning',
  /** Predicted: a PodDisruptionBudget selects no pod. */
  'pdb-selects-nothing': 'warning',
  /** Predicted: a pod is covered by two PodDisruptionBudgets, so the eviction API refuses to evict it. */
  'pdb-overlap': 'warning',
  /** Predicted: a scenario's kubectl drain never finishes (evictions refused) or fails (a pod it cannot delete). */
  'drain-blocked': 'error',
  /** Predicted: a scenario's kubectl drain is still waiting when the simulation ends. */
  'drain-unfinished': 'warning',
  /** Predicted: a rollout has not finished when the simulation ends. */
  'rollout-unfinished': 'warning',
  /** The folder has more objects than are simulated on every keystroke; predictions were skipped. */
  'predictions-skipped': 'information',
  /** The simulation found the input invalid (a cluster file's node without allocatable, …). */
  'simulation-input-error': 'error',
  /** The simulation found something questionable in the input. */
  'simulation-input-warning': 'warning',
  /** The simulation notes something about the input (a plugin it does not model, …). */
  'simulation-input-note': 'information',
} as const satisfies Record<string, Severity>;

/** A stable diagnostic code. */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** A text edit elsewhere than the finding's own range, in offsets of the analysed text. */
export interface OffsetEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/** Data a quick fix needs, carried with the finding. */
export interface FixData {
  /** A replacement text for the finding's range. */
  replacement?: string;
  /** Edits of other ranges (used instead of the replacement when set). */
  edits?: readonly OffsetEdit[];
  /** A title for the quick fix that applies the replacement. */
  title?: string;
}

/** One problem found in a manifest, located by offsets in the analysed text. */
export interface Finding {
  readonly code: DiagnosticCode;
  readonly message: string;
  /** Offset of the first character. */
  readonly start: number;
  /** Offset just past the last character. */
  readonly end: number;
  /** What a quick fix can do about it, when a safe fix exists. */
  readonly fix?: FixData;
}

/** The severity of a code. */
export function severityOf(code: DiagnosticCode): Severity {
  return DIAGNOSTIC_CODES[code];
}

/** Moves a finding by a number of characters (findings of a document are kept relative to its start). */
export function shiftFinding(finding: Finding, delta: number): Finding {
  if (delta === 0) {
    return finding;
  }
  const shifted = { ...finding, start: finding.start + delta, end: finding.end + delta };
  const edits = finding.fix?.edits;
  return edits === undefined || finding.fix === undefined
    ? shifted
    : {
        ...shifted,
        fix: {
          ...finding.fix,
          edits: edits.map((edit) => ({ ...edit, start: edit.start + delta, end: edit.end + delta })),
        },
      };
}

/**
 * Sorts findings by position and merges duplicates (same code, same range, same message), so one problem gives
 * one diagnostic.
 */
export function sortAndMergeFindings(findings: readonly Finding[]): Finding[] {
  const sorted = [...findings].sort(
    (a, b) =>
      a.start - b.start ||
      a.end - b.end ||
      a.code.localeCompare(b.code) ||
      a.message.localeCompare(b.message),
  );
  const merged: Finding[] = [];
  for (const finding of sorted) {
    const previous = merged[merged.length - 1];
    if (
      previous !== undefined &&
      previous.start === finding.start &&
      previous.end === finding.end &&
      previous.code === finding.code &&
      previous.message === finding.message
    ) {
      continue;
    }
    merged.push(finding);
  }
  return merged;
}
