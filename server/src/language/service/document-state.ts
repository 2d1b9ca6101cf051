/**
 * One analysed version of an open document, as the service answers requests on it (hover, lenses, fixes,
 * diagnostics). The host keeps these per document (host/document-analyses.ts); the service only reads them.
 */
import type { AnalysisContext, FileAnalysis } from '../analyzer';
import type { LineIndex } from '../text/line-index';

/** One analysed version of a document. */
export interface DocumentState {
  readonly uri: string;
  readonly version: number;
  readonly text: string;
  readonly lines: LineIndex;
  readonly analysis: FileAnalysis;
  readonly context: AnalysisContext;
}
