/**
 * Generated block YAML for the fast path's differential test: nested mappings and sequences (compact mappings
 * in sequence items, sequences at their key's indentation or indented), scalars of every style the fast path
 * reads and some it does not (multi-line plain, anchors, flow content), block scalars, comments and blank lines.
 */
import fc from 'fast-check';

type Tree =
  | { readonly kind: 'scalar'; readonly text: string; readonly comment: boolean }
  | { readonly kind: 'block'; readonly header: string; readonly lines: readonly string[] }
  | { readonly kind: 'map'; readonly entries: readonly Entry[]; readonly after: boolean }
  | {
      readonly kind: 'seq';
      readonly items: readonly Item[];
      readonly atKeyIndent: boolean;
      readonly after: boolean;
    };

interface Entry {
  readonly key: string;
  readonly value: Tree;
  readonly before: string;
}

interface Item {
  readonly value: Tree;
  readonly before: string;
}

const SCALARS = [
  'web',
  'registry.example.com/app:1.0',
  '100m',
  '128Mi',
  '3',
  '-1',
  '0x1F',
  '0o17',
  '1.50',
  '1e3',
  '.inf',
  '.NaN',
  'null',
  '~',
  'true',
  'False',
  'TRUE',
  '"quoted value"',
  '"esc\\n\\t\\u00e9\\x41"',
  "'it''s'",
  "''",
  '""',
  'a#b',
  'http://host:80/path',
  '--flag=1',
  '[]',
  '{}',
  '[a, "b"]',
  '[ x , 1 ]',
  '{app: web, "tier": \'front\'}',
  '{ x: 1 , y: b }',
  '{a: {b: 1}}',
  '{a: b c}',
  '[a, ]',
  '&anchor value',
  '*alias',
  '!!str 1',
  'one\n  two',
  "'unclosed\n  line'",
];

const KEYS = [
  'name',
  'image',
  'app.kubernetes.io/name',
  '"quoted key"',
  "'single'",
  'port',
  '1',
  'true',
  'x-y_z',
];

const BEFORE = ['', '', '', '\n', '# note\n', '\n# one\n\n# two\n'];

const scalar = fc.record({
  kind: fc.constant('scalar' as const),
  text: fc.constantFrom(...SCALARS),
  comment: fc.boolean(),
});

const block = fc.record({
  kind: fc.constant('block' as const),
  header: fc.constantFrom('|', '>', '|-', '>-', '|+', '|2'),
  lines: fc.array(fc.constantFrom('text', 'more words', '', '  indented', '# not a comment'), {
    minLength: 1,
    maxLength: 4,
  }),
});

const { tree } = fc.letrec<{ tree: Tree; map: Tree; seq: Tree }>((tie) => ({
  tree: fc.oneof({ maxDepth: 3, depthIdentifier: 'tree' }, scalar, scalar, block, tie('map'), tie('seq')),
  map: fc.record({
    kind: fc.constant('map' as const),
    entries: fc.array(
      fc.record({ key: fc.constantFrom(...KEYS), value: tie('tree'), before: fc.constantFrom(...BEFORE) }),
      {
        maxLength: 4,
      },
    ),
    after: fc.boolean(),
  }),
  seq: fc.record({
    kind: fc.constant('seq' as const),
    items: fc.array(fc.record({ value: tie('tree'), before: fc.constantFrom(...BEFORE) }), { maxLength: 4 }),
    atKeyIndent: fc.boolean(),
    after: fc.boolean(),
  }),
}));

/** A generated document: a mapping at the root, optionally after a "---" marker and a leading comment. */
export const blockYaml: fc.Arbitrary<string> = fc
  .record({
    entries: fc.array(
      fc.record({ key: fc.constantFrom(...KEYS), value: tree, before: fc.constantFrom(...BEFORE) }),
      {
        minLength: 1,
        maxLength: 5,
      },
    ),
    step: fc.constantFrom(2, 4),
    head: fc.constantFrom('', '---\n', '# head\n', '# head\n\n', '# head\n---\n# after\n'),
    tail: fc.constantFrom('', '\n', '# tail\n', '\n# tail\n\n'),
  })
  .map(({ entries, step, head, tail }) => head + renderMap(entries, 0, step) + tail);

function indent(column: number, before: string): string {
  return before.replace(/#/g, `${' '.repeat(column)}#`);
}

function renderMap(entries: readonly Entry[], column: number, step: number): string {
  return entries
    .map(
      ({ key, value, before }) =>
        `${indent(column, before)}${' '.repeat(column)}${key}:${renderValue(value, column, step, false)}`,
    )
    .join('');
}

function renderValue(value: Tree, column: number, step: number, isItem: boolean): string {
  switch (value.kind) {
    case 'scalar':
      return ` ${value.text}${value.comment ? ' # note' : ''}\n`;
    case 'block':
      return ` ${value.header}\n${value.lines.map((line) => (line === '' ? '\n' : `${' '.repeat(column + step)}${line}\n`)).join('')}`;
    case 'map':
      if (value.entries.length === 0) {
        return ' {}\n';
      }
      if (isItem) {
        const [first, ...rest] = value.entries;
        const text = renderMap(
          first === undefined ? rest : [{ ...first, before: '' }, ...rest],
          column + 2,
          step,
        );
        return ` ${text.slice(column + 2)}${after(value.after, column + 2)}`;
      }
      return `\n${renderMap(value.entries, column + step, step)}${after(value.after, column + step)}`;
    case 'seq': {
      if (value.items.length === 0) {
        return ' []\n';
      }
      const seqColumn = value.atKeyIndent && !isItem ? column : column + step;
      const items = value.items
        .map(
          ({ value: item, before }) =>
            `${indent(seqColumn, before)}${' '.repeat(seqColumn)}-${renderValue(item, seqColumn, step, true)}`,
        )
        .join('');
      return `\n${items}${after(value.after, seqColumn)}`;
    }
  }
}

/** A comment line closing a collection, at the collection's column. */
function after(isThere: boolean, column: number): string {
  return isThere ? `${' '.repeat(column)}# end\n` : '';
}
