import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { knownEnumValues } from '../../server/src/language/assist/enum-values';
import {
  escapeMarkdown,
  escapeMarkdownKeepingUrls,
  formatMarkdownPath,
  inlineCode,
  MAX_DESCRIPTION_LENGTH,
  summarizeDescription,
} from '../../server/src/language/assist/markdown';
import { describeType, fieldAt } from '../../server/src/language/assist/schema-field';
import { SchemaStore } from '../../server/src/language/schema/schema-store';

/** A hand-made bundle in the generator's shapes (nullable types, $ref with a description beside it). */
const TINY = new SchemaStore({
  kubernetesVersion: 'test',
  kinds: { 'example/v1/Thing': 'io.example.v1.Thing' },
  definitions: {
    'io.example.v1.Thing': {
      type: 'object',
      description: 'A thing.',
      required: ['spec'],
      properties: { spec: { $ref: '#/definitions/io.example.v1.ThingSpec', description: 'The spec.' } },
    },
    'io.example.v1.ThingSpec': {
      type: ['object', 'null'],
      description: 'ThingSpec describes a thing.',
      properties: {
        parts: { type: ['array', 'null'], items: { $ref: '#/definitions/io.example.v1.Part' } },
        names: { type: ['array', 'null'], items: { type: ['string', 'null'] } },
        labels: { type: ['object', 'null'], additionalProperties: { type: ['string', 'null'] } },
        limits: {
          type: ['object', 'null'],
          additionalProperties: { $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity' },
        },
        port: { $ref: '#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString' },
        when: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Time' },
        raw: { description: 'Anything at all.' },
        mode: { type: ['string', 'null'], enum: ['A', 'B', null] },
      },
    },
    'io.example.v1.Part': {
      type: ['object', 'null'],
      properties: { name: { type: ['string', 'null'] } },
      additionalProperties: false,
    },
    'io.k8s.apimachinery.pkg.api.resource.Quantity': {
      type: ['string', 'number', 'null'],
      format: 'quantity',
    },
    'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: ['integer', 'string', 'null'] },
    'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { type: ['string', 'null'] },
  },
});

void describe('describeType', () => {
  const CASES: readonly { name: string; path: string[]; expected: string }[] = [
    { name: 'an object field named by its definition', path: ['spec'], expected: 'ThingSpec' },
    { name: 'a list of objects as []Definition', path: ['spec', 'parts'], expected: '[]Part' },
    { name: 'a list of strings as []string, without null', path: ['spec', 'names'], expected: '[]string' },
    {
      name: 'a map of strings as map[string]string',
      path: ['spec', 'labels'],
      expected: 'map[string]string',
    },
    {
      name: 'a map of quantities as map[string]quantity',
      path: ['spec', 'limits'],
      expected: 'map[string]quantity',
    },
    { name: 'IntOrString as int-or-string', path: ['spec', 'port'], expected: 'int-or-string' },
    {
      name: 'a reference to a string definition (Time) as string',
      path: ['spec', 'when'],
      expected: 'string',
    },
    { name: 'a schema without a type as any', path: ['spec', 'raw'], expected: 'any' },
  ];
  for (const { name, path, expected } of CASES) {
    void test(`types ${name}`, () => {
      const parent = fieldAt(TINY, 'example/v1', 'Thing', path.slice(0, -1));
      const raw = (parent?.schema.properties ?? {})[path.at(-1) ?? ''];
      assert.ok(raw !== undefined);
      assert.equal(describeType(TINY, raw), expected);
      assert.equal(fieldAt(TINY, 'example/v1', 'Thing', path)?.typeName, expected);
    });
  }

  void test('a property keeps the description written on it rather than its type’s', () => {
    assert.equal(fieldAt(TINY, 'example/v1', 'Thing', ['spec'])?.description, 'The spec.');
  });

  void test('a schema enum wins and drops null', () => {
    assert.deepEqual(fieldAt(TINY, 'example/v1', 'Thing', ['spec', 'mode'])?.enumValues, ['A', 'B']);
  });

  void test('a path that leaves the schema has no field', () => {
    assert.equal(fieldAt(TINY, 'example/v1', 'Thing', ['spec', 'parts', 0, 'nope']), undefined);
  });
});

void describe('knownEnumValues', () => {
  const CASES: readonly {
    name: string;
    definition: string;
    property: string;
    expected: readonly string[] | undefined;
  }[] = [
    {
      name: 'imagePullPolicy of a container takes the PullPolicy values in upstream order',
      definition: 'io.k8s.api.core.v1.Container',
      property: 'imagePullPolicy',
      expected: ['Always', 'Never', 'IfNotPresent'],
    },
    {
      name: 'the restart policy of a pod spec takes Always, OnFailure and Never',
      definition: 'io.k8s.api.core.v1.PodSpec',
      property: 'restartPolicy',
      expected: ['Always', 'OnFailure', 'Never'],
    },
    {
      name: 'a Deployment strategy type takes Recreate and RollingUpdate',
      definition: 'io.k8s.api.apps.v1.DeploymentStrategy',
      property: 'type',
      expected: ['Recreate', 'RollingUpdate'],
    },
    {
      name: 'the stop signals run from SIGABRT to SIGRTMAX',
      definition: 'io.k8s.api.core.v1.Lifecycle',
      property: 'stopSignal',
      expected: undefined,
    },
    {
      name: 'a free string has none',
      definition: 'io.k8s.api.core.v1.Container',
      property: 'image',
      expected: undefined,
    },
    {
      name: 'a name outside io.k8s.api has none',
      definition: 'io.example.v1.Part',
      property: 'name',
      expected: undefined,
    },
    {
      name: 'an inherited object property name is not mistaken for a field',
      definition: 'io.k8s.api.core.v1.Container',
      property: 'constructor',
      expected: undefined,
    },
  ];
  for (const { name, definition, property, expected } of CASES) {
    void test(name, () => {
      const values = knownEnumValues(definition, property);
      if (property === 'stopSignal') {
        assert.equal(values?.[0], 'SIGABRT');
        assert.equal(values?.at(-1), 'SIGRTMAX');
        assert.ok(values?.includes('SIGRTMIN+15') && values.includes('SIGRTMAX-14'));
        assert.equal(values?.length, 65);
      } else {
        assert.deepEqual(values, expected);
      }
    });
  }
});

void describe('Markdown helpers', () => {
  const CASES: readonly { name: string; actual: () => string; expected: string }[] = [
    {
      name: 'escapeMarkdown escapes emphasis, code, links, HTML and headings',
      actual: () => escapeMarkdown('a *b* _c_ `d` [e](f) <g> # h | i & j'),
      expected: 'a \\*b\\* \\_c\\_ \\`d\\` \\[e\\](f) \\<g\\> \\# h \\| i \\& j',
    },
    {
      name: 'escapeMarkdown escapes list markers at the start of a line',
      actual: () => escapeMarkdown('- one\n2. two\n+ three'),
      expected: '\\- one\n2\\. two\n\\+ three',
    },
    {
      name: 'escapeMarkdownKeepingUrls leaves URLs intact and keeps the sentence full stop outside them',
      actual: () => escapeMarkdownKeepingUrls('See <x> at https://kubernetes.io/docs/a_b#c_d.'),
      expected: 'See \\<x\\> at https://kubernetes.io/docs/a_b#c_d.',
    },
    {
      name: 'inlineCode wraps plain text in one backtick',
      actual: () => inlineCode('a.b'),
      expected: '`a.b`',
    },
    {
      name: 'inlineCode fences text with a backtick in two',
      actual: () => inlineCode('a`b'),
      expected: '``a`b``',
    },
    {
      name: 'inlineCode pads text that starts with a backtick',
      actual: () => inlineCode('`a'),
      expected: '`` `a ``',
    },
    {
      name: 'formatMarkdownPath writes keys with dots, indexes in brackets and odd keys quoted',
      actual: () =>
        formatMarkdownPath(['spec', 'containers', 0, 'env', 'metadata', 'app.kubernetes.io/name']),
      expected: 'spec.containers[0].env.metadata["app.kubernetes.io/name"]',
    },
    {
      name: 'summarizeDescription keeps two paragraphs and marks that there is more',
      actual: () => summarizeDescription('One.\n\nTwo.\n\nThree.'),
      expected: 'One.\n\nTwo. …',
    },
  ];
  for (const { name, actual, expected } of CASES) {
    void test(name, () => assert.equal(actual(), expected));
  }

  void test('summarizeDescription cuts a long description at a sentence end', () => {
    const sentence = 'This sentence is exactly fifty characters long ok. ';
    const summary = summarizeDescription(sentence.repeat(20));
    assert.ok(summary.length <= MAX_DESCRIPTION_LENGTH + 2, `${summary.length}`);
    assert.ok(summary.endsWith('ok. …'), summary);
  });
});
