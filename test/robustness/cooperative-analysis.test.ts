/**
 * The cooperative analysis in-process: FileAnalyzer.analyzeInBatches pauses between batches and stops on
 * command, keeping what it did; driveAnalysis (the host's driver) drops stale runs and stops at the time
 * budget, here on a fake clock so that nothing depends on the machine's speed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { driveAnalysis } from '../../server/src/host/analysis-runner';
import { getAnalysisContext } from '../support/language-service';
import type { AnalysisRun, FileAnalysis } from '../../server/src/language/analyzer';
import { FileAnalyzer } from '../../server/src/language/analyzer';
import {
  ANALYSIS_TIME_BUDGET_MS,
  MAX_DOCUMENTS_PER_FILE,
  MAX_FILE_NODES,
} from '../../server/src/language/limits';
import { splitDocuments } from '../../server/src/language/yaml/split-documents';
import { summarize } from '../fuzz/analyzer-properties';

const CONTEXT = getAnalysisContext('1.35', 64 * 1024 * 1024);

/** A file of `count` ConfigMaps; the one at `broken` (if any) has a misspelt field. */
function configMaps(count: number, broken = -1): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\n${i === broken ? 'dta' : 'data'}:\n  k: v\n`,
  ).join('---\n');
}

/** Drives a run to its end, answering 'stop' at the pauses listed; returns the result and the pause count. */
function drive(
  run: AnalysisRun,
  stopAtPause = Number.POSITIVE_INFINITY,
): { analysis: FileAnalysis; pauses: number } {
  let pauses = 0;
  let step = run.next();
  while (step.done !== true) {
    pauses++;
    step = run.next(pauses >= stopAtPause ? 'stop' : 'continue');
  }
  return { analysis: step.value, pauses };
}

describe('FileAnalyzer.analyzeInBatches', () => {
  test('pauses between batches, and run to the end gives exactly what analyze() gives', () => {
    const text = configMaps(200, 150);
    const { analysis, pauses } = drive(new FileAnalyzer().analyzeInBatches(text, CONTEXT, 1_000));
    assert.ok(pauses > 10, `${pauses} pauses`);
    assert.deepEqual(summarize(analysis), summarize(new FileAnalyzer().analyze(text, CONTEXT)));
    assert.deepEqual(
      analysis.findings.map((finding) => finding.code),
      ['schema-unknown-field'],
    );
  });

  test('a stop returns the documents done so far and one information finding on the first one left out', () => {
    const text = configMaps(100);
    const { analysis } = drive(new FileAnalyzer().analyzeInBatches(text, CONTEXT, 1_000), 3);
    const analysed = new Set(analysis.documents.map((document) => document.offset)).size;
    assert.ok(analysed > 0 && analysed < 100, `${analysed} documents`);
    assert.equal(analysis.findings.length, 1);
    const [finding] = analysis.findings;
    assert.equal(finding?.code, 'analysis-incomplete');
    assert.equal(finding?.start, splitDocuments(text)[analysed]?.start);
    assert.equal(
      finding?.message,
      `The analysis of this file took longer than ${ANALYSIS_TIME_BUDGET_MS / 1000} s and stopped here, after ${analysed} of 100 documents; the rest was not analysed. The next edit carries on from here.`,
    );
  });

  test('documents analysed before a stop stay cached: the next run goes further and pauses less', () => {
    const analyzer = new FileAnalyzer();
    const text = configMaps(100);
    const first = drive(analyzer.analyzeInBatches(text, CONTEXT, 1_000), 3);
    const second = drive(analyzer.analyzeInBatches(text, CONTEXT, 1_000));
    const firstCount = new Set(first.analysis.documents.map((document) => document.offset)).size;
    assert.equal(second.analysis.documents.length, 100);
    assert.equal(second.analysis.findings.length, 0);
    assert.ok(second.pauses < Math.ceil((100 - firstCount) / 5) + 2, `${second.pauses} pauses`);
  });

  test(`beyond ${MAX_DOCUMENTS_PER_FILE.toLocaleString('en-US')} documents the rest of the file is left out, with one information`, () => {
    const text = configMaps(MAX_DOCUMENTS_PER_FILE + 5);
    const analysis = new FileAnalyzer().analyze(text, CONTEXT);
    assert.equal(analysis.documents.length, MAX_DOCUMENTS_PER_FILE);
    assert.deepEqual(
      analysis.findings.map((finding) => [finding.code, finding.start, finding.message]),
      [
        [
          'analysis-incomplete',
          splitDocuments(text)[MAX_DOCUMENTS_PER_FILE]?.start,
          `This file has more than 20,000 documents; only the first 20,000 of ${(MAX_DOCUMENTS_PER_FILE + 5).toLocaleString('en-US')} documents were analysed.`,
        ],
      ],
    );
  });

  test('YAML that is not Kubernetes gets nothing, not even the information that the analysis stopped', () => {
    const analysis = new FileAnalyzer().analyze('a: 1\n---\n'.repeat(MAX_DOCUMENTS_PER_FILE + 5), CONTEXT);
    assert.equal(analysis.documents.length, MAX_DOCUMENTS_PER_FILE);
    assert.deepEqual(analysis.findings, []);
  });

  test(`beyond ${MAX_FILE_NODES.toLocaleString('en-US')} estimated nodes in a file the analysis stops, with one information`, () => {
    const block = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: [${'1,'.repeat(99_990)}1]\n`;
    const text = Array<string>(12).fill(block).join('---\n');
    const analysis = new FileAnalyzer().analyze(text, CONTEXT);
    const [finding] = analysis.findings.filter((f) => f.code === 'analysis-incomplete');
    assert.equal(analysis.documents.length, 9);
    assert.equal(finding?.start, splitDocuments(text)[9]?.start);
    assert.match(
      finding?.message ?? '',
      /more than the 1,000,000 YAML values analysed in one file; .* after 9 of 12/,
    );
  });
});

describe('driveAnalysis (the host side)', () => {
  const text = configMaps(60, 10);

  test('within the budget and never stale, it returns the complete analysis', async () => {
    const analysis = await driveAnalysis(new FileAnalyzer().analyzeInBatches(text, CONTEXT, 500), {
      isStale: () => false,
      now: () => 0,
      pause: () => Promise.resolve(),
    });
    assert.deepEqual(
      summarize(analysis as FileAnalysis),
      summarize(new FileAnalyzer().analyze(text, CONTEXT)),
    );
  });

  test('past the time budget it stops and says how far it got', async () => {
    let clock = 0;
    const analysis = await driveAnalysis(new FileAnalyzer().analyzeInBatches(text, CONTEXT, 500), {
      isStale: () => false,
      now: () => clock,
      pause: () => {
        clock += 400;
        return Promise.resolve();
      },
      budgetMs: 1_000,
    });
    const codes = analysis?.findings.map((finding) => finding.code);
    assert.deepEqual(codes, ['schema-unknown-field', 'analysis-incomplete']);
    assert.match(analysis?.findings[1]?.message ?? '', /after \d+ of 60 documents/);
  });

  test('a run whose document changed is dropped at the next pause, and what it did is kept for the next', async () => {
    const analyzer = new FileAnalyzer();
    let pauses = 0;
    const dropped = await driveAnalysis(analyzer.analyzeInBatches(text, CONTEXT, 500), {
      isStale: () => pauses >= 2,
      pause: () => {
        pauses++;
        return Promise.resolve();
      },
    });
    assert.equal(dropped, undefined);
    assert.equal(pauses, 2);
    const next = drive(analyzer.analyzeInBatches(text, CONTEXT, 500));
    const fresh = drive(new FileAnalyzer().analyzeInBatches(text, CONTEXT, 500));
    assert.ok(
      next.pauses < fresh.pauses,
      `${next.pauses} pauses after the dropped run, ${fresh.pauses} fresh`,
    );
    assert.deepEqual(summarize(next.analysis), summarize(fresh.analysis));
  });
});
