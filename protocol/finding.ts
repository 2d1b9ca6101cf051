/**
 * The one finding: what the product says about the user's input or its predicted outcome, from the place it is
 * made to every output (the editor's diagnostics, `foresight` text, JSON, SARIF, JUnit and GitHub annotations,
 * the timeline panel). Like apimachinery's `field.Error` (Type, Field, BadValue, Detail) in one ErrorList, one
 * shape for all: a code of finding-codes.ts with its severity, a message for people, the object and field it is
 * about, where it is shown, and the data code needs (so nothing parses a message back).
 *
 * A finding is located in up to three ways, filled in as it travels: the engine knows the `object` and the field
 * `path` inside it; the analyzer knows offsets (`start`, `end`) in the text it analysed; the language service
 * resolves either into a `place` (a file and a range of lines) that every output shows.
 */
import type { FindingCode } from './finding-codes';

/** How serious a finding is. Errors make the input invalid (or predict a failure); the others are advice. */
export type FindingSeverity = 'error' | 'warning' | 'information';

/** A path of keys and list positions inside an object: ['spec', 'containers', 0, 'image']. */
export type FieldPath = readonly (string | number)[];

/** The object a finding is about: where it was read, and, when known, what it is. */
export interface FindingObject {
  /** The file it was read from (a URI in the editor, a path as displayed on the command line). */
  readonly file: string;
  /** The YAML document ("---" section) of that file, from 0. */
  readonly documentIndex: number;
  /**
   * The object's path inside its document: [] for the document's object, ['items', 3] for an item of a List,
   * ['spec', 'template'] for the pod a workload's template makes.
   */
  readonly path: FieldPath;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
}

/** A zero-based line and character (UTF-16 code units), as the LSP counts them. */
export interface TextPosition {
  readonly line: number;
  readonly character: number;
}

/** What produced the text at a place, when it is not the file as written. */
export interface PlaceOrigin {
  /** The kustomization whose render put the object there (`kubectl apply -k` of this folder). */
  readonly kustomization?: string;
  /** The patch file that set the field, when a patch did (the place is then on the patch). */
  readonly patch?: string;
  /** The Helm chart template that produced the document (`# Source: CHART/templates/FILE`). */
  readonly helmTemplate?: string;
}

/** Where a finding is shown: a file and a range of it (no range: the file as a whole, a Helm chart's folder). */
export interface Place {
  readonly file: string;
  readonly start?: TextPosition;
  readonly end?: TextPosition;
  readonly origin?: PlaceOrigin;
}

/**
 * Another place that explains a finding (a second field that causes it, the template a line came from): a place,
 * or, while the finding is still in offsets of the analysed text, `start` and `end` in that same text.
 */
export interface RelatedPlace {
  readonly place?: Place;
  readonly start?: number;
  readonly end?: number;
  readonly message: string;
}

/** A text edit elsewhere than the finding's own range, in offsets of the analysed text. */
export interface OffsetEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/** What a quick fix does, carried with the finding (and re-checked as untrusted when it comes back). */
export interface FixData {
  /** A replacement text for the finding's range. */
  replacement?: string;
  /** Edits of other ranges (used instead of the replacement when set). */
  edits?: readonly OffsetEdit[];
  /** A title for the quick fix. */
  title?: string;
  /** Other replacements of the finding's range, each its own quick fix ("512M", then "512Mi" for "512mb"). */
  alternatives?: readonly { readonly replacement: string; readonly title: string }[];
}

/** One finding. */
export interface Finding {
  readonly code: FindingCode;
  readonly severity: FindingSeverity;
  /** What is wrong or predicted, for people, in Kubernetes' own words where it has them. */
  readonly message: string;
  /** The object it is about. */
  readonly object?: FindingObject;
  /** The field inside that object ([] or absent for the object itself). */
  readonly path?: FieldPath;
  /** Offsets in the text that was analysed (the analyzer's findings, before they are placed). */
  readonly start?: number;
  readonly end?: number;
  /** Where it is shown, once placed. */
  readonly place?: Place;
  /** Other places that explain it. */
  readonly related?: readonly RelatedPlace[];
  /** What code needs to act on it (a resource, a taint, a plugin), so that no one parses the message. */
  readonly data?: Readonly<Record<string, string>>;
  /** What a quick fix can do about it, when a safe fix exists. */
  readonly fix?: FixData;
}

/** Formats a field path the way kubectl explains fields: spec.containers[0].resources. */
export function formatFieldPath(path: FieldPath): string {
  let text = '';
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : text === '' ? part : `.${part}`;
  }
  return text;
}

/**
 * How the outputs name the object a finding is about: "Deployment shop/web", "ClusterRole view" (cluster-scoped:
 * no namespace), or "document 2" for a document that holds no object; undefined without an object.
 */
export function describeFindingObject(object: FindingObject | undefined): string | undefined {
  if (object === undefined) {
    return undefined;
  }
  if (object.kind === undefined) {
    return `document ${object.documentIndex + 1}`;
  }
  const name = object.name ?? '(no name)';
  return object.namespace === undefined
    ? `${object.kind} ${name}`
    : `${object.kind} ${object.namespace}/${name}`;
}

/** Whether any finding is an error. */
export function hasErrors(findings: readonly Pick<Finding, 'severity'>[]): boolean {
  return findings.some((finding) => finding.severity === 'error');
}
