/**
 * An analysis without its YAML nodes: what the readers of many files (the manifest reader, cross-object rules,
 * the naming of places, the CLI's subjects) need of each file. A FileAnalysis is one; `outlineOf` makes one that
 * crosses a thread boundary (structured clone), for `foresight validate`'s worker threads, whose nodes stay behind.
 */
import type { AnalyzedDocument, FileAnalysis } from '../analyzer';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { objectRangeOf } from '../kubernetes/manifest-object';
import type { YamlDocument } from '../yaml/parse-document';

/** A document as the readers of many files see it: objects, findings, where it starts. */
export type DocumentOutline = Pick<AnalyzedDocument, 'index' | 'offset' | 'objects' | 'findings'> & {
  readonly yaml: Pick<YamlDocument, 'start'>;
};

/** A file's analysis as the readers of many files see it. */
export type AnalysisOutline = Pick<FileAnalysis, 'findings' | 'skipped' | 'kustomizeFragment'> & {
  readonly documents: readonly DocumentOutline[];
};

/** The outline of an analysis as plain data: each object keeps its node's range in place of the node. */
export function outlineOf(analysis: FileAnalysis): AnalysisOutline {
  return {
    findings: analysis.findings,
    ...(analysis.skipped === undefined ? {} : { skipped: analysis.skipped }),
    ...(analysis.kustomizeFragment === true ? { kustomizeFragment: true } : {}),
    documents: analysis.documents.map((document) => ({
      index: document.index,
      offset: document.offset,
      findings: document.findings,
      yaml: { start: document.yaml.start },
      objects: document.objects.map(plainObject),
    })),
  };
}

function plainObject(object: ManifestObject): ManifestObject {
  const range = objectRangeOf(object);
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    name: object.name,
    namespace: object.namespace,
    value: object.value,
    node: undefined,
    path: object.path,
    ...(range === undefined ? {} : { range }),
  };
}
