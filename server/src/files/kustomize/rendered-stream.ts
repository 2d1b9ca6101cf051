/**
 * kustomize's output cut into its objects, each without the origin annotation the wrapper asked for
 * (render-kustomization.ts). kustomize writes the stream with kyaml: documents separated by a `---` line, two
 * spaces of indent, and the origin, a string of several lines, as a literal block under metadata.annotations:
 *
 *     metadata:
 *       annotations:
 *         config.kubernetes.io/origin: |
 *           path: ../app/deployment.yaml
 *
 * So each object is cut from the text and its origin lines removed as text, which keeps kustomize's own text and
 * costs a scan; parsing the stream and writing every document back out took seconds on a render of several MB
 * (kube-prometheus: 5.8 MB, 131 objects). A document in another shape is parsed and written back, as before.
 * https://github.com/kubernetes-sigs/kustomize/blob/master/api/resource/origin.go
 */
import { isMap, isScalar, parseAllDocuments } from 'yaml';
import type { Document } from 'yaml';
import type { RenderedObject } from '../../language/service';
import { resolve } from 'node:path';

/** The annotation kustomize's originAnnotations option adds; not the user's, removed before checking. */
const ORIGIN_ANNOTATION = 'config.kubernetes.io/origin';

/** A document separator of the stream: `---` alone on its line. */
const SEPARATOR = /^---[ \t]*$/m;
const ORIGIN_LINE = /^ {4}config\.kubernetes\.io\/origin: \|-?$/;

/** The rendered stream's objects, each with its source (resolved against the wrapper's folder). */
export function splitRendered(stream: string, wrapper: string): RenderedObject[] {
  return stream.split(SEPARATOR).flatMap((piece): RenderedObject[] => {
    const text = piece.startsWith('\n') ? piece.slice(1) : piece;
    if (text.trim() === '') {
      return [];
    }
    const cut = cutOrigin(text);
    return cut === undefined ? reparsed(text, wrapper) : [objectOf(cut.text, cut.origin, wrapper)];
  });
}

/** A rendered object from its text and origin (the annotation's value, when there was one). */
function objectOf(text: string, origin: string | undefined, wrapper: string): RenderedObject {
  const path = /^path: *(.+)$/m.exec(origin ?? '')?.[1];
  const configuredIn = /^configuredIn: *(.+)$/m.exec(origin ?? '')?.[1];
  const source = path ?? configuredIn;
  return {
    text,
    source: source === undefined ? '' : resolve(wrapper, unquote(source)),
    isDefinedInSource: path !== undefined,
  };
}

/**
 * The document's text without its origin lines (and without `annotations:` when they were its only ones), and the
 * origin; undefined when the document is not in kyaml's shape (then it is parsed). A document with no
 * annotations at all has no origin.
 */
function cutOrigin(text: string): { text: string; origin: string | undefined } | undefined {
  const lines = text.split('\n');
  const metadata = lines.indexOf('metadata:');
  if (metadata === -1 || !/^[A-Za-z"']/.test(lines[0] ?? '')) {
    return undefined;
  }
  // The line `  annotations:` among metadata's own keys (indent 2; deeper lines belong to them).
  let annotations = -1;
  let line = metadata + 1;
  for (; line < lines.length && isInside(lines[line] ?? '', 2); line++) {
    if (lines[line] === '  annotations:') {
      annotations = line;
      break;
    }
  }
  if (annotations === -1) {
    return text.includes(ORIGIN_ANNOTATION) ? undefined : { text, origin: undefined };
  }
  let origin = -1;
  for (line = annotations + 1; line < lines.length && isInside(lines[line] ?? '', 4); line++) {
    if (ORIGIN_LINE.test(lines[line] ?? '')) {
      origin = line;
      break;
    }
  }
  if (origin === -1) {
    return text.includes(ORIGIN_ANNOTATION) ? undefined : { text, origin: undefined };
  }
  let end = origin + 1;
  while (end < lines.length && (lines[end] ?? '').startsWith('      ') && (lines[end] ?? '').trim() !== '') {
    end++;
  }
  if (end === origin + 1) {
    return undefined;
  }
  const value = lines.slice(origin + 1, end).map((entry) => entry.slice(6));
  let next = end;
  while (next < lines.length && (lines[next] ?? '').trim() === '') {
    next++;
  }
  const alone = origin === annotations + 1 && (next === lines.length || !isInside(lines[next] ?? '', 4));
  lines.splice(alone ? annotations : origin, end - (alone ? annotations : origin));
  const rest = lines.join('\n');
  // Another origin left (a second one, or one in a block kyaml would not write) is not guessed at.
  return rest.includes(ORIGIN_ANNOTATION) ? undefined : { text: rest, origin: value.join('\n') };
}

/** Whether a line lies inside a block whose keys are indented by `indent`: more indented, or blank. */
function isInside(line: string, indent: number): boolean {
  return line.trim() === '' || line.startsWith(' '.repeat(indent));
}

/** A document in another shape: parsed, its origin removed, and written back out. */
function reparsed(text: string, wrapper: string): RenderedObject[] {
  return parseAllDocuments(text).flatMap((document): RenderedObject[] => {
    if (document.contents === null) {
      return [];
    }
    const origin = takeOrigin(document);
    // A document after the first keeps a `---` marker; the texts are joined with their own.
    return [objectOf(document.toString({ lineWidth: 0 }).replace(/^---[ \t]*\n/, ''), origin, wrapper)];
  });
}

/** Removes the origin annotation (and the annotations left empty) and returns its value. */
function takeOrigin(document: Document): string | undefined {
  const annotations = document.getIn(['metadata', 'annotations'], true);
  if (!isMap(annotations)) {
    return undefined;
  }
  const value = annotations.get(ORIGIN_ANNOTATION, true);
  annotations.delete(ORIGIN_ANNOTATION);
  if (annotations.items.length === 0) {
    document.deleteIn(['metadata', 'annotations']);
  }
  return isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
}

function unquote(text: string): string {
  const trimmed = text.trim();
  return /^(['"]).*\1$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
}
