/**
 * Properties of FileAnalyzer, checked in-process (fast): after any edit sequence the per-document cache gives
 * the same analysis as a fresh one; the analysis is deterministic; hostile text never throws and every finding
 * lies inside the text with a known code.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { AnalysisContext, FileAnalysis } from '../../server/src/language/analyzer';
import { FileAnalyzer } from '../../server/src/language/analyzer';
import { FINDING_CODES } from '../../protocol/finding-codes';
import type { SeedFile, TextEdit } from './inputs';
import { applyEdit, editSequence, hostileText, resolveEdit } from './inputs';

/** What an analysis says, in comparable form: its findings and where its documents and objects are. */
export function summarize(analysis: FileAnalysis): unknown {
  return {
    findings: analysis.findings,
    documents: analysis.documents.map((document) => ({
      index: document.index,
      offset: document.offset,
      objects: document.objects.map((object) => `${object.apiVersion}/${object.kind}`),
    })),
    skipped: analysis.skipped?.code,
  };
}

/** Fails unless every finding lies inside the text, has start <= end and a known code. */
export function assertWellFormed(text: string, analysis: FileAnalysis): void {
  for (const finding of analysis.findings) {
    assert.ok(finding.code in FINDING_CODES, `unknown code ${finding.code}`);
    assert.ok(
      finding.start >= 0 && finding.start <= finding.end && finding.end <= text.length,
      `${finding.code} at [${finding.start}, ${finding.end}) outside a text of ${text.length}`,
    );
  }
  let previous = -1;
  for (const document of analysis.documents) {
    assert.ok(document.offset >= previous && document.offset <= text.length, 'document offsets in order');
    previous = document.offset;
  }
}

/** After every edit of a sequence, the cached analysis equals a fresh analysis of the same text. */
export function incrementalEqualsFresh(
  seeds: readonly SeedFile[],
  context: AnalysisContext,
): fc.IPropertyWithHooks<[SeedFile, TextEdit[]]> {
  return fc.property(fc.constantFrom(...seeds), editSequence, (seed, edits) => {
    const analyzer = new FileAnalyzer();
    let text = seed.text;
    analyzer.analyze(text, context);
    for (const edit of edits) {
      text = applyEdit(text, resolveEdit(text, edit));
      const incremental = analyzer.analyze(text, context);
      assertWellFormed(text, incremental);
      assert.deepEqual(
        summarize(incremental),
        summarize(new FileAnalyzer().analyze(text, context)),
        seed.name,
      );
    }
  });
}

/** Two fresh analyses of the same (edited) text agree. */
export function analysisIsDeterministic(
  seeds: readonly SeedFile[],
  context: AnalysisContext,
): fc.IPropertyWithHooks<[SeedFile, TextEdit[]]> {
  return fc.property(fc.constantFrom(...seeds), editSequence, (seed, edits) => {
    let text = seed.text;
    for (const edit of edits) {
      text = applyEdit(text, resolveEdit(text, edit));
    }
    const first = new FileAnalyzer().analyze(text, context);
    assertWellFormed(text, first);
    assert.deepEqual(summarize(new FileAnalyzer().analyze(text, context)), summarize(first));
  });
}

/** Hostile text is analysed without throwing, and its findings are well formed. */
export function hostileTextIsHandled(context: AnalysisContext): fc.IPropertyWithHooks<[string]> {
  return fc.property(hostileText, (text) => {
    assertWellFormed(text, new FileAnalyzer().analyze(text, context));
  });
}

/**
 * Runs stopped at random pauses (the time budget, or a newer version arriving) leave the cache consistent:
 * after any mix of stopped runs over an edit sequence, a complete run equals a fresh analysis. Several seed
 * files are joined into one multi-document file, and batches are tiny, so that runs pause often.
 */
export function stoppedRunsConverge(
  seeds: readonly SeedFile[],
  context: AnalysisContext,
): fc.IPropertyWithHooks<[SeedFile[], TextEdit[], number[]]> {
  return fc.property(
    fc.array(fc.constantFrom(...seeds), { minLength: 2, maxLength: 6 }),
    editSequence,
    fc.array(fc.nat({ max: 8 }), { minLength: 12, maxLength: 12 }),
    (files, edits, stopAfter) => {
      const analyzer = new FileAnalyzer();
      let text = files.map((file) => file.text).join('\n---\n');
      edits.forEach((edit, index) => {
        text = applyEdit(text, resolveEdit(text, edit));
        const run = analyzer.analyzeInBatches(text, context, 200);
        let pauses = 0;
        let step = run.next();
        while (step.done !== true) {
          pauses++;
          step = run.next(pauses > (stopAfter[index] ?? 0) ? 'stop' : 'continue');
        }
        assertWellFormed(text, step.value);
      });
      const complete = analyzer.analyze(text, context);
      assert.deepEqual(summarize(complete), summarize(new FileAnalyzer().analyze(text, context)));
    },
  );
}
