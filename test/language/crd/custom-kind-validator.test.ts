import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeText } from '../../../server/src/language/analyzer';
import { buildCustomKindValidator } from '../../../server/src/language/crd';
import type { SeenFinding } from '../rules/rule-harness';
import { crdLines } from '../../support/crd-yaml';
import { describeFindings, objectsOf, ruleContext, yaml } from '../rules/rule-harness';

/** A CRD for example.com Widget: v1 served with a schema, v2 defined but not served, v3 with a broken schema. */
const WIDGET_CRD = yaml(
  ...crdLines(
    { kind: 'Widget' },
    [
      'type: object',
      'properties:',
      '  spec:',
      '    type: object',
      '    required: [size]',
      '    properties:',
      '      size: { type: integer, minimum: 1 }',
      '      color: { type: string, enum: [red, blue] }',
      '      port: { x-kubernetes-int-or-string: true }',
      '      note: { type: string, nullable: true }',
      '      config: { type: object, x-kubernetes-preserve-unknown-fields: true }',
      '      template:',
      '        type: object',
      '        x-kubernetes-embedded-resource: true',
      '        properties: { spec: { type: object, x-kubernetes-preserve-unknown-fields: true } }',
      '  status: { type: object, x-kubernetes-preserve-unknown-fields: true }',
    ],
    [
      '- name: v2',
      '  served: false',
      '  storage: false',
      '  schema: { openAPIV3Schema: { type: object } }',
      '- name: v3',
      '  served: true',
      '  storage: false',
      '  schema: { openAPIV3Schema: { type: object, properties: { spec: { type: banana } } } }',
    ],
  ),
);

/** A Widget of an apiVersion with the given spec lines (indented under spec:). */
function widget(apiVersion: string, ...spec: string[]): string {
  return yaml(
    `apiVersion: ${apiVersion}`,
    'kind: Widget',
    'metadata: { name: small }',
    'spec:',
    ...spec.map((line) => `  ${line}`),
  );
}

const validator = buildCustomKindValidator(objectsOf(WIDGET_CRD));

/** Analyses a text with the Widget CRD known, and reports the findings by the text they cover. */
function analyse(text: string): SeenFinding[] {
  const context = { ...ruleContext(), key: `crd-test-${validator.key}`, customKinds: validator };
  return describeFindings(text, analyzeText(text, context).findings);
}

const cases: { name: string; text: string; expected: SeenFinding[] }[] = [
  {
    name: 'a Widget that follows the schema gets no finding, int-or-string, nullable, preserved and embedded fields included',
    text: widget(
      'example.com/v1',
      'size: 2',
      'color: red',
      'port: http',
      'note: null',
      'config: { anything: [1, 2], goes: true }',
      'template: { apiVersion: v1, kind: Pod, metadata: { name: x }, spec: { free: form } }',
    ),
    expected: [],
  },
  {
    // defaulting.PruneNonNullableNullsWithoutDefaults (prunenulls.go): a kubebuilder sample's empty `spec:`.
    name: 'a null spec is pruned before validation as the API server prunes it, so it is no type error',
    text: widget('example.com/v1'),
    expected: [],
  },
  {
    name: 'a null non-nullable field is pruned, so a null in a required field is reported as missing, on its key',
    text: widget('example.com/v1', 'size: null', 'color: null'),
    expected: [
      {
        code: 'schema-required',
        message:
          'Missing required field "size" in spec: it is null here, and the API server drops a custom resource\'s null fields before it validates it, so the apply is refused ("spec.size: Required value").',
        at: 'size',
        line: 5,
      },
    ],
  },
  {
    name: 'an unknown field is reported on its key, with the closest known field as a fix',
    text: widget('example.com/v1', 'size: 2', 'colour: red'),
    expected: [
      {
        code: 'schema-unknown-field',
        message: 'unknown field "spec.colour"; did you mean "color"?',
        at: 'colour',
        line: 6,
        replacement: 'color',
      },
    ],
  },
  {
    name: 'an unknown top-level field is reported (only apiVersion, kind, metadata and the schema fields are allowed)',
    text: `${widget('example.com/v1', 'size: 2')}extra: 1\n`,
    expected: [{ code: 'schema-unknown-field', message: 'unknown field "extra"', at: 'extra', line: 6 }],
  },
  {
    name: 'an unknown field under metadata is refused by strict decoding, with the ObjectMeta field it resembles',
    text: yaml(
      'apiVersion: example.com/v1',
      'kind: Widget',
      'metadata: { name: small, lables: { app: w }, annotations: { a: b } }',
      'spec:',
      '  size: 2',
    ),
    expected: [
      {
        code: 'schema-unknown-field',
        message: 'unknown field "metadata.lables"; did you mean "labels"?',
        at: 'lables',
        line: 3,
        replacement: 'labels',
      },
    ],
  },
  {
    name: 'a wrong type is reported on the value',
    text: widget('example.com/v1', 'size: three'),
    expected: [
      {
        code: 'schema-type',
        message: '"spec.size" must be integer, not string "three".',
        at: 'three',
        line: 5,
      },
    ],
  },
  {
    name: 'an int-or-string field refuses a boolean',
    text: widget('example.com/v1', 'size: 1', 'port: true'),
    expected: [
      {
        code: 'schema-type',
        message: '"spec.port" must be integer or string, not boolean true.',
        at: 'true',
        line: 6,
      },
    ],
  },
  {
    name: 'a missing required field and a value below its minimum are both reported',
    text: yaml(
      'apiVersion: example.com/v1',
      'kind: Widget',
      'metadata: { name: small }',
      'spec: { color: blue }',
      '---',
      widget('example.com/v1', 'size: 0'),
    ),
    expected: [
      { code: 'schema-required', message: 'Missing required field "size" in spec.', at: 'spec', line: 4 },
      { code: 'schema-constraint', message: '"spec.size" must be >= 1.', at: '0', line: 10 },
    ],
  },
  {
    name: 'a version the CRD does not serve is reported on the apiVersion, with the served one as a fix',
    text: widget('example.com/v2', 'size: 2'),
    expected: [
      {
        code: 'unknown-kind',
        message:
          'CustomResourceDefinition widgets.example.com does not serve example.com/v2; served: example.com/v1, example.com/v3.',
        at: 'example.com/v2',
        line: 1,
      },
    ],
  },
  {
    name: 'a version whose schema cannot be compiled is not checked and does not crash',
    text: widget('example.com/v3', 'anything: goes'),
    expected: [],
  },
  {
    name: 'a custom resource name must be a DNS-1123 subdomain',
    text: yaml(
      'apiVersion: example.com/v1',
      'kind: Widget',
      'metadata: { name: Small_One }',
      'spec: { size: 1 }',
    ),
    expected: [
      {
        code: 'invalid-name',
        message:
          "metadata.name: Invalid value: \"Small_One\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        at: 'Small_One',
        line: 3,
      },
    ],
  },
];

void describe('custom resources validated by their CustomResourceDefinition', () => {
  for (const { name, text, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(analyse(text), expected);
    });
  }

  void test('a kind no CRD defines is unknown to the validator', () => {
    const [gadget] = objectsOf(yaml('apiVersion: example.com/v1', 'kind: Gadget', 'metadata: { name: g }'));
    assert.ok(gadget);
    assert.equal(validator.validate(gadget), 'unknown');
  });

  void test('the validator lists the kinds it defines', () => {
    assert.deepEqual(validator.kinds, ['example.com/Widget']);
  });

  void test('the key is the same for the same CRDs and changes when a CRD changes', () => {
    assert.equal(buildCustomKindValidator(objectsOf(WIDGET_CRD)).key, validator.key);
    const changed = buildCustomKindValidator(objectsOf(WIDGET_CRD.replace('minimum: 1', 'minimum: 2')));
    assert.notEqual(changed.key, validator.key);
  });

  void test('objects that are not CRDs, and CRDs without a group, define nothing', () => {
    const empty = buildCustomKindValidator(
      objectsOf(
        yaml(
          'apiVersion: apiextensions.k8s.io/v1',
          'kind: CustomResourceDefinition',
          'metadata: { name: broken }',
          'spec: { names: { kind: Widget } }',
          '---',
          'apiVersion: v1',
          'kind: ConfigMap',
          'metadata: { name: c }',
        ),
      ),
    );
    assert.deepEqual(empty.kinds, []);
  });

  void test('a kubebuilder sample whose spec is required and written empty ("spec:" and a TODO comment) is refused, said on spec', () => {
    // controller-gen writes `required: [spec]` for a +required spec; the scaffolded sample leaves it empty, and the
    // API server prunes the null before it validates (prunenulls.go), so kubectl apply gets "spec: Required value".
    const captains = buildCustomKindValidator(
      objectsOf(
        yaml(
          ...crdLines({ kind: 'Captain', group: 'crew.example.com' }, [
            'type: object',
            'required: [spec]',
            'properties:',
            '  spec: { type: object, properties: { foo: { type: string } } }',
          ]),
        ),
      ),
    );
    const sample = yaml(
      'apiVersion: crew.example.com/v1',
      'kind: Captain',
      'metadata: { name: captain-sample }',
      'spec:',
      '  # TODO(user): Add fields here',
    );
    const context = { ...ruleContext(), key: `crd-test-${captains.key}`, customKinds: captains };
    assert.deepEqual(describeFindings(sample, analyzeText(sample, context).findings), [
      {
        code: 'schema-required',
        message:
          'Missing required field "spec": it is null here, and the API server drops a custom resource\'s null fields before it validates it, so the apply is refused ("spec: Required value").',
        at: 'spec',
        line: 4,
      },
    ]);
    const filled = sample.replace('# TODO(user): Add fields here', 'foo: bar');
    assert.deepEqual(describeFindings(filled, analyzeText(filled, context).findings), []);
  });

  void test('without a CRD, the analyzer reports the kind as an unknown custom kind', () => {
    const text = widget('example.com/v1', 'size: 2');
    const findings = analyzeText(text, ruleContext()).findings;
    assert.deepEqual(
      findings.map((finding) => finding.code),
      ['unknown-custom-kind'],
    );
  });
});
