/**
 * The latest analysis of each open document, with the analyzer that keeps its per-document cache.
 */
import type { FileAnalysis } from '../language/analyzer';
import { FileAnalyzer } from '../language/analyzer';
import type { AnalysisContext } from '../language/analyzer';
import { LineIndex } from '../language/text/line-index';

/** One analysed version of a document. */
export interface DocumentState {
  readonly uri: string;
  readonly version: number;
  readonly text: string;
  readonly lines: LineIndex;
  readonly analysis: FileAnalysis;
  readonly context: AnalysisContext;
}

/** Analyses of open documents, by URI. */
export class DocumentAnalyses {
  private readonly analyzers = new Map<string, FileAnalyzer>();
  private readonly states = new Map<string, DocumentState>();

  /** Analyses a document version (reusing unchanged documents of the previous version) and keeps the result. */
  update(uri: string, version: number, text: string, context: AnalysisContext): DocumentState {
    const previous = this.states.get(uri);
    if (
      previous !== undefined &&
      previous.version === version &&
      previous.context === context &&
      previous.text === text
    ) {
      return previous;
    }
    let analyzer = this.analyzers.get(uri);
    if (analyzer === undefined) {
      analyzer = new FileAnalyzer();
      this.analyzers.set(uri, analyzer);
    }
    const state: DocumentState = {
      uri,
      version,
      text,
      lines: new LineIndex(text),
      analysis: analyzer.analyze(text, context),
      context,
    };
    this.states.set(uri, state);
    return state;
  }

  /** The latest analysis of a document, if any. */
  get(uri: string): DocumentState | undefined {
    return this.states.get(uri);
  }

  /** Forgets a closed document. */
  remove(uri: string): void {
    this.analyzers.delete(uri);
    this.states.delete(uri);
  }

  /** Forgets every analysis (settings changed). */
  clear(): void {
    this.analyzers.clear();
    this.states.clear();
  }
}
