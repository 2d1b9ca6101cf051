/**
 * The fast YAML path against the yaml package, node by node (fast-parse-compare.ts): every input of the YAML
 * test suite, every file of the shared corpus, the examples and the test fixtures, the benchmark's generated
 * manifests, and generated block YAML. Wherever the fast path accepts a slice, its document must be the one
 * parseAllDocuments gives; the counts of slices it accepted are pinned from below so that a change that quietly
 * sends real manifests back to the slow path fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import type { Document } from 'yaml';
import { generateManifests } from '../../../bench/manifests';
import { MAX_ALIAS_COUNT } from '../../../server/src/language/limits';
import { parseFastDocument } from '../../../server/src/language/yaml/fast/fast-document';
import { ANALYZER_PARSE_OPTIONS } from '../../../server/src/language/yaml/parse-document';
import { readPlainValue } from '../../../server/src/language/yaml/fast/plain-value';
import { takeNodeCensus } from '../../../server/src/language/yaml/node-checks';
import { splitDocuments } from '../../../server/src/language/yaml/split-documents';
import { loadYamlSuite } from '../../robustness/yaml-suite';
import { censusByStart, diffDocuments, diffPlainValues } from './fast-parse-compare';
import { blockYaml } from './fast-parse-inputs';

interface Tally {
  fast: number;
  slow: number;
  /** Fast slices whose plain value readPlainValue left to toJS. */
  plainByToJS: number;
  differences: string[];
}

function newTally(): Tally {
  return { fast: 0, slow: 0, plainByToJS: 0, differences: [] };
}

/** Compares the fast path with the package on every slice of `text`, counting the slices it accepted. */
function compareSlices(name: string, text: string, tally: Tally): void {
  for (const { text: slice } of splitDocuments(text)) {
    const fast = parseFastDocument(slice, ANALYZER_PARSE_OPTIONS);
    if (fast === undefined) {
      tally.slow++;
      continue;
    }
    tally.fast++;
    const reference = parseAllDocuments(slice, ANALYZER_PARSE_OPTIONS);
    const documents = Array.isArray(reference) ? reference : [];
    const [only] = documents;
    const difference =
      documents.length !== 1 || only === undefined
        ? `the package reads ${documents.length} documents`
        : (diffDocuments(fast, only) ?? diffPlainValueOf(fast, only, tally));
    if (difference !== undefined) {
      tally.differences.push(`${name}: ${difference}`);
    }
  }
}

/** The plain value parseSlice reads off a fast document against toJS on the package's and on the fast one. */
function diffPlainValueOf(
  fast: Document.Parsed,
  reference: Document.Parsed,
  tally: Tally,
): string | undefined {
  const plain = readPlainValue(fast);
  if (plain === undefined) {
    tally.plainByToJS++;
    return undefined;
  }
  const options = { maxAliasCount: MAX_ALIAS_COUNT };
  return (
    diffPlainValues('plain value', plain.value, reference.toJS(options)) ??
    diffPlainValues('plain value (fast toJS)', plain.value, fast.toJS(options)) ??
    diffPlainValues('census', censusByStart(plain.census), censusByStart(takeNodeCensus(fast)))
  );
}

function yamlFiles(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const path = join(directory, name);
      return statSync(path).isDirectory() ? yamlFiles(path) : /\.ya?ml$/.test(name) ? [path] : [];
    });
}

function tallyFiles(paths: readonly string[]): Tally {
  const tally: Tally = newTally();
  for (const path of paths) {
    compareSlices(path, readFileSync(path, 'utf8'), tally);
  }
  return tally;
}

describe('the fast YAML path gives the documents the yaml package gives', () => {
  test('every input of the YAML test suite (most are outside the subset and fall back)', () => {
    const tally: Tally = newTally();
    const cases = loadYamlSuite();
    for (const suiteCase of cases) {
      compareSlices(suiteCase.id, suiteCase.text, tally);
    }
    assert.equal(cases.length, 402);
    assert.deepEqual(tally.differences, []);
    assert.ok(tally.fast >= 37, `fast path took ${tally.fast} slices`);
    assert.equal(tally.plainByToJS, 0);
  });

  test('every file of the shared corpus (valid, invalid, removed-api), the examples and the fixtures', () => {
    const paths = [
      ...yamlFiles('/work/shared/corpus'),
      ...yamlFiles(join(__dirname, '../../../examples')),
      ...yamlFiles(join(__dirname, '../../fixtures')),
    ];
    const tally = tallyFiles(paths);
    assert.deepEqual(tally.differences, []);
    assert.ok(tally.fast >= 595, `fast path took ${tally.fast} of ${tally.fast + tally.slow} slices`);
    assert.equal(tally.plainByToJS, 0);
  });

  test('the same files with CRLF line ends (as saved on Windows)', () => {
    const tally: Tally = newTally();
    for (const path of [
      ...yamlFiles('/work/shared/corpus'),
      ...yamlFiles(join(__dirname, '../../../examples')),
    ]) {
      compareSlices(`${path} (CRLF)`, readFileSync(path, 'utf8').replace(/\r?\n/g, '\r\n'), tally);
    }
    assert.deepEqual(tally.differences, []);
    assert.ok(tally.fast >= 385, `fast path took ${tally.fast} of ${tally.fast + tally.slow} slices`);
    assert.equal(tally.plainByToJS, 0);
  });

  test("the benchmark's generated manifests all take the fast path", () => {
    const tally: Tally = newTally();
    compareSlices('bench', generateManifests(300), tally);
    assert.deepEqual(tally.differences, []);
    assert.deepEqual(
      { fast: tally.fast, slow: tally.slow, plainByToJS: tally.plainByToJS },
      { fast: 300, slow: 0, plainByToJS: 0 },
    );
  });

  test('generated block YAML (nested maps and sequences, scalar styles, comments, blank lines)', () => {
    const tally: Tally = newTally();
    fc.assert(
      fc.property(blockYaml, (text) => {
        const before = tally.differences.length;
        compareSlices(JSON.stringify(text), text, tally);
        return tally.differences.length === before;
      }),
      { seed: 20_261_125, numRuns: 400 },
    );
    assert.deepEqual(tally.differences, []);
    assert.ok(tally.fast >= 75, `fast path took ${tally.fast} of 400 generated documents`);
    assert.equal(tally.plainByToJS, 0);
  });
});

describe('what the fast path accepts and what it leaves to the package', () => {
  const cases: { name: string; text: string; isFast: boolean }[] = [
    { name: 'a plain block manifest is read fast', text: 'kind: Pod\nmetadata:\n  name: a\n', isFast: true },
    { name: "a sequence at its key's indentation is read fast", text: 'a:\n- 1\n- two\n', isFast: true },
    {
      name: 'comments before keys and on value lines are read fast',
      text: '# c\nk: v # d\n\n# e\nl: 2\n',
      isFast: true,
    },
    {
      name: 'literal and folded block scalars are read fast',
      text: 'a: |\n  x\n   y\nb: >-\n  p\n\n  q\n',
      isFast: true,
    },
    { name: 'empty flow collections are read fast', text: 'args: []\nresources: {}\n', isFast: true },
    {
      name: 'a comment closing a nested mapping is its comment',
      text: 'a:\n  b: 1\n  # end\nc: 2\n',
      isFast: true,
    },
    {
      name: 'a comment closing a compact mapping is its comment',
      text: 'x:\n- a: 1\n  # in map\n- b: 2\n',
      isFast: true,
    },
    {
      name: 'a comment closing an indented sequence is its comment',
      text: 'a:\n  - 1\n  # s\nb: 1\n',
      isFast: true,
    },
    {
      name: "a comment between a key and its mapping is the mapping's",
      text: 'a:\n\n  # c\n\n  b: 1\n',
      isFast: true,
    },
    {
      name: 'a flow sequence of scalars is read fast',
      text: 'command: ["sh", -c, 1, \'x\' ]\n',
      isFast: true,
    },
    { name: 'a flow sequence with a trailing comma goes to the package', text: 'a: [x, ]\n', isFast: false },
    {
      name: 'a flow mapping of scalars is read fast',
      text: 'labels: { app: web , "tier": 1 }\n',
      isFast: true,
    },
    {
      name: 'a flow mapping of scalars in a sequence item is read fast',
      text: 'tolerations:\n- {key: a, operator: Equal, value: b }\n',
      isFast: true,
    },
    { name: 'a nested flow mapping goes to the package', text: 'a: {b: {c: 1}}\n', isFast: false },
    {
      name: 'a closing comment followed by a blank line goes to the package',
      text: 'a:\n  b: 1\n  # end\n\nc: 2\n',
      isFast: false,
    },
    { name: 'an anchor and alias go to the package', text: 'a: &x 1\nb: *x\n', isFast: false },
    { name: 'a tag goes to the package', text: 'a: !!str 1\n', isFast: false },
    // go-yaml folds long strings over lines (kustomize's kyaml, controller-gen): CRD descriptions.
    {
      name: 'a multi-line plain scalar is read fast',
      text: 'a: one\n  two\n\n   three\nb: 1\n',
      isFast: true,
    },
    {
      name: 'a multi-line plain scalar in a sequence item and a compact mapping is read fast',
      text: 'x:\n- a long\n  value\n- k: another\n    one\n',
      isFast: true,
    },
    {
      name: 'a multi-line single-quoted scalar is read fast, with its doubled quotes and empty lines',
      text: "description: 'it''s long,\n  and goes on\n\n\n  over lines '\nb: 1\n",
      isFast: true,
    },
    {
      name: 'a single-quoted scalar opening at the end of its line is read fast',
      text: "a: '\n  text'\n",
      isFast: true,
    },
    { name: 'a continuation holding ": " goes to the package', text: 'a: one\n  two: x\n', isFast: false },
    {
      name: 'a comment line inside a multi-line plain scalar goes to the package',
      text: 'a: one\n  # c\n  two\n',
      isFast: false,
    },
    {
      name: 'a single-quoted scalar whose next line is not indented goes to the package',
      text: "a: 'one\ntwo'\n",
      isFast: false,
    },
    { name: 'a multi-line plain key goes to the package', text: 'a\n  b: 1\n', isFast: false },
    { name: 'a tab goes to the package', text: 'a:\n\tb: 1\n', isFast: false },
    { name: 'CRLF line ends are read fast', text: '# c\r\n# d\r\na: 1 # e\r\nb: |\r\n  x\r\n', isFast: true },
    { name: 'mixed line ends are read fast', text: 'a:\r\n  b: 1\n  # c\r\n  # d\nc: 2\r\n', isFast: true },
    { name: 'a carriage return inside a line goes to the package', text: 'a: 1\rb: 2\n', isFast: false },
    { name: 'a keep-chomped block scalar goes to the package', text: 'a: |+\n  x\n\nb: 1\n', isFast: false },
    { name: 'a directive goes to the package', text: '%YAML 1.2\n---\na: 1\n', isFast: false },
    {
      name: 'a comment line ending a sequence before a key goes to the package',
      text: 'a:\n- 1\n# c\nb: 2\n',
      isFast: false,
    },
    { name: 'a syntax error goes to the package', text: 'a: b: c\n', isFast: false },
    { name: 'a scalar document goes to the package', text: 'just text\n', isFast: false },
  ];
  for (const { name, text, isFast } of cases) {
    test(name, () => {
      const fast = parseFastDocument(text, ANALYZER_PARSE_OPTIONS);
      assert.equal(fast !== undefined, isFast);
      if (fast !== undefined) {
        const [reference] = parseAllDocuments(text, ANALYZER_PARSE_OPTIONS) as unknown[];
        assert.equal(diffDocuments(fast, reference as typeof fast), undefined);
      }
    });
  }
});
