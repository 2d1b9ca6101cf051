/**
 * A cluster capture read as data, for captures too large for the editing analysis: `kubectl get … -A -o yaml`
 * of a real cluster is one `kind: List` document of millions of YAML values, past the analyser's per-document
 * and per-file limits (language/limits.ts), which exist to keep typing responsive, not to refuse a cluster.
 * JSON (`-o json`) is parsed with JSON.parse; YAML as kubectl writes it line by line (kubectl-yaml.ts: 6.7 s
 * where js-yaml took 17 s on 150,000 pods), anything else with js-yaml, which builds plain data without the editing
 * AST: on a 15 MB capture of 1,000 nodes and 20,000 pods it takes 0.7 s and 155 MB where yaml's document API takes
 * 8 s and 1 GB. kubectl writes no aliases; a capture with more than a hundred is refused (the alias bomb guard).
 * A JSON capture is not faster end to end: `foresight simulate` on 150,000 pods took as much CPU and 1.6 GB peak
 * where the YAML took 1.2 GB.
 * Objects keep their document index; findings about them are placed on their document, not their field.
 */
import * as jsYaml from 'js-yaml';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import type { Type } from 'js-yaml';
import { isCaptureHeader } from '../../engine/model/load/capture-header';
import type { SourcedObject } from '../../engine/model/load/cluster-load';
import { readKubectlYaml } from './kubectl-yaml';

/** The objects of a capture, or why it could not be read. */
export type CaptureRead =
  { readonly ok: true; readonly objects: SourcedObject[] } | { readonly ok: false; readonly message: string };

/**
 * The YAML types a capture is read with: YAML 1.2's core scalars and merge keys, as sigs.k8s.io/yaml gives the API
 * server. Not js-yaml's default schema, which makes an unquoted `startTime: 2026-11-01T00:00:00Z` a Date (the
 * engine reads times as strings, so the pod's start time was lost) and tries a timestamp pattern on every
 * plain scalar (about a tenth of the reading of a 150,000-pod capture).
 */
const CAPTURE_SCHEMA = CORE_SCHEMA.extend({
  // js-yaml exports its built-in types as `types`; @types/js-yaml does not declare them.
  implicit: [(jsYaml as unknown as { types: { merge: Type } }).types.merge],
});

/** The most aliases, as the analyser allows (the "billion laughs" guard). */
const MAX_ALIAS_COUNT = 100;

/** An alias token (`*name`) where YAML allows one: after a space, a flow indicator or a line start. */
const ALIAS_PATTERN = /(?:^|[\s[{,])\*[^\s,\]}]+/gm;

/**
 * One value's text read by js-yaml with the capture schema, as the value of a one-key document: what the fast
 * reader (kubectl-yaml.ts) hands over. Throws when that is not one mapping of the one key.
 */
export function loadCaptureValue(valueText: string): unknown {
  const documents = loadAll(`k: ${valueText}`, null, { json: true, schema: CAPTURE_SCHEMA });
  const [document] = documents;
  if (
    documents.length !== 1 ||
    document === null ||
    typeof document !== 'object' ||
    Array.isArray(document)
  ) {
    throw new Error('not one value');
  }
  const keys = Object.keys(document);
  if (keys.length !== 1 || keys[0] !== 'k') {
    throw new Error('not one value');
  }
  return (document as Record<string, unknown>)['k'];
}

/** Reads a capture's text (JSON or YAML, one or more documents). */
export function readCaptureText(id: string, text: string): CaptureRead {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      const documents = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
      return {
        ok: true,
        objects: documents.map((object, documentIndex) => ({
          object,
          source: { file: id, documentIndex, path: [] },
        })),
      };
    } catch (error) {
      return {
        ok: false,
        message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  // kubectl's own YAML is read line by line; anything else (or anything odd) by js-yaml, with the alias guard.
  const fast = readKubectlYaml(text, loadCaptureValue);
  const aliases = fast === undefined ? (text.match(ALIAS_PATTERN)?.length ?? 0) : 0;
  if (aliases > MAX_ALIAS_COUNT) {
    return { ok: false, message: `${aliases} YAML aliases, more than the ${MAX_ALIAS_COUNT} allowed` };
  }
  try {
    const documents = fast ?? loadAll(text, null, { json: true, schema: CAPTURE_SCHEMA });
    const objects: SourcedObject[] = [];
    documents.forEach((object, documentIndex) => {
      if (object !== null && object !== undefined) {
        objects.push({ object, source: { file: id, documentIndex, path: [] } });
      }
    });
    return { ok: true, objects };
  } catch (caught) {
    return {
      ok: false,
      message: `not valid YAML: ${caught instanceof Error ? caught.message : String(caught)}`,
    };
  }
}

/** What the check reads of a file's analysis: its findings' codes and why it skipped the file. */
interface AnalysisCodes {
  readonly findings: readonly { readonly code: string }[];
  readonly skipped?: { readonly code: string };
}

/** Whether an analysis left a file (or a document of it) out for its size: the capture reader reads it whole. */
export function isTooLargeForAnalysis(analysis: AnalysisCodes): boolean {
  return [...analysis.findings, ...(analysis.skipped === undefined ? [] : [analysis.skipped])].some(
    ({ code }) =>
      code === 'file-too-large' || code === 'document-too-large' || code === 'analysis-incomplete',
  );
}

/**
 * The Capture header of a capture's text (its first document, as `foresight capture` writes it), without reading
 * the rest: the version a capture implies is needed before the manifests are read. Null when the first document
 * is not a header, or not YAML.
 */
export function captureHeaderObject(text: string): Record<string, unknown> | null {
  const lines: string[] = [];
  let hasContent = false;
  for (const line of text.split('\n', 200)) {
    if (line.startsWith('---')) {
      if (hasContent) {
        break;
      }
      continue;
    }
    hasContent ||= line.trim() !== '' && !line.trimStart().startsWith('#');
    lines.push(line);
  }
  try {
    const [object] = loadAll(lines.join('\n'), null, { json: true, schema: CAPTURE_SCHEMA });
    return isCaptureHeader(object) ? (object as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
