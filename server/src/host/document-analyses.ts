/**
 * The latest analysis of each open document, with the analyzer that keeps its per-document cache. Analyses
 * run cooperatively: a large file does not block other requests, and a stale version's run is dropped.
 */
import type { AnalysisContext, DocumentState, FileAnalyzer, LanguageService } from '../language/service';
import { LineIndex } from '../language/service';
import { driveAnalysis } from './analysis-runner';

interface PendingAnalysis {
  readonly version: number;
  readonly context: AnalysisContext;
  readonly text: string;
  readonly result: Promise<DocumentState | undefined>;
}

/** Analyses of open documents, by URI. */
export class DocumentAnalyses {
  private readonly analyzers = new Map<string, FileAnalyzer>();

  constructor(private readonly service: Pick<LanguageService, 'newAnalyzer'>) {}

  private readonly states = new Map<string, DocumentState>();
  /** The analysis under way per document, shared by the requests that need that version. */
  private readonly pending = new Map<string, PendingAnalysis>();

  /**
   * Analyses a document version cooperatively (see driveAnalysis), reusing unchanged documents of the previous
   * version, and keeps the result. Resolves to undefined when the version became stale during the analysis;
   * a request for a version already being analysed shares that run.
   */
  update(
    uri: string,
    version: number,
    text: string,
    context: AnalysisContext,
    isStale: () => boolean,
  ): Promise<DocumentState | undefined> {
    const previous = this.states.get(uri);
    if (
      previous !== undefined &&
      previous.version === version &&
      previous.context === context &&
      previous.text === text
    ) {
      return Promise.resolve(previous);
    }
    const pending = this.pending.get(uri);
    if (
      pending !== undefined &&
      pending.version === version &&
      pending.context === context &&
      pending.text === text
    ) {
      return pending.result;
    }
    let analyzer = this.analyzers.get(uri);
    if (analyzer === undefined) {
      analyzer = this.service.newAnalyzer();
      this.analyzers.set(uri, analyzer);
    }
    const run = analyzer.analyzeInBatches(text, context);
    const result = driveAnalysis(run, { isStale }).then((analysis): DocumentState | undefined => {
      if (this.pending.get(uri)?.result === result) {
        this.pending.delete(uri);
      }
      if (analysis === undefined || isStale()) {
        return undefined;
      }
      const state: DocumentState = { uri, version, text, lines: new LineIndex(text), analysis, context };
      // Kept only if the document was not closed, nor the analyses cleared, while it ran.
      if (this.analyzers.get(uri) === analyzer) {
        this.states.set(uri, state);
      }
      return state;
    });
    this.pending.set(uri, { version, context, text, result });
    return result;
  }

  /** The latest analysis of a document, if any. */
  get(uri: string): DocumentState | undefined {
    return this.states.get(uri);
  }

  /** Forgets a closed document. */
  remove(uri: string): void {
    this.analyzers.delete(uri);
    this.states.delete(uri);
    this.pending.delete(uri);
  }

  /** Forgets every analysis (settings changed). */
  clear(): void {
    this.analyzers.clear();
    this.states.clear();
    this.pending.clear();
  }
}
