/**
 * Inputs for fuzzing: real manifests to start from (the shared corpus and examples/), random edits to apply to
 * them, and hostile texts (random bytes, deep nesting, alias bombs, huge scalars and keys, many documents).
 * Shared by the bounded property tests (npm test) and the long run (npm run fuzz).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { appendAll } from '../../protocol/collections';

/** The shared corpus of real manifests (read-only, beside the project). */
export const CORPUS_DIRECTORY = join(__dirname, '..', '..', '..', 'shared', 'corpus', 'valid');
/** The project's own example manifests. */
export const EXAMPLES_DIRECTORY = join(__dirname, '..', '..', 'examples');

/** A manifest file to fuzz from. */
export interface SeedFile {
  readonly name: string;
  readonly text: string;
}

function listYamlFiles(directory: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(directory).sort()) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) {
      appendAll(files, listYamlFiles(path));
    } else if (/\.ya?ml$/.test(name)) {
      files.push(path);
    }
  }
  return files;
}

/** Every real manifest available, in a stable order (examples first). */
export function loadSeedFiles(): SeedFile[] {
  return [EXAMPLES_DIRECTORY, CORPUS_DIRECTORY].flatMap((directory) =>
    listYamlFiles(directory).map((path) => ({
      name: relative(directory, path),
      text: readFileSync(path, 'utf8'),
    })),
  );
}

/** One edit of a text: replace `remove` characters at `at` (taken modulo the length) with `insert`. */
export interface TextEdit {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

/** An edit resolved against a text: offsets in range. */
export interface ResolvedEdit {
  readonly start: number;
  readonly end: number;
  readonly insert: string;
}

/** Places an edit in a text: its offsets clamped to the text. */
export function resolveEdit(text: string, edit: TextEdit): ResolvedEdit {
  const start = text.length === 0 ? 0 : edit.at % (text.length + 1);
  return { start, end: Math.min(text.length, start + edit.remove), insert: edit.insert };
}

/** Applies a resolved edit. */
export function applyEdit(text: string, edit: ResolvedEdit): string {
  return text.slice(0, edit.start) + edit.insert + text.slice(edit.end);
}

const YAML_CHARACTERS = [...' :-\n\t#"\'{}[],&*!|>?%@`~.0123456789abcdefxyz\r'];
const YAML_FRAGMENTS = [
  '\n---\n',
  '---',
  '...\n',
  'apiVersion: v1\n',
  'kind: Pod\n',
  'kind: Deployment\n',
  'metadata:\n  name: x\n',
  '  ',
  '\t',
  ': ',
  '- ',
  '&a ',
  '*a',
  '<<: *a\n',
  '"',
  "'",
  '{',
  '[',
  '|\n',
  '>-\n',
  'replicas: "3"',
  'cpu: 100mb',
  '\u00e9\u4e2d\ud83d\ude00',
  '\ufeff',
  '%YAML 1.2\n',
];

/** Text inserted by an edit: YAML punctuation, manifest fragments, or a little binary. */
export const insertedText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...YAML_FRAGMENTS) },
  { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...YAML_CHARACTERS), maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);

/** A random edit: typing, deleting, pasting a fragment. */
export const textEdit: fc.Arbitrary<TextEdit> = fc.record({
  at: fc.nat({ max: 1_000_000 }),
  remove: fc.oneof(fc.constant(0), fc.nat({ max: 3 }), fc.nat({ max: 200 })),
  insert: insertedText,
});

/** A sequence of edits to apply one after the other. */
export const editSequence: fc.Arbitrary<TextEdit[]> = fc.array(textEdit, { minLength: 1, maxLength: 12 });

const HEADER = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hostile\ndata:\n';

/** An alias bomb: `levels` anchors, each a list of `width` aliases to the one before. */
export function aliasBomb(levels: number, width: number): string {
  let text = `${HEADER}  l0: &l0 [x]\n`;
  for (let level = 1; level < levels; level++) {
    text += `  l${level}: &l${level} [${Array<string>(width)
      .fill(`*l${level - 1}`)
      .join(', ')}]\n`;
  }
  return text;
}

/** Collections nested `depth` levels deep, in flow or block style. */
export function deepNesting(depth: number, style: 'flow' | 'block' | 'sequence'): string {
  switch (style) {
    case 'flow':
      return `${HEADER}  a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
    case 'block':
      return `${HEADER}${Array.from({ length: depth }, (_, i) => `${' '.repeat(i + 2)}k:\n`).join('')}`;
    case 'sequence':
      return `${HEADER}  a:\n${'  '}${'- '.repeat(depth)}x\n`;
  }
}

/** Hostile texts of bounded size (for the property tests; the limits tests build the huge ones). */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.string({ unit: 'binary', maxLength: 2048 }),
  fc.uint8Array({ maxLength: 2048 }).map((bytes) => HEADER + Buffer.from(bytes).toString('utf8')),
  fc
    .tuple(
      fc.integer({ min: 1, max: 600 }),
      fc.constantFrom('flow' as const, 'block' as const, 'sequence' as const),
    )
    .map(([depth, style]) => deepNesting(depth, style)),
  fc.tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 12 })).map(([l, w]) => aliasBomb(l, w)),
  fc.integer({ min: 1, max: 200_000 }).map((size) => `${HEADER}  big: ${'x'.repeat(size)}\n`),
  fc.integer({ min: 1, max: 100_000 }).map((size) => `${HEADER}  ${'k'.repeat(size)}: v\n`),
  fc.integer({ min: 1, max: 3_000 }).map((count) => `${HEADER}${'---\n'.repeat(count)}`),
  fc
    .integer({ min: 1, max: 300 })
    .map((count) =>
      Array.from(
        { length: count },
        (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\n`,
      ).join('---\n'),
    ),
);
