/**
 * Every case of the YAML test suite through the language layer, as the analyzer sees it (split at "---"
 * lines, each slice parsed by parseSlice): the cases that are errors in YAML produce an error finding, the
 * valid ones none; the whole analyzer never throws; and the linear duplicate-key check finds exactly the keys
 * the yaml package's own (quadratic) uniqueKeys check finds.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { getAnalysisContext } from '../support/language-service';
import { FileAnalyzer } from '../../server/src/language/analyzer';
import { severityOf } from '../../server/src/language/findings';
import type { TextFinding } from '../../server/src/language/findings';
import { parseSlice } from '../../server/src/language/yaml/parse-document';
import { splitDocuments } from '../../server/src/language/yaml/split-documents';
import { assertWellFormed } from '../fuzz/analyzer-properties';
import { ACCEPTED_ERROR_CASES, loadYamlSuite, WARNED_VALID_CASES } from './yaml-suite';

const CASES = loadYamlSuite();
const CONTEXT = getAnalysisContext('1.35', 8192 * 1024);

/** The YAML findings of a text as the analyzer computes them, in file offsets. */
function yamlFindings(text: string): TextFinding[] {
  return splitDocuments(text).flatMap((slice) =>
    parseSlice(slice.text).flatMap((document) =>
      document.findings.map((finding) => ({
        ...finding,
        start: finding.start + slice.start,
        end: finding.end + slice.start,
      })),
    ),
  );
}

/** The start offsets of the keys the yaml package's uniqueKeys check reports. */
function packageDuplicateKeys(text: string): number[] {
  const documents = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: false });
  return (Array.isArray(documents) ? documents : []).flatMap((document) =>
    document.errors.filter((error) => error.code === 'DUPLICATE_KEY').map((error) => error.pos[0]),
  );
}

describe('the YAML test suite through the language layer', () => {
  test('the suite is all there: 402 inputs, 94 of them errors', () => {
    assert.equal(CASES.length, 402);
    assert.equal(CASES.filter((c) => c.isError).length, 94);
  });

  for (const { id, name, text, isError } of CASES) {
    const expectsError = isError && !(id in ACCEPTED_ERROR_CASES);
    test(`${id} (${name}) is ${expectsError ? 'rejected with an error' : 'accepted without an error'}`, () => {
      const findings = yamlFindings(text);
      const errors = findings.filter((finding) => severityOf(finding.code) === 'error');
      assert.equal(errors.length > 0, expectsError, JSON.stringify(findings));
      if (!isError && !(id in WARNED_VALID_CASES)) {
        assert.deepEqual(findings, []);
      }
      for (const finding of findings) {
        assert.ok(
          finding.start >= 0 && finding.start < finding.end && finding.end <= Math.max(1, text.length),
        );
      }
      assertWellFormed(text, new FileAnalyzer().analyze(text, CONTEXT));
    });
  }

  test('duplicate keys found in one walk are exactly those the yaml package reports, on every case', () => {
    let compared = 0;
    for (const { id, text } of CASES) {
      const ours = parseSlice(text).flatMap((document) =>
        document.findings.filter((f) => f.code === 'yaml-duplicate-key').map((f) => f.start),
      );
      const theirs = packageDuplicateKeys(text);
      assert.equal(ours.length, theirs.length, id);
      compared += theirs.length;
    }
    assert.ok(compared > 0, 'the suite has duplicate keys to compare');
  });
});
