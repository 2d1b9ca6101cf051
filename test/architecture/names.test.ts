import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PLUGIN_NAMES } from '../../server/src/engine/scheduler/plugins/names';
import { declaredExports, exportClashes } from './exported-names';
import { sourceFiles } from './import-graph';
import { nameLiterals } from './name-literals';

// One name, one meaning (issue #26): no two modules of server/src declare the same exported name, and a
// scheduler plugin's name is spelled only in the names file, as upstream's plugins/names/names.go.

const ROOT = join(__dirname, '..', '..');
const SERVER = join(ROOT, 'server', 'src');
const NAMES_FILE = 'server/src/engine/scheduler/plugins/names.ts';

/**
 * Plugin names that are also something else, with that other meaning: RequestedToCapacityRatio is a removed
 * plugin and still one of NodeResourcesFit's ScoringStrategyType values (config.RequestedToCapacityRatio).
 */
const ALSO_OTHER_VALUES: ReadonlySet<string> = new Set([PLUGIN_NAMES.RequestedToCapacityRatio]);

describe('exported names', () => {
  test('no two modules of server/src declare the same exported name', () => {
    const files = sourceFiles(SERVER);
    assert.ok(files.length > 300, `read ${files.length} files`);
    const clashes = Object.fromEntries(exportClashes(ROOT, files));
    assert.deepEqual(clashes, {});
  });

  const cases: { name: string; text: string; names: string[] }[] = [
    {
      name: 'functions, constants (each of a list), classes, interfaces, types and enums are declared',
      text:
        'export function f() {}\nexport const a = 1, b = 2;\nexport class C {}\nexport interface I {}\n' +
        'export type T = 1;\nexport enum E { X }\nconst hidden = 1;',
      names: ['f', 'a', 'b', 'C', 'I', 'T', 'E'],
    },
    {
      name: 'an export list declares the exported name, not the local one',
      text: 'const local = 1;\nexport { local as shown };',
      names: ['shown'],
    },
    {
      name: 're-exports declare nothing (an index passing names on does not clash with their module)',
      text: "export { a } from './a';\nexport * from './b';\nexport type { T } from './t';",
      names: [],
    },
    {
      name: 'an overloaded function is one name',
      text: 'export function f(a: string): string;\nexport function f(a: number): number;\nexport function f(a: unknown) { return a; }',
      names: ['f'],
    },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      assert.deepEqual(declaredExports(entry.text), entry.names);
    });
  }

  // Issue #26: one finding type from the reader to every output. The second, TextFinding, is that finding while it
  // is still in offsets of the text the analyzer read (start and end required); it is placed into a Finding before
  // it leaves language/, so no output and no engine module sees it.
  test("two exported types are named *Finding: the one finding, and the analyzer's finding in offsets", () => {
    const findingTypes = ['server/src', 'protocol', 'client/src', 'media']
      .flatMap((folder) => sourceFiles(join(ROOT, folder)))
      .flatMap((file) =>
        declaredExports(readFileSync(file, 'utf8'), file)
          .filter((name) => /Finding$/.test(name) && /^[A-Z]/.test(name))
          .map((name) => `${relative(ROOT, file).split('\\').join('/')}: ${name}`),
      );
    assert.deepEqual(findingTypes.sort(), [
      'protocol/finding.ts: Finding',
      'server/src/language/findings.ts: TextFinding',
    ]);
  });
});

describe('scheduler plugin names', () => {
  const names = new Set<string>(Object.values(PLUGIN_NAMES).filter((name) => !ALSO_OTHER_VALUES.has(name)));

  test('are spelled only in the names file', () => {
    const spelled = sourceFiles(SERVER)
      .map((file) => ({ file: relative(ROOT, file), text: readFileSync(file, 'utf8') }))
      .filter((source) => source.file !== NAMES_FILE)
      .flatMap((source) =>
        nameLiterals(source.text, names, source.file).map(
          (found) => `${source.file}:${found.line}: ${found.kind} ${found.name}`,
        ),
      );
    assert.deepEqual(spelled, []);
  });

  test('the names file spells each name as itself, once', () => {
    for (const [key, value] of Object.entries(PLUGIN_NAMES)) {
      assert.equal(value, key);
    }
    const text = readFileSync(join(ROOT, NAMES_FILE), 'utf8');
    const found = nameLiterals(text, names).filter((entry) => entry.kind === 'string');
    assert.equal(found.length, names.size);
  });

  const cases: { name: string; text: string; found: string[] }[] = [
    {
      name: 'a string literal equal to a plugin name is found',
      text: "const name = 'NodeResourcesFit';",
      found: ['string NodeResourcesFit'],
    },
    {
      name: 'a template without substitutions is found',
      text: 'const name = `TaintToleration`;',
      found: ['string TaintToleration'],
    },
    {
      name: 'a property key, bare or quoted, is found',
      text: "const weights = { TaintToleration: 3, 'NodeAffinity': 2 };",
      found: ['property key TaintToleration', 'property key NodeAffinity'],
    },
    {
      name: 'a literal type is found',
      text: "type Fit = 'NodeResourcesFit';",
      found: ['string NodeResourcesFit'],
    },
    {
      name: 'a name through the names object, a computed key, a reason code and an import path are not',
      text:
        "import { PLUGIN_NAMES } from './names';\n" +
        'const a = PLUGIN_NAMES.NodeResourcesFit;\n' +
        'const b = { [PLUGIN_NAMES.TaintToleration]: 3 };\n' +
        "const c = 'NodeResourcesFit/TooManyPods';",
      found: [],
    },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      const found = nameLiterals(entry.text, names).map((literal) => `${literal.kind} ${literal.name}`);
      assert.deepEqual(found, entry.found);
    });
  }
});
