/**
 * The one YAML parser interface of the language server: the documents of a slice, as yaml's parseAllDocuments
 * gives them. A fast path (fast/fast-document.ts) builds the very same node objects for the block YAML that
 * manifests are written in, several times faster than the package; any text it is not sure of (anchors, tags,
 * nested flow, multi-line scalars, errors of any kind) is parsed by the package, which is always right. The
 * differential test (test/language/yaml/fast-parse-differential.test.ts) holds the two to the same result.
 */
import { parseAllDocuments } from 'yaml';
import type { Document, ParsedNode } from 'yaml';
import { parseFastDocument } from './fast/fast-document';
import type { FastParseOptions } from './fast/fast-document';

/** The documents of a slice, and whether the fast path read them. */
export interface ParsedYaml {
  readonly documents: Document.Parsed<ParsedNode>[];
  readonly isFast: boolean;
}

/** Parses `text` as parseAllDocuments(text, options) does, taking the fast path where it can. */
export function parseYaml(text: string, options: FastParseOptions): ParsedYaml {
  const fast = parseFastDocument(text, options);
  if (fast !== undefined) {
    return { documents: [fast], isFast: true };
  }
  const documents = parseAllDocuments(text, options);
  return { documents: Array.isArray(documents) ? documents : [], isFast: false };
}
