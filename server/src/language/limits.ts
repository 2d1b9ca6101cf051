/**
 * The limits of the analysis, in one place. Each keeps one hostile or accidental input (a generated 8 MB file, a
 * "billion laughs" alias bomb, 10,000 nested brackets) from hanging the language server or exhausting its memory;
 * each is far above what real manifests need, and each, when hit, is told to the user by one diagnostic instead
 * of silently dropping findings. The README's "Limits" section lists them; keep the two in step.
 *
 * The largest file analysed is a setting (kubeForesight.maxFileSizeKB, default 8 MiB), checked in file-checks.ts.
 */

/**
 * The deepest nesting of collections analysed. The yaml package composes recursively and fails past a few
 * hundred levels with one error per level; real manifests stay under 30.
 */
export const MAX_NESTING_DEPTH = 200;

/**
 * The most alias expansions while turning a document into data (the yaml package's maxAliasCount): the
 * "billion laughs" guard, where nine aliases to nine aliases expand to a billion values.
 */
export const MAX_ALIAS_COUNT = 100;

/**
 * The most anchors and aliases in one document. The yaml package resolves each alias by scanning the
 * document's anchors, so time grows with their product: 20,000 of each took 8 s. Manifests use a handful.
 */
export const MAX_ANCHORS_AND_ALIASES = 1_000;

/**
 * The most YAML nodes in one document, estimated before parsing (see estimateNodeCount). Parsing one document
 * cannot be paused, and the yaml package holds about 1 KB per node while it does: 200,000 nodes is about
 * 200 MB and a second or two. The largest real objects (CustomResourceDefinitions near etcd's 1.5 MiB limit)
 * stay under it.
 */
export const MAX_DOCUMENT_NODES = 200_000;

/**
 * The most YAML nodes analysed in one file, estimated as above: analyses are kept for hover and completion,
 * at a few hundred bytes per node. About 8 MB of typical manifests; the documents beyond are not analysed.
 */
export const MAX_FILE_NODES = 1_000_000;

/** The most documents ("---" sections) analysed in one file; the documents beyond are not analysed. */
export const MAX_DOCUMENTS_PER_FILE = 20_000;

/**
 * The wall-clock time one analysis of a file may take, measured by the language server between batches of
 * documents. Past it the analysis stops, the user is told how far it got, and the next edit carries on from
 * there (analysed documents are cached).
 */
export const ANALYSIS_TIME_BUDGET_MS = 20_000;

/**
 * How much new text (in characters, not counting cached documents) the analysis handles between two pauses,
 * when the language server yields to other requests and checks whether the document changed: about 30 ms of
 * work. A single larger document is analysed in one piece.
 */
export const ANALYSIS_BATCH_CHARACTERS = 32_768;

/** The message when a document has more nodes than MAX_DOCUMENT_NODES. */
export function describeDocumentTooLarge(estimatedNodes: number): string {
  return `This document holds about ${estimatedNodes.toLocaleString('en-US')} YAML values, more than the ${MAX_DOCUMENT_NODES.toLocaleString('en-US')} analysed in one document; it was not analysed.`;
}

/** The message when a document has more anchors and aliases than MAX_ANCHORS_AND_ALIASES. */
export function describeTooManyAnchors(count: number): string {
  return `This document has ${count.toLocaleString('en-US')} anchors and aliases, more than the ${MAX_ANCHORS_AND_ALIASES.toLocaleString('en-US')} analysed; it was not analysed.`;
}

/** Why an analysis stopped before the end of the file. */
export type IncompleteReason = 'time-budget' | 'too-many-documents' | 'too-many-nodes';

/** The message when an analysis stops before the end of the file; it is placed on the first document left out. */
export function describeIncompleteAnalysis(
  reason: IncompleteReason,
  analyzedDocuments: number,
  totalDocuments: number,
): string {
  const done = `${analyzedDocuments.toLocaleString('en-US')} of ${totalDocuments.toLocaleString('en-US')} documents`;
  switch (reason) {
    case 'time-budget':
      return `The analysis of this file took longer than ${ANALYSIS_TIME_BUDGET_MS / 1000} s and stopped here, after ${done}; the rest was not analysed. The next edit carries on from here.`;
    case 'too-many-documents':
      return `This file has more than ${MAX_DOCUMENTS_PER_FILE.toLocaleString('en-US')} documents; only the first ${done} were analysed.`;
    case 'too-many-nodes':
      return `This file holds more than the ${MAX_FILE_NODES.toLocaleString('en-US')} YAML values analysed in one file; the analysis stopped here, after ${done}.`;
  }
}
