/**
 * Hostile documents through the language layer, in-process: each is answered with the findings a user needs
 * (or refused with one clear diagnostic) instead of hanging or exhausting memory. The timeouts are hang bounds
 * far above the real times (each case takes well under a second); timing itself is measured in bench/.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getAnalysisContext } from '../support/language-service';
import { FileAnalyzer } from '../../server/src/language/analyzer';
import {
  MAX_ANCHORS_AND_ALIASES,
  MAX_DOCUMENT_NODES,
  MAX_NESTING_DEPTH,
} from '../../server/src/language/limits';
import { aliasBomb, deepNesting } from '../fuzz/inputs';

const CONTEXT = getAnalysisContext('1.35', 8192 * 1024);
const HEADER = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hostile\ndata:\n';
const HANG_BOUND_MS = 30_000;

interface HostileCase {
  readonly name: string;
  readonly text: () => string;
  /** The codes of the findings, in order, with repeats. */
  readonly codes: readonly string[];
}

const cases: HostileCase[] = [
  {
    name: 'a mapping of 90,000 keys (quadratic before: 100,000 took 95 s) is analysed, and its repeated key found',
    text: () => `${HEADER}${Array.from({ length: 90_000 }, (_, i) => `  k${i}: v\n`).join('')}  k7: again\n`,
    codes: ['yaml-duplicate-key'],
  },
  {
    name: 'a mapping of 30,000 keys all repeating one key reports every repeat',
    text: () => `${HEADER}${'  same: v\n'.repeat(30_000)}`,
    codes: Array<string>(29_999).fill('yaml-duplicate-key'),
  },
  {
    name: `${MAX_ANCHORS_AND_ALIASES + 1} anchors and aliases refuse the document (20,000 of each took 8 s)`,
    text: () =>
      `${HEADER}${Array.from({ length: 10_000 }, (_, i) => `  a${i}: &x${i} v\n  b${i}: *x${i}\n`).join('')}`,
    codes: ['yaml-alias-limit'],
  },
  {
    name: 'up to the anchor limit aliases resolve and the document is validated',
    text: () =>
      `${HEADER}${Array.from({ length: MAX_ANCHORS_AND_ALIASES / 2 }, (_, i) => `  a${i}: &x${i} v\n  b${i}: *x${i}\n`).join('')}`,
    codes: [],
  },
  {
    name: 'an alias bomb of nine levels of nine is refused by the expansion limit',
    text: () => aliasBomb(9, 9),
    codes: ['yaml-alias-limit'],
  },
  {
    name: 'a flow sequence of 1,000,000 items (once 29 s and 3 GB) is refused before parsing',
    text: () => `${HEADER}  a: [${'1,'.repeat(1_000_000)}1]\n`,
    codes: ['document-too-large'],
  },
  {
    name: 'a flow sequence just under the node limit is parsed and validated',
    text: () => `${HEADER}  a: [${'1,'.repeat(MAX_DOCUMENT_NODES - 20)}1]\n`,
    codes: ['schema-type'],
  },
  {
    name: 'a block scalar of 1 MiB (the most a ConfigMap holds) is one value and is analysed',
    text: () => `${HEADER}  big: |\n${'    a line of text, with: punctuation\n'.repeat(28_000)}`,
    codes: [],
  },
  {
    name: 'a block scalar of 8 MB counts its lines against the node limit and is refused',
    text: () => `${HEADER}  big: |\n${'    a line of text\n'.repeat(400_000)}`,
    codes: ['document-too-large'],
  },
  {
    name: 'a key of 1,000,000 characters is a syntax error (YAML caps implicit keys at 1024) and nothing else',
    text: () => `${HEADER}  ${'k'.repeat(1_000_000)}: v\n`,
    codes: ['yaml-syntax'],
  },
  {
    name: `flow nesting beyond ${MAX_NESTING_DEPTH} levels is refused with one finding`,
    text: () => deepNesting(10_000, 'flow'),
    codes: ['yaml-too-deep'],
  },
  {
    name: `block nesting beyond ${MAX_NESTING_DEPTH} levels is refused with one finding`,
    text: () => deepNesting(1_000, 'block'),
    codes: ['yaml-too-deep'],
  },
  {
    name: 'nesting just under the limit is parsed',
    text: () => deepNesting(MAX_NESTING_DEPTH - 10, 'flow'),
    codes: ['schema-type'],
  },
  {
    name: '100,000 documents separated by "..." in one slice are refused as one oversized document',
    text: () => `${HEADER}${'a: 1\n...\n'.repeat(100_000)}`,
    codes: ['document-too-large'],
  },
  {
    name: 'a repeated empty key at the very end of the text (found by fuzzing) is shown on its last character',
    text: () => `${HEADER}  : x\n  &a `,
    codes: ['yaml-duplicate-key', 'yaml-syntax'],
  },
  {
    name: 'a syntax error at the very end of the text is shown on its last character, not past it',
    text: () => `${HEADER}  a: "unterminated`,
    codes: ['yaml-syntax'],
  },
];

describe('hostile documents are answered or refused, never hang', () => {
  for (const { name, text, codes } of cases) {
    test(name, { timeout: HANG_BOUND_MS }, () => {
      const input = text();
      const analysis = new FileAnalyzer().analyze(input, CONTEXT);
      assert.deepEqual(
        analysis.findings.map((finding) => finding.code),
        codes,
      );
      for (const finding of analysis.findings) {
        assert.ok(
          finding.start < finding.end && finding.end <= input.length,
          'a non-empty range inside the text',
        );
      }
    });
  }
});
