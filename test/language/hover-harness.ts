/**
 * Shared setup of the hover, completion and outline tests: the generated 1.35 schemas, an analysis of a small
 * text, and a cursor written into the text as "‸".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalysisContext, FileAnalysis } from '../../server/src/language/analyzer';
import { analyzeText } from '../../server/src/language/analyzer';
import type { KubernetesSchemaBundle } from '../../server/src/language/schema/schema-store';
import { SchemaStore } from '../../server/src/language/schema/schema-store';

/** The cursor mark in test texts. */
export const CURSOR = '‸';

let store: SchemaStore | undefined;

/** The schema store of the generated schemas/kubernetes/1.35.json (loaded once). */
export function schemaStore(): SchemaStore {
  if (store === undefined) {
    const file = join(__dirname, '..', '..', 'schemas', 'kubernetes', '1.35.json');
    store = new SchemaStore(JSON.parse(readFileSync(file, 'utf8')) as KubernetesSchemaBundle);
  }
  return store;
}

/** An analysis context over the 1.35 schemas with every apiVersion served and no rules. */
export function assistContext(): AnalysisContext {
  return {
    key: 'assist-test',
    store: schemaStore(),
    apiVersions: () => ({ status: 'served' }),
    rules: [],
    maxFileLength: 10_000_000,
  };
}

/** A text with its cursor taken out, and its analysis. */
export interface Cursored {
  readonly text: string;
  readonly offset: number;
  readonly analysis: FileAnalysis;
}

/** Removes the cursor mark from a text and analyses the rest. */
export function withCursor(marked: string): Cursored {
  const offset = marked.indexOf(CURSOR);
  if (offset === -1 || marked.indexOf(CURSOR, offset + 1) !== -1) {
    throw new Error(`the test text must contain exactly one ${CURSOR}: ${JSON.stringify(marked)}`);
  }
  const text = marked.slice(0, offset) + marked.slice(offset + CURSOR.length);
  return { text, offset, analysis: analyzeText(text, assistContext()) };
}

/** The text between two LSP positions, for checking ranges. */
export function textOf(
  text: string,
  range: { start: { line: number; character: number }; end: { line: number; character: number } },
): string {
  const lines = text.split(/\r?\n/);
  const offsetOf = (position: { line: number; character: number }): number =>
    lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0) + position.character;
  return text.replace(/\r\n/g, '\n').slice(offsetOf(range.start), offsetOf(range.end));
}
