import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeText } from '../../../server/src/language/analyzer';
import { buildCustomKindValidator } from '../../../server/src/language/crd';
import type { SeenFinding } from '../rules/rule-harness';
import { crdLines } from '../../support/crd-yaml';
import { describeFindings, objectsOf, ruleContext, yaml } from '../rules/rule-harness';

/**
 * A Route CRD shaped like gateway-api's: a list-map of listeners keyed by name, a rule on the list, a CEL rule
 * with a fieldPath and reason, a transition rule, and an address whose defaulted type decides a oneOf.
 */
const ROUTE_CRD = yaml(
  ...crdLines({ kind: 'Route' }, [
    'type: object',
    'properties:',
    '  spec:',
    '    type: object',
    '    x-kubernetes-validations:',
    "      - { rule: 'self == oldSelf', message: spec is immutable }",
    "      - { rule: '!has(self.tls) || self.port == 443', message: tls needs port 443, fieldPath: .port, reason: FieldValueForbidden }",
    '    properties:',
    '      port: { type: integer }',
    '      tls: { type: boolean }',
    '      address:',
    '        type: object',
    '        oneOf:',
    '          - properties: { type: { enum: [IP] } }',
    '          - properties: { type: { not: { enum: [IP] } } }',
    '        properties:',
    '          type: { type: string, default: IP }',
    '          value: { type: string }',
    '      listeners:',
    '        type: array',
    '        x-kubernetes-list-type: map',
    '        x-kubernetes-list-map-keys: [name]',
    "        x-kubernetes-validations: [{ rule: 'self.all(l, l.port > 0)' }]",
    '        items:',
    '          type: object',
    '          properties: { name: { type: string }, port: { type: integer } }',
  ]),
);

const validator = buildCustomKindValidator(objectsOf(ROUTE_CRD));

function analyse(...spec: string[]): SeenFinding[] {
  const text = yaml(
    'apiVersion: example.com/v1',
    'kind: Route',
    'metadata: { name: r }',
    'spec:',
    ...spec.map((line) => `  ${line}`),
  );
  const context = { ...ruleContext(), key: `crd-rules-${validator.key}`, customKinds: validator };
  return describeFindings(text, analyzeText(text, context).findings);
}

const cases: { name: string; spec: string[]; expected: SeenFinding[] }[] = [
  {
    name: 'a valid Route gets no finding: the transition rule is skipped and the defaulted type picks one oneOf branch',
    spec: [
      'port: 443',
      'tls: true',
      'address: { value: 1.2.3.4 }',
      'listeners: [{ name: a, port: 1 }, { name: b, port: 2 }]',
    ],
    expected: [],
  },
  {
    name: 'a false rule with fieldPath and reason is a Forbidden error on that field',
    spec: ['port: 80', 'tls: true'],
    expected: [
      {
        code: 'crd-validation-rule',
        message: 'spec.port: Forbidden: tls needs port 443',
        at: 'port',
        line: 5,
      },
    ],
  },
  {
    name: 'a rule without a message on a list says which rule failed, on the list key',
    spec: ['listeners: [{ name: a, port: 0 }]'],
    expected: [
      {
        code: 'crd-validation-rule',
        message: 'spec.listeners: Invalid value: "array": failed rule: self.all(l, l.port > 0)',
        at: 'listeners',
        line: 5,
      },
    ],
  },
  {
    name: 'two listeners with one name are a duplicate of the list map, worded as the API server prints it',
    spec: ['listeners:', '  - { name: a, port: 1 }', '  - { name: a, port: 2 }'],
    expected: [
      {
        code: 'crd-list-duplicate',
        message: 'spec.listeners[1]: Duplicate value: {"name":"a"}',
        at: '{ name: a, port: 2 }',
        line: 7,
      },
    ],
  },
];

void describe('custom resource rules in the analyzer', () => {
  for (const row of cases) {
    void test(row.name, () => {
      assert.deepEqual(analyse(...row.spec), row.expected);
    });
  }
});
