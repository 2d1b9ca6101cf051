/**
 * Analyses the text of one file: splits it into documents, parses and validates each, and keeps the result of
 * every document keyed by its text so that after a keystroke only the edited document is parsed and validated
 * again. Pure: settings, schemas and rules come in through the context.
 */
import type { Node } from 'yaml';
import type { Finding } from './findings';
import { shiftFinding, sortAndMergeFindings } from './findings';
import type { ManifestObject } from './kubernetes/manifest-object';
import { extractObjects } from './kubernetes/manifest-object';
import type { ApiVersionCheck } from './kubernetes/api-version-check';
import { checkApiVersion } from './kubernetes/api-version-check';
import type { SchemaStore } from './schema/schema-store';
import { validateAgainstSchema } from './schema/validate-object';
import type { YamlDocument } from './yaml/parse-document';
import { parseSlice } from './yaml/parse-document';
import { splitDocuments } from './yaml/split-documents';
import { checkFileContent } from './file-checks';
import { isNotAnApiObject } from './kubernetes/configuration-kinds';

/** A rule about one object that the schema cannot express (names, labels, selectors, …). */
export type ObjectRule = (object: ManifestObject, context: AnalysisContext) => Finding[];

/** Validation of kinds that are not built in (from CustomResourceDefinitions in the workspace). */
export interface CustomKindValidator {
  /** 'unknown' when no CRD defines the kind; else findings of validating the object (possibly none). */
  validate(object: ManifestObject): Finding[] | 'unknown';
}

/** Everything an analysis depends on besides the text. */
export interface AnalysisContext {
  /** Identifies the context's content: cached results are reused only for the same key. */
  readonly key: string;
  readonly store: SchemaStore;
  readonly apiVersions: ApiVersionCheck;
  readonly rules: readonly ObjectRule[];
  readonly customKinds?: CustomKindValidator;
  /** Files longer than this many characters are not analysed. */
  readonly maxFileLength: number;
}

/** One analysed document, with offsets in the file. */
export interface AnalyzedDocument {
  /** The document's index in the file. */
  readonly index: number;
  /** Offset of the document's slice in the file: add it to the YAML node ranges. */
  readonly offset: number;
  readonly yaml: YamlDocument;
  /** Kubernetes objects of the document (several for a List). */
  readonly objects: readonly ManifestObject[];
  /** Findings with offsets in the file. */
  readonly findings: readonly Finding[];
}

/** The analysis of one file. */
export interface FileAnalysis {
  readonly documents: readonly AnalyzedDocument[];
  /** Every finding of the file, sorted and merged. */
  readonly findings: readonly Finding[];
  /** Set when the file as a whole was not analysed (too large, binary, Helm template). */
  readonly skipped?: Finding;
}

interface SliceResult {
  readonly documents: readonly {
    yaml: YamlDocument;
    objects: readonly ManifestObject[];
    findings: readonly Finding[];
  }[];
}

/** Analyses successive versions of one file, reusing the work done for unchanged documents. */
export class FileAnalyzer {
  private cache = new Map<string, SliceResult>();
  private cacheContextKey = '';

  /** Analyses the current text of the file. */
  analyze(text: string, context: AnalysisContext): FileAnalysis {
    const skipped = checkFileContent(text, context.maxFileLength);
    if (skipped !== undefined) {
      this.cache.clear();
      return { documents: [], findings: skipped.report ? [skipped.finding] : [], skipped: skipped.finding };
    }
    if (context.key !== this.cacheContextKey) {
      this.cache.clear();
      this.cacheContextKey = context.key;
    }
    const nextCache = new Map<string, SliceResult>();
    const documents: AnalyzedDocument[] = [];
    const findings: Finding[] = [];
    for (const slice of splitDocuments(text)) {
      let result = this.cache.get(slice.text) ?? nextCache.get(slice.text);
      if (result === undefined) {
        result = analyzeSlice(slice.text, context);
      }
      nextCache.set(slice.text, result);
      for (const document of result.documents) {
        const shifted = document.findings.map((finding) => shiftFinding(finding, slice.start));
        documents.push({
          index: documents.length,
          offset: slice.start,
          yaml: document.yaml,
          objects: document.objects,
          findings: shifted,
        });
        findings.push(...shifted);
      }
    }
    this.cache = nextCache;
    return { documents, findings: sortAndMergeFindings(findings) };
  }
}

/** Analyses a file once, with no cache (the CLI and tests). */
export function analyzeText(text: string, context: AnalysisContext): FileAnalysis {
  return new FileAnalyzer().analyze(text, context);
}

const KUBERNETES_TEXT_PATTERN = /^(?:apiVersion|kind)\s*:/m;

function analyzeSlice(text: string, context: AnalysisContext): SliceResult {
  return {
    documents: parseSlice(text).map((yaml) => {
      const root = (yaml.document?.contents ?? undefined) as Node | undefined;
      const objects = extractObjects(yaml.value, root);
      const looksLikeKubernetes = objects.length > 0 || KUBERNETES_TEXT_PATTERN.test(text);
      const findings: Finding[] = looksLikeKubernetes ? [...yaml.findings] : [];
      for (const object of objects) {
        findings.push(...analyzeObject(object, context));
      }
      return { yaml, objects, findings };
    }),
  };
}

function analyzeObject(object: ManifestObject, context: AnalysisContext): Finding[] {
  if (isNotAnApiObject(object.apiVersion, object.kind, object.value)) {
    return [];
  }
  const versionFindings = checkApiVersion(object, context.store, context.apiVersions, context.customKinds);
  if (versionFindings.stop) {
    return versionFindings.findings;
  }
  const findings = [...versionFindings.findings];
  if (context.store.definitionOf(object.apiVersion, object.kind) !== undefined) {
    findings.push(
      ...validateAgainstSchema(context.store, object.apiVersion, object.kind, object.value, object.node),
    );
  }
  for (const rule of context.rules) {
    findings.push(...rule(object, context));
  }
  return findings;
}
