/**
 * Analyses the text of one file: splits it into documents, parses and validates each, and keeps the result of
 * every document keyed by its text so that after a keystroke only the edited document is parsed and validated
 * again. Pure: settings, schemas and rules come in through the context.
 */
import type { Node } from 'yaml';
import type { TextFinding } from './findings';
import { shiftFinding, sortAndMergeFindings, severityOf } from './findings';
import type { ManifestObject } from './kubernetes/manifest-object';
import { extractObjects } from './kubernetes/manifest-object';
import type { ApiVersionCheck } from './kubernetes/api-version-check';
import { checkApiVersion } from './kubernetes/api-version-check';
import type { SchemaStore } from './schema/schema-store';
import { validateAgainstSchema } from './schema/validate-object';
import type { YamlDocument, SliceMeasures } from './yaml/parse-document';
import { parseSlice } from './yaml/parse-document';
import { splitDocuments } from './yaml/split-documents';
import type { TemplatedDocument } from './file-checks';
import { checkFileContent, findTemplateText, helmChartVerdict, templateVerdict } from './file-checks';
import type { TemplateSite } from './yaml/template-text';
import { isNotAnApiObject } from './kubernetes/configuration-kinds';
import type { IncompleteReason } from './limits';
import {
  ANALYSIS_BATCH_CHARACTERS,
  describeIncompleteAnalysis,
  MAX_DOCUMENT_NODES,
  MAX_DOCUMENTS_PER_FILE,
  MAX_FILE_NODES,
} from './limits';
import { estimateNodeCount } from './yaml/node-estimate';
import { findExcessiveNesting } from './yaml/nesting';
import type { KustomizeRole } from './kustomize/kustomization';
import { checkJsonPatch, withoutPatchDirectives } from './kustomize/patch-checks';
import { checkKustomization } from './kustomize/kustomization-checks';
import { appendAll } from '../../../protocol/collections';

/** A rule about one object that the schema cannot express (names, labels, selectors, …). */
export type ObjectRule = (object: ManifestObject, context: AnalysisContext) => TextFinding[];

/** Validation of kinds that are not built in (from CustomResourceDefinitions in the workspace). */
export interface CustomKindValidator {
  /** 'unknown' when no CRD defines the kind; else findings of validating the object (possibly none). */
  validate(object: ManifestObject): TextFinding[] | 'unknown';
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
  /** What kustomize makes of the file, when a kustomization names it (see kustomize/role-context.ts). */
  readonly kustomizeRole?: KustomizeRole;
  /**
   * The Helm chart the file belongs to (its folder's name), set by the host for a file inside a chart folder: the
   * chart is rendered as a unit, so the file is skipped whole, as the CLI skips the chart.
   */
  readonly helmChart?: string;
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
  readonly findings: readonly TextFinding[];
}

/** The analysis of one file. */
export interface FileAnalysis {
  readonly documents: readonly AnalyzedDocument[];
  /** Every finding of the file, sorted and merged. */
  readonly findings: readonly TextFinding[];
  /** Set when the file as a whole was not analysed (too large, binary, Helm template). */
  readonly skipped?: TextFinding;
  /**
   * Set when a kustomization names the file as a patch or a transformer's configuration: its objects are
   * fragments kustomize merges, not objects to apply, and the manifest reader leaves them out.
   */
  readonly kustomizeFragment?: true;
}

interface SliceResult {
  /** estimateNodeCount of the slice's text, counted against MAX_FILE_NODES (0 for template text). */
  readonly estimatedNodes: number;
  /** Set when the slice is template text: where, in the slice; it is then not parsed. */
  readonly template?: TemplateSite;
  readonly documents: readonly {
    yaml: YamlDocument;
    objects: readonly ManifestObject[];
    findings: readonly TextFinding[];
  }[];
}

/** How far a cooperative analysis has got; yielded between batches of documents. */
interface AnalysisProgress {
  /** Documents (slices of the file between "---" lines) analysed or taken from the cache so far. */
  readonly analyzedDocuments: number;
  /** Documents in the file (those beyond MAX_DOCUMENTS_PER_FILE included). */
  readonly totalDocuments: number;
}

/**
 * What the host answers a paused analysis: carry on, or stop now and return what is done, with one
 * information finding on the first document left out ('stop': the time budget ran out, or the host drops the
 * result because the document changed).
 */
type AnalysisCommand = 'continue' | 'stop';

/** A cooperative analysis: pauses between batches; the host drives it with next(command). */
export type AnalysisRun = Generator<AnalysisProgress, FileAnalysis, AnalysisCommand | undefined>;

/** Analyses successive versions of one file, reusing the work done for unchanged documents. */
export class FileAnalyzer {
  private cache = new Map<string, SliceResult>();
  private cacheContextKey = '';

  /** Analyses the current text of the file, all at once. */
  analyze(text: string, context: AnalysisContext): FileAnalysis {
    const run = this.analyzeInBatches(text, context);
    let step = run.next();
    while (step.done !== true) {
      step = run.next('continue');
    }
    return step.value;
  }

  /**
   * Analyses the text in batches of about `batchCharacters` of uncached text, pausing after each so
   * that the host can answer other requests, drop work for a stale version, or stop at its time budget. Pure:
   * the host owns the clock. Documents analysed before a stop stay cached for the next run.
   */
  *analyzeInBatches(
    text: string,
    context: AnalysisContext,
    batchCharacters: number = ANALYSIS_BATCH_CHARACTERS,
  ): AnalysisRun {
    const skipped =
      context.helmChart === undefined
        ? checkFileContent(text, context.maxFileLength)
        : helmChartVerdict(text, context.helmChart);
    if (skipped !== undefined) {
      this.cache.clear();
      return { documents: [], findings: skipped.report ? [skipped.finding] : [], skipped: skipped.finding };
    }
    if (context.key !== this.cacheContextKey) {
      this.cache = new Map();
      this.cacheContextKey = context.key;
    }
    // This run reads only the cache of its own context, even if a run for another context starts meanwhile.
    const previous = this.cache;
    const nextCache = new Map<string, SliceResult>();
    const slices = splitDocuments(text);
    const documents: AnalyzedDocument[] = [];
    const findings: TextFinding[] = [];
    let analyzed = 0;
    let nodes = 0;
    let batchSize = 0;
    let stopReason: IncompleteReason | undefined;
    const templated: TemplatedDocument[] = [];
    try {
      for (const slice of slices) {
        if (analyzed >= MAX_DOCUMENTS_PER_FILE) {
          stopReason = 'too-many-documents';
          break;
        }
        let result = previous.get(slice.text) ?? nextCache.get(slice.text);
        // A document over MAX_DOCUMENT_NODES is refused unparsed (parseSlice), so it costs nothing here.
        const estimated = result?.estimatedNodes ?? estimateNodeCount(slice.text);
        // Template text is not the manifest it will become: the document is left out (kept as an empty
        // placeholder so that document indexes stay positions in the file), the others are analysed. The
        // verdict is cached with the slice, so an unchanged template is not tokenized again.
        // A document over the limits is refused unparsed (parseSlice): its tokens are not read for template text
        // either, since tokenizing hostile nesting costs seconds.
        let nesting: { tooDeepAt: number | undefined } | undefined;
        if (result === undefined && estimated <= MAX_DOCUMENT_NODES) {
          nesting = { tooDeepAt: findExcessiveNesting(slice.text) };
        }
        if (nesting !== undefined && nesting.tooDeepAt === undefined) {
          const site = findTemplateText(slice.text);
          if (site !== undefined) {
            result = { estimatedNodes: 0, documents: [], template: site };
          }
        }
        if (result?.template !== undefined) {
          templated.push({
            index: documents.length,
            offset: slice.start,
            start: slice.start + result.template.start,
            end: slice.start + result.template.end,
          });
          nextCache.set(slice.text, result);
          analyzed++;
          documents.push(templatePlaceholder(documents.length, slice.start, slice.text.length));
          continue;
        }
        const cost = estimated > MAX_DOCUMENT_NODES ? 0 : estimated;
        if (nodes + cost > MAX_FILE_NODES) {
          stopReason = 'too-many-nodes';
          break;
        }
        nodes += cost;
        if (result === undefined) {
          if (batchSize >= batchCharacters) {
            batchSize = 0;
            const command = yield { analyzedDocuments: analyzed, totalDocuments: slices.length };
            if (command === 'stop') {
              stopReason = 'time-budget';
              break;
            }
          }
          batchSize += slice.text.length;
          result = analyzeSlice(slice.text, { estimatedNodes: estimated, nesting }, context);
        }
        nextCache.set(slice.text, result);
        analyzed++;
        for (const document of result.documents) {
          const shifted = document.findings.map((finding) => shiftFinding(finding, slice.start));
          documents.push({
            index: documents.length,
            offset: slice.start,
            yaml: document.yaml,
            objects: document.objects,
            findings: shifted,
          });
          appendAll(findings, shifted);
        }
      }
    } finally {
      // Keep what this run analysed, and the old results of the documents it did not reach.
      for (const slice of slices.slice(analyzed)) {
        const old = previous.get(slice.text);
        if (old !== undefined) {
          nextCache.set(slice.text, old);
        }
      }
      if (this.cacheContextKey === context.key) {
        this.cache = nextCache;
      }
    }
    if (templated.length > 0) {
      const templatedOffsets = new Set(templated.map((document) => document.offset));
      const skippedWhole = slices.every((slice) => templatedOffsets.has(slice.start) || isBlank(slice.text));
      const verdict = templateVerdict(text, templated, slices.length, skippedWhole);
      if (verdict !== undefined && skippedWhole) {
        return {
          documents: [],
          findings: verdict.report ? [verdict.finding] : [],
          skipped: verdict.finding,
        };
      }
      if (verdict?.report === true) {
        findings.push(verdict.finding);
      }
    }
    const notObject = notAnObjectFinding(documents);
    if (notObject !== undefined) {
      findings.push(notObject);
    }
    const firstLeftOut = slices[analyzed];
    // Like syntax findings, told only for files that look like Kubernetes manifests.
    if (stopReason !== undefined && firstLeftOut !== undefined && KUBERNETES_TEXT_PATTERN.test(text)) {
      findings.push({
        code: 'analysis-incomplete',
        severity: severityOf('analysis-incomplete'),
        message: describeIncompleteAnalysis(stopReason, analyzed, slices.length),
        start: firstLeftOut.start,
        end: firstLeftOut.start + Math.max(1, lineLength(firstLeftOut.text)),
      });
    }
    const role = context.kustomizeRole?.kind;
    const fragment = role === 'patch' || role === 'transformer-config' || role === 'unlisted';
    if (role === 'unlisted' && documents.some((document) => document.objects.length > 0)) {
      findings.push(unlistedFinding(text));
    }
    return {
      documents,
      findings: sortAndMergeFindings(findings),
      ...(fragment ? { kustomizeFragment: true } : {}),
    };
  }
}

/** Analyses a file once, with no cache (the CLI and tests). */
export function analyzeText(text: string, context: AnalysisContext): FileAnalysis {
  return new FileAnalyzer().analyze(text, context);
}

/** What kustomize's `commonLabels` and `labels` with includeSelectors add to every workload: its selector. */
const SELECTOR_SUPPLIED: ReadonlyMap<string, readonly string[]> = new Map([['/spec', ['selector']]]);

const KUBERNETES_TEXT_PATTERN = /^(?:apiVersion|kind)\s*:/m;

function analyzeSlice(text: string, measures: SliceMeasures, context: AnalysisContext): SliceResult {
  return {
    estimatedNodes: measures.estimatedNodes,
    documents: parseSlice(text, measures).map((yaml) => {
      const root = (yaml.document?.contents ?? undefined) as Node | undefined;
      const objects = extractObjects(yaml.value, root);
      const looksLikeKubernetes = objects.length > 0 || KUBERNETES_TEXT_PATTERN.test(text);
      const role = context.kustomizeRole?.kind;
      const isJsonPatch = role === 'patch' && Array.isArray(yaml.value);
      const findings: TextFinding[] =
        looksLikeKubernetes || isJsonPatch || role === 'kustomization' ? [...yaml.findings] : [];
      if (isJsonPatch) {
        appendAll(findings, checkJsonPatch(yaml.value as unknown[], root));
      }
      if (role === 'kustomization') {
        appendAll(findings, checkKustomization(yaml.value, root));
      }
      for (const object of objects) {
        appendAll(findings, analyzeObject(object, context, text));
      }
      return { yaml, objects, findings };
    }),
  };
}

function analyzeObject(object: ManifestObject, context: AnalysisContext, text: string): TextFinding[] {
  const role = context.kustomizeRole;
  if (
    role?.kind === 'transformer-config' ||
    role?.kind === 'unlisted' ||
    isNotAnApiObject(object.apiVersion, object.kind, object.value)
  ) {
    return [];
  }
  const versionFindings = checkApiVersion(
    object,
    context.store,
    context.apiVersions,
    context.customKinds,
    text,
  );
  if (versionFindings.stop) {
    return versionFindings.findings;
  }
  const findings = [...versionFindings.findings];
  const isPatch = role?.kind === 'patch';
  if (context.store.definitionOf(object.apiVersion, object.kind) !== undefined) {
    appendAll(
      findings,
      validateAgainstSchema(
        context.store,
        object.apiVersion,
        object.kind,
        isPatch ? withoutPatchDirectives(object.value) : object.value,
        object.node,
        { partial: isPatch, supplied: role?.selectorSupplied === true ? SELECTOR_SUPPLIED : undefined },
      ),
    );
  }
  // The rules judge whole objects; a patch is a fragment of one, merged before anything is sent.
  if (isPatch) {
    return findings;
  }
  for (const rule of context.rules) {
    appendAll(findings, rule(object, context));
  }
  return findings;
}

/**
 * One note for a file of Kubernetes objects some of whose documents are other YAML (no apiVersion and kind):
 * kubectl apply refuses such a document ("apiVersion not set, kind not set"), so it is skipped, and said once.
 * A file with no Kubernetes object at all (a CI workflow, Helm values) is not ours and gets nothing.
 */
function notAnObjectFinding(documents: readonly AnalyzedDocument[]): TextFinding | undefined {
  if (!documents.some((document) => document.objects.length > 0)) {
    return undefined;
  }
  const others = documents.filter(
    (document) =>
      document.objects.length === 0 &&
      document.yaml.document !== null &&
      document.yaml.value !== null &&
      document.yaml.value !== undefined &&
      document.yaml.findings.length === 0,
  );
  const first = others[0];
  if (first === undefined) {
    return undefined;
  }
  const count = others.length === 1 ? 'document' : `${others.length} documents`;
  const which = others.map((document) => document.index + 1).join(', ');
  return {
    code: 'document-not-an-object',
    severity: severityOf('document-not-an-object'),
    message: `This file's ${count} ${which} ${others.length === 1 ? 'is' : 'are'} not a Kubernetes object (no apiVersion and kind): kubectl apply refuses ${others.length === 1 ? 'it' : 'them'} ("apiVersion not set, kind not set"), so ${others.length === 1 ? 'it is' : 'they are'} left out.`,
    start: first.offset + first.yaml.start,
    end: first.offset + first.yaml.start + 1,
  };
}

/** An analysed document standing for a document of template text, which is not analysed. */
function templatePlaceholder(index: number, offset: number, length: number): AnalyzedDocument {
  return {
    index,
    offset,
    yaml: { document: null, value: undefined, findings: [], start: 0, end: length },
    objects: [],
    findings: [],
  };
}

/** Whether a document's text holds nothing but comments, blank lines and markers. */
function isBlank(text: string): boolean {
  return text.split('\n').every((line) => /^[ \t]*(?:#.*|---.*|\.\.\.[ \t]*)?\r?$/.test(line));
}

function lineLength(text: string): number {
  const newline = text.indexOf('\n');
  return newline === -1 ? text.length : newline;
}

/**
 * The note on a file beside a kustomization that does not list it: `kubectl apply -k` applies the render only, so
 * the file is checked as nothing (docs/cli.md, "Apply units"); on its first line.
 */
function unlistedFinding(text: string): TextFinding {
  return {
    code: 'unit-file-unlisted',
    severity: severityOf('unit-file-unlisted'),
    message:
      'This file is beside a kustomization that does not list it (not as a resource, patch or component, nor through its bases): kubectl apply -k applies the render only, so no apply applies it, and it is not checked as manifests. List it in the kustomization to apply it.',
    start: 0,
    end: Math.max(1, lineLength(text)),
  };
}
