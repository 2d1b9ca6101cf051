/**
 * kustomize's output cut into objects (files/kustomize/rendered-stream.ts): each object's text without the origin
 * annotation, and its source. The documents are written as kyaml writes them (kubectl kustomize of a wrapper with
 * `buildMetadata: [originAnnotations]`); each row's objects must be the documents a YAML parser reads from the
 * stream with that one annotation deleted (and annotations left empty deleted), so the cut by text and the parse
 * agree value for value.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAllDocuments, parse } from 'yaml';
import { splitRendered } from '../../server/src/files/kustomize/rendered-stream';

const WRAPPER = '/tmp/wrapper';
const ORIGIN = 'config.kubernetes.io/origin';

/** The stream's documents as a parser reads them, without the origin annotation. */
function parsedWithoutOrigin(stream: string): unknown[] {
  return parseAllDocuments(stream)
    .map((document) => document.toJS() as unknown)
    .filter((value) => value !== null)
    .map((value) => {
      const metadata = (value as { metadata?: { annotations?: Record<string, unknown> } }).metadata;
      if (metadata?.annotations !== undefined) {
        delete metadata.annotations[ORIGIN];
        if (Object.keys(metadata.annotations).length === 0) {
          delete metadata.annotations;
        }
      }
      return value;
    });
}

const DEPLOYMENT = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  annotations:',
  `    ${ORIGIN}: |`,
  '      path: ../app/base/deployment.yaml',
  '  labels:',
  '    app: web',
  '  name: web',
  'spec:',
  '  template:',
  '    spec:',
  '      containers:',
  '      - image: nginx:1.27',
  '        name: web',
  '',
].join('\n');

const CONFIG_MAP = [
  'apiVersion: v1',
  'data:',
  '  script.sh: |',
  '    echo one',
  '',
  '    echo two',
  'kind: ConfigMap',
  'metadata:',
  '  annotations:',
  '    a.example.com/first: "1"',
  `    ${ORIGIN}: |`,
  '      configuredIn: ../app/overlays/prod/kustomization.yaml',
  '      configuredBy:',
  '        apiVersion: builtin',
  '        kind: ConfigMapGenerator',
  '    z.example.com/last: |',
  '      keep',
  '  name: settings-7h2k9',
  '',
].join('\n');

const NO_ANNOTATIONS = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n';

const rows: readonly { name: string; stream: string; sources: string[]; defined: boolean[] }[] = [
  {
    name: 'an origin that is the only annotation goes, and annotations with it',
    stream: DEPLOYMENT,
    sources: ['/tmp/app/base/deployment.yaml'],
    defined: [true],
  },
  {
    name: 'a generated object: configuredIn is its source, other annotations and blank lines in values stay',
    stream: `${DEPLOYMENT}---\n${CONFIG_MAP}`,
    sources: ['/tmp/app/base/deployment.yaml', '/tmp/app/overlays/prod/kustomization.yaml'],
    defined: [true, false],
  },
  {
    name: 'an object without annotations has no source',
    stream: `${NO_ANNOTATIONS}---\n${DEPLOYMENT}`,
    sources: ['', '/tmp/app/base/deployment.yaml'],
    defined: [false, true],
  },
  {
    name: 'a document in flow style is parsed instead, with the same result',
    stream: `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, annotations: {${ORIGIN}: "path: c.yaml\\n"}}}\n`,
    sources: ['/tmp/wrapper/c.yaml'],
    defined: [true],
  },
  {
    name: 'the origin text elsewhere in a document (a ConfigMap that mentions it) does not confuse the cut',
    stream: DEPLOYMENT.replace(
      '  name: web\nspec:',
      `  name: web\ndata:\n  note: ${ORIGIN} is kustomize's\nspec:`,
    ),
    sources: ['/tmp/app/base/deployment.yaml'],
    defined: [true],
  },
  {
    name: 'Windows line ends are parsed instead',
    stream: DEPLOYMENT.replace(/\n/g, '\r\n'),
    sources: ['/tmp/app/base/deployment.yaml'],
    defined: [true],
  },
  {
    name: 'empty documents and a trailing separator give no object',
    stream: `---\n${NO_ANNOTATIONS}---\n\n---\n`,
    sources: [''],
    defined: [false],
  },
];

describe('the rendered stream cut into objects', () => {
  for (const row of rows) {
    test(row.name, () => {
      const objects = splitRendered(row.stream, WRAPPER);
      assert.deepEqual(
        objects.map((object) => object.source),
        row.sources,
      );
      assert.deepEqual(
        objects.map((object) => object.isDefinedInSource),
        row.defined,
      );
      assert.deepEqual(
        objects.map((object) => parse(object.text) as unknown),
        parsedWithoutOrigin(row.stream),
      );
      for (const object of objects) {
        assert.doesNotMatch(object.text, /config\.kubernetes\.io\/origin:/);
      }
    });
  }

  test('a kyaml document keeps its own text, but for the origin lines', () => {
    const [object] = splitRendered(DEPLOYMENT, WRAPPER);
    assert.equal(
      object?.text,
      DEPLOYMENT.replace(`  annotations:\n    ${ORIGIN}: |\n      path: ../app/base/deployment.yaml\n`, ''),
    );
  });
});
