import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SymbolKind } from 'vscode-languageserver-protocol';
import type { DocumentSymbol } from 'vscode-languageserver-protocol';
import { analyzeText } from '../../server/src/language/analyzer';
import { documentSymbols } from '../../server/src/language/assist/symbols';
import { LineIndex } from '../../server/src/language/text/line-index';
import { assistContext, textOf } from './hover-harness';

/** A symbol as the tests compare it: name, detail, the text its selection covers, and its children. */
interface SeenSymbol {
  readonly name: string;
  readonly detail?: string;
  readonly selects: string;
  readonly children?: readonly SeenSymbol[];
}

function seen(text: string, symbol: DocumentSymbol): SeenSymbol {
  return {
    name: symbol.name,
    ...(symbol.detail === undefined ? {} : { detail: symbol.detail }),
    selects: textOf(text, symbol.selectionRange),
    ...(symbol.children === undefined ? {} : { children: symbol.children.map((child) => seen(text, child)) }),
  };
}

function outline(text: string): SeenSymbol[] {
  return documentSymbols(analyzeText(text, assistContext()), text).map((symbol) => seen(text, symbol));
}

const CASES: readonly { name: string; text: string; expected: SeenSymbol[] }[] = [
  {
    name: 'each object of a multi-document file is a symbol named by kind and name, with its namespace as detail',
    text: [
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  ports:\n  - port: 80\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  namespace: shop\n',
    ].join('---\n'),
    expected: [
      { name: 'Namespace shop', selects: 'shop' },
      { name: 'Service web', detail: 'shop', selects: 'web' },
      { name: 'ConfigMap', detail: 'shop', selects: 'ConfigMap' },
    ],
  },
  {
    name: 'the items of a List are children of the List',
    text:
      'apiVersion: v1\nkind: List\nitems:\n' +
      '- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n' +
      '- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: b\n',
    expected: [
      {
        name: 'List',
        selects: 'List',
        children: [
          { name: 'ConfigMap a', selects: 'a' },
          { name: 'Secret b', selects: 'b' },
        ],
      },
    ],
  },
  {
    name: 'the containers of a workload are its children, init containers first, with their images',
    text:
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n' +
      '      initContainers:\n      - name: migrate\n        image: tool:1\n' +
      '      containers:\n      - name: app\n        image: web:2\n      - image: sidecar:3\n',
    expected: [
      {
        name: 'Deployment web',
        selects: 'web',
        children: [
          { name: 'migrate', detail: 'init container · tool:1', selects: 'migrate' },
          { name: 'app', detail: 'container · web:2', selects: 'app' },
          { name: '#1', detail: 'container · sidecar:3', selects: '' },
        ],
      },
    ],
  },
  {
    name: 'the containers of a CronJob are found under its job template',
    text:
      'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 0 * * *"\n' +
      '  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n          - name: run\n',
    expected: [
      {
        name: 'CronJob nightly',
        selects: 'nightly',
        children: [{ name: 'run', detail: 'container', selects: 'run' }],
      },
    ],
  },
  {
    name: 'documents that are not Kubernetes objects have no symbol',
    text: 'services:\n  web:\n    image: nginx\n---\n# only a comment\n',
    expected: [],
  },
];

void describe('documentSymbols', () => {
  for (const { name, text, expected } of CASES) {
    void test(name, () => assert.deepEqual(outline(text), expected));
  }

  void test('an object symbol spans the whole object and is an Object; a List is an Array', () => {
    const text =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: {}\n---\napiVersion: v1\nkind: List\nitems: []\n';
    const [pod, list] = documentSymbols(analyzeText(text, assistContext()), new LineIndex(text));
    assert.ok(pod !== undefined && list !== undefined);
    assert.equal(textOf(text, pod.range), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: {}\n');
    assert.equal(pod.kind, SymbolKind.Object);
    assert.equal(list.kind, SymbolKind.Array);
  });
});
