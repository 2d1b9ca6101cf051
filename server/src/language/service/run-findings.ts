/**
 * One command run as every output renders it (text, JSON, SARIF, JUnit, GitHub's annotations, `--fail-on`): the
 * input files with the objects each defines, and every finding placed — the one Finding with its `place` (the
 * file as displayed and the range of lines there, on the patch that set the field in a kustomize render) and its
 * `object` (what it is about: kind, namespace and name, or the document). validate.ts and
 * simulation-findings.ts place the findings; the formats only render them.
 */
import { FINDING_CODES } from '../../../../protocol/finding-codes';
import type { FindingCode } from '../../../../protocol/finding-codes';
import type { Finding, FindingObject } from '../../../../protocol/finding';
import { describeFindingObject } from '../../../../protocol/finding';
import { isClusterScoped } from '../../engine/model/cluster-scoped-kinds';
import { isListKind, objectRangeOf } from '../kubernetes/manifest-object';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { MappedLineIndex } from '../kustomize/mapped-line-index';
import type { OutlinedInputFile } from './input-files';

/** An input file and the objects it defines ("Kind namespace/name"), in order. */
export interface CliInputFile {
  readonly file: string;
  readonly subjects: readonly string[];
}

/** What the outputs render. */
export interface CliRun {
  readonly command: 'validate' | 'simulate' | 'plan';
  readonly files: readonly CliInputFile[];
  /** Every finding of the run, placed. */
  readonly findings: readonly Finding[];
}

/** Whether a code is one of protocol/finding-codes.ts. */
export function isFindingCode(code: string): code is FindingCode {
  return Object.prototype.hasOwnProperty.call(FINDING_CODES, code);
}

/**
 * A finding placed at offsets of an input file: the range of lines there (or on the patch that set the field, in
 * a kustomize render) and the object (or document) at that offset, whose kind, namespace and name join what the
 * finding already said of its object (the engine's source and path stay). Its own offsets are dropped: they were
 * the analysed text's, and the place says where it is now.
 */
export function placeFindingAt(
  file: OutlinedInputFile,
  start: number,
  end: number,
  finding: Finding,
): Finding {
  const found = objectAt(file, start);
  const object =
    finding.object === undefined || found === undefined
      ? found
      : {
          ...finding.object,
          ...(found.kind === undefined ? {} : { kind: found.kind }),
          ...(found.namespace === undefined ? {} : { namespace: found.namespace }),
          ...(found.name === undefined ? {} : { name: found.name }),
        };
  // In a kustomize render, a field a patch set is reported on the patch (files/kustomize/patch-fields.ts).
  const patch = file.lines instanceof MappedLineIndex ? file.lines.patchFieldAt(start) : undefined;
  const from = patch?.start ?? file.lines.positionAt(start);
  const to = patch?.end ?? file.lines.positionAt(Math.max(start, end));
  return {
    ...unplaced(finding),
    place: {
      file: patch?.file ?? file.id,
      start: { line: from.line, character: from.character },
      end: { line: to.line, character: to.character },
    },
    ...(object === undefined ? {} : { object }),
  };
}

/** The input file with the objects it defines. */
export function inputFileOf(file: OutlinedInputFile): CliInputFile {
  const subjects = file.analysis.documents.flatMap((document) =>
    document.objects
      .filter((object) => !isListWrapper(object))
      .map((object) => describeFindingObject(objectOf(file.id, document.index, object)) ?? ''),
  );
  return { file: file.id, subjects: [...new Set(subjects)] };
}

/**
 * The object at an offset of a file (the innermost: a List's item rather than the List), else its document, else
 * nothing (a file not analysed).
 */
function objectAt(file: OutlinedInputFile, offset: number): FindingObject | undefined {
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
  return best === undefined
    ? { file: file.id, documentIndex: document.index, path: [] }
    : objectOf(file.id, document.index, best.object);
}

/** An object as a finding names it; a namespaced object without a namespace is in "default", as the engine assumes. */
function objectOf(file: string, documentIndex: number, object: ManifestObject): FindingObject {
  return {
    file,
    documentIndex,
    path: object.path,
    kind: object.kind,
    ...(isClusterScoped(object.apiVersion, object.kind) ? {} : { namespace: object.namespace ?? 'default' }),
    name: object.name ?? '(no name)',
  };
}

/** A `kind: List` (or typed list) document whose items are objects of their own. */
function isListWrapper(object: ManifestObject): boolean {
  return object.path.length === 0 && isListKind(object.kind) && Array.isArray(object.value['items']);
}

/** A finding without its offsets and place (before it is placed again, or left on no file). */
export function unplaced(finding: Finding): Finding {
  const copy: { -readonly [K in keyof Finding]: Finding[K] } = { ...finding };
  delete copy.start;
  delete copy.end;
  delete copy.place;
  return copy;
}
