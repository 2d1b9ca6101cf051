/**
 * One command run as the machine formats (SARIF, JUnit), GitHub's annotations and `--fail-on` take it: the input
 * files with the objects each defines, and every finding with its code, severity, message, file as displayed, region
 * in lines and columns, the object it is about, and how it counts for `--fail-on`. validate.ts and
 * simulate-findings.ts build it from their own results; the formats only render it.
 */
import { FINDING_CODES } from '../../../../protocol/finding-codes';
import type { FindingCode } from '../../../../protocol/finding-codes';
import { isClusterScoped } from '../../engine/model/cluster-scoped-kinds';
import { isListKind, objectRangeOf } from '../../language/kubernetes/manifest-object';
import type { ManifestObject } from '../../language/kubernetes/manifest-object';
import type { OutlinedInputFile } from '../read-input';
import { STDIN_NAME } from '../read-input';
import { MappedLineIndex } from '../../files/kustomize/mapped-line-index';

/** How serious a finding is (the severity of its code). */
export type FindingSeverity = 'error' | 'warning' | 'information';

/**
 * How a finding counts for `--fail-on`: an error of the input, a predicted failure (a pod that stays Pending, an
 * object the API server refuses, a drain that never finishes), a warning, or a note that never fails a run.
 */
export type FailureClass = 'error' | 'prediction' | 'warning' | 'information';

/** A range of a file in 1-based lines and columns (UTF-16 code units); the end column is just past the end. */
export interface Region {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** One finding of a run. */
export interface CliFinding {
  /** A code of protocol/finding-codes.ts. */
  readonly code: string;
  readonly severity: FindingSeverity;
  readonly failureClass: FailureClass;
  readonly message: string;
  /** The file as displayed (relative to the working directory); absent for a finding on the cluster as a whole. */
  readonly file?: string;
  /** Where in the file, when its text was read. */
  readonly region?: Region;
  /** The object it is about ("Deployment shop/web"), or its document ("document 2") when it is on no object. */
  readonly subject?: string;
}

/** An input file and the objects it defines ("Kind namespace/name"), in order. */
export interface CliInputFile {
  readonly file: string;
  readonly subjects: readonly string[];
}

/** What the formats render. */
export interface CliRun {
  readonly command: 'validate' | 'simulate';
  readonly files: readonly CliInputFile[];
  readonly findings: readonly CliFinding[];
}

/** Whether a code is one of protocol/finding-codes.ts. */
export function isFindingCode(code: string): code is FindingCode {
  return Object.prototype.hasOwnProperty.call(FINDING_CODES, code);
}

/** Whether a finding's file is a path (standard input has none). */
export function hasPath(finding: CliFinding): finding is CliFinding & { readonly file: string } {
  return finding.file !== undefined && finding.file !== '' && finding.file !== STDIN_NAME;
}

/** A finding at offsets of an input file: its region and the object (or document) there. */
export function cliFindingAt(
  file: OutlinedInputFile,
  start: number,
  end: number,
  fields: Pick<CliFinding, 'code' | 'severity' | 'failureClass' | 'message'>,
): CliFinding {
  const subject = subjectAt(file, start);
  // In a kustomize render, a field a patch set is reported on the patch (files/kustomize/patch-fields.ts).
  const patch = file.lines instanceof MappedLineIndex ? file.lines.patchFieldAt(start) : undefined;
  const from = patch?.start ?? file.lines.positionAt(start);
  const to = patch?.end ?? file.lines.positionAt(Math.max(start, end));
  return {
    ...fields,
    file: patch?.file ?? file.id,
    region: {
      startLine: from.line + 1,
      startColumn: from.character + 1,
      endLine: to.line + 1,
      endColumn: to.character + 1,
    },
    ...(subject === undefined ? {} : { subject }),
  };
}

/** The input file with the objects it defines. */
export function inputFileOf(file: OutlinedInputFile): CliInputFile {
  const subjects = file.analysis.documents.flatMap((document) =>
    document.objects.filter((object) => !isListWrapper(object)).map(subjectName),
  );
  return { file: file.id, subjects: [...new Set(subjects)] };
}

/**
 * The object at an offset of a file (the innermost: a List's item rather than the List), else its document
 * ("document 2"), else nothing (a file not analysed).
 */
function subjectAt(file: OutlinedInputFile, offset: number): string | undefined {
  // The last document starting at or before the offset, searched from the end (no list built per finding).
  const { documents } = file.analysis;
  let document: (typeof documents)[number] | undefined;
  for (let index = documents.length - 1; index >= 0 && document === undefined; index--) {
    const entry = documents[index];
    document = entry !== undefined && entry.offset <= offset ? entry : undefined;
  }
  if (document === undefined) {
    return undefined;
  }
  let best: { object: ManifestObject; start: number } | undefined;
  for (const object of document.objects) {
    const range = objectRangeOf(object);
    if (range === undefined || isListWrapper(object)) {
      continue;
    }
    const start = document.offset + range[0];
    const end = document.offset + Math.max(range[1], range[0]);
    if (start <= offset && offset <= end && (best === undefined || start >= best.start)) {
      best = { object, start };
    }
  }
  return best === undefined ? `document ${document.index + 1}` : subjectName(best.object);
}

/** "Deployment shop/web"; a namespaced object without a namespace is in "default", as the engine assumes. */
function subjectName(object: ManifestObject): string {
  const name = object.name ?? '(no name)';
  return isClusterScoped(object.apiVersion, object.kind)
    ? `${object.kind} ${name}`
    : `${object.kind} ${object.namespace ?? 'default'}/${name}`;
}

/** A `kind: List` (or typed list) document whose items are objects of their own. */
function isListWrapper(object: ManifestObject): boolean {
  return object.path.length === 0 && isListKind(object.kind) && Array.isArray(object.value['items']);
}
