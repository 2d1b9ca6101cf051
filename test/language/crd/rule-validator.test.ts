import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluateRules } from '../../../server/src/language/crd/cel/rule-validator';

const rule = (text: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  rule: text,
  ...extra,
});
const withRules = (
  schema: Record<string, unknown>,
  ...rules: Record<string, unknown>[]
): Record<string, unknown> => ({
  ...schema,
  'x-kubernetes-validations': rules,
});
const root = (spec: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  properties: { spec },
});

/**
 * Rows follow TestValidationExpressions, TestReasonAndFldPath, TestMessageExpression and TestRatcheting... of
 * apiextensions-apiserver/pkg/apiserver/schema/cel/validation_test.go, worded for a create.
 */
const cases: { name: string; schema: unknown; value: unknown; failures: string[]; notes?: RegExp[] }[] = [
  {
    name: 'TestValidationExpressions "integers": int arithmetic and comparisons on a type integer field hold',
    schema: root(
      withRules(
        { type: 'object', properties: { n: { type: 'integer' } } },
        rule('self.n + 1 == 8 && self.n * 2 > 10 && self.n % 7 == 0'),
      ),
    ),
    value: { spec: { n: 7 } },
    failures: [],
  },
  {
    name: 'TestValidationExpressions "numbers": a type number field is a double even when written as 1',
    schema: root(
      withRules(
        { type: 'object', properties: { x: { type: 'number' } } },
        rule('self.x == 1.0 && self.x / 2.0 == 0.5'),
      ),
    ),
    value: { spec: { x: 1 } },
    failures: [],
  },
  {
    name: 'TestValidationExpressions "strings", "lists" and macros: size, has, all, exists_one, filter, map, matches',
    schema: root(
      withRules(
        {
          type: 'object',
          properties: { names: { type: 'array', items: { type: 'string' } }, s: { type: 'string' } },
        },
        rule(
          'size(self.names) == 3 && self.names.all(n, n.matches("^[a-z]+$")) && self.names.exists_one(n, n == "b")',
        ),
        rule(
          'self.names.filter(n, n.startsWith("a")).map(n, n.upperAscii()) == ["A"] && !has(self.missing) && has(self.s)',
        ),
        rule('self.s.lowerAscii().contains("ell") && self.s.endsWith("o") && self.s.split("l").size() == 3'),
      ),
    ),
    value: { spec: { names: ['a', 'b', 'c'], s: 'Hello' } },
    failures: [],
  },
  {
    name: 'TestValidationExpressions "lists ext" and "quantity": isSorted, sum, min, indexOf and quantity comparisons',
    schema: root(
      withRules(
        {
          type: 'object',
          properties: { l: { type: 'array', items: { type: 'integer' } }, q: { type: 'string' } },
        },
        rule('self.l.isSorted() && self.l.sum() == 6 && self.l.min() == 1 && self.l.indexOf(2) == 1'),
        rule(
          'isQuantity(self.q) && quantity(self.q).isLessThan(quantity("1Gi")) && quantity(self.q).compareTo(quantity("512Mi")) == 0',
        ),
      ),
    ),
    value: { spec: { l: [1, 2, 3], q: '512Mi' } },
    failures: [],
  },
  {
    name: 'a false rule without a message: Invalid value with the schema type and "failed rule: <rule>"',
    schema: root(
      withRules(
        { type: 'object', properties: { minReplicas: { type: 'integer' }, replicas: { type: 'integer' } } },
        rule('self.minReplicas <= self.replicas'),
      ),
    ),
    value: { spec: { minReplicas: 3, replicas: 1 } },
    failures: ['spec: Invalid value: "object": failed rule: self.minReplicas <= self.replicas'],
  },
  {
    name: 'TestReasonAndFldPath: the message, trimmed, on the fieldPath, with reason FieldValueForbidden',
    schema: root(
      withRules(
        { type: 'object', properties: { f: { type: 'object', properties: { x: { type: 'string' } } } } },
        rule('!has(self.f.x)', {
          message: ' x is forbidden ',
          fieldPath: '.f.x',
          reason: 'FieldValueForbidden',
        }),
      ),
    ),
    value: { spec: { f: { x: 'a' } } },
    failures: ['spec.f.x: Forbidden: x is forbidden'],
  },
  {
    name: 'TestReasonAndFldPath: FieldValueRequired and FieldValueDuplicate print as field.Required and field.Duplicate',
    schema: root(
      withRules(
        { type: 'object', properties: { a: { type: 'string' } } },
        rule('has(self.a)', { message: 'a is required', reason: 'FieldValueRequired' }),
        rule('false', { message: 'dup', reason: 'FieldValueDuplicate' }),
      ),
    ),
    value: { spec: {} },
    failures: ['spec: Required value: a is required', 'spec: Duplicate value: "object"'],
  },
  {
    name: 'a fieldPath with a quoted map key is a key of additionalProperties',
    schema: root(
      withRules(
        { type: 'object', additionalProperties: { type: 'string' } },
        rule("self['a.b'] == 'ok'", { fieldPath: "['a.b']" }),
      ),
    ),
    value: { spec: { 'a.b': 'no' } },
    failures: ["spec[a.b]: Invalid value: \"object\": failed rule: self['a.b'] == 'ok'"],
  },
  {
    name: 'TestMessageExpression: the messageExpression text replaces the message',
    schema: root(
      withRules(
        { type: 'object', properties: { n: { type: 'integer' } } },
        rule('self.n < 5', { message: 'static', messageExpression: '"n is " + string(self.n) + ", over 4"' }),
      ),
    ),
    value: { spec: { n: 9 } },
    failures: ['spec: Invalid value: "object": n is 9, over 4'],
  },
  {
    name: 'TestMessageExpression: an empty messageExpression result falls back to the message',
    schema: root(
      withRules({ type: 'object' }, rule('false', { message: 'static', messageExpression: '"  "' })),
    ),
    value: { spec: {} },
    failures: ['spec: Invalid value: "object": static'],
  },
  {
    name: 'a rule on the resource root prints the nil path as the API server does',
    schema: withRules(
      { type: 'object', properties: { spec: { type: 'object' } } },
      rule('self.metadata.name.startsWith("my-")'),
    ),
    value: { metadata: { name: 'other' }, spec: {} },
    failures: ['<nil>: Invalid value: "object": failed rule: self.metadata.name.startsWith("my-")'],
  },
  {
    name: 'rules on list items run per item with the item index in the path, and on string fields with type "string"',
    schema: root({
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: withRules({ type: 'string' }, rule('self != "bad"', { message: 'no bad' })),
        },
      },
    }),
    value: { spec: { items: ['ok', 'bad'] } },
    failures: ['spec.items[1]: Invalid value: "string": no bad'],
  },
  {
    name: 'TestValidationExpressions "transition rules": a rule reading oldSelf does not apply on create',
    schema: root(withRules({ type: 'object' }, rule('self == oldSelf', { message: 'immutable' }))),
    value: { spec: { a: 1 } },
    failures: [],
  },
  {
    name: 'TestRatcheting "optionalOldSelf": with optionalOldSelf the rule runs on create with oldSelf as none',
    schema: root(
      withRules(
        { type: 'object', properties: { a: { type: 'string' } } },
        rule('oldSelf.hasValue() || self.a == "first"', { optionalOldSelf: true }),
      ),
    ),
    value: { spec: { a: 'second' } },
    failures: ['spec: Invalid value: "object": failed rule: oldSelf.hasValue() || self.a == "first"'],
  },
  {
    name: 'a null value is not validated by its own rules',
    schema: root({
      type: 'object',
      properties: { n: withRules({ type: 'string', nullable: true }, rule('false')) },
    }),
    value: { spec: { n: null } },
    failures: [],
  },
  {
    name: 'a missing field read without has() fails with "no such key" as cel-go words it',
    schema: root(
      withRules(
        { type: 'object', properties: { a: { type: 'string' } } },
        rule('self.a == "x"', { message: 'a must be x' }),
      ),
    ),
    value: { spec: {} },
    failures: ['spec: Invalid value: "object": no such key: a evaluating rule: a must be x'],
  },
  {
    name: 'allOf branches carry rules too, run on the same value',
    schema: root({
      type: 'object',
      allOf: [withRules({}, rule('size(self) > 0', { message: 'empty spec' }))],
    }),
    value: { spec: {} },
    failures: ['spec: Invalid value: "object": empty spec'],
  },
  {
    name: 'a function we do not implement: the rule is not evaluated and a note says so, never an error',
    schema: root(
      withRules(
        { type: 'object', properties: { u: { type: 'string' } } },
        rule('isCIDR(self.u) && cidr(self.u).prefixLength() > 8'),
      ),
    ),
    value: { spec: { u: '10.0.0.0/8' } },
    failures: [],
    notes: [
      /^spec: x-kubernetes-validations rule not evaluated: it calls cidr\(\), isCIDR\(\), prefixLength\(\), which this evaluator does not implement: isCIDR/,
    ],
  },
  {
    name: 'urls.go: url() rules are evaluated; an http homepage fails a rule that demands https',
    schema: root(
      withRules(
        { type: 'object', properties: { u: { type: 'string' } } },
        rule('url(self.u).getScheme() == "https"'),
      ),
    ),
    value: { spec: { u: 'http://x' } },
    failures: ['spec: Invalid value: "object": failed rule: url(self.u).getScheme() == "https"'],
  },
  {
    name: 'a rule whose cost bound passes the per-call limit is not evaluated (nested loops over a large list)',
    schema: root(
      withRules(
        { type: 'object', properties: { l: { type: 'array', items: { type: 'integer' } } } },
        rule('self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))'),
      ),
    ),
    value: { spec: { l: Array.from({ length: 200 }, (_, index) => index) } },
    failures: [],
    notes: [/cost bound .* is over the per-call limit of 1,000,000/],
  },
];

void describe('evaluateRules', () => {
  for (const row of cases) {
    void test(row.name, () => {
      const outcome = evaluateRules(row.schema, row.value);
      assert.deepEqual(
        outcome.failures.map((issue) => issue.message),
        row.failures,
      );
      const notes = outcome.notEvaluated.map(
        (issue) =>
          `${issue.path.map((step) => ('name' in step ? step.name : step.index)).join('.')}: ${issue.message}`,
      );
      assert.equal(notes.length, (row.notes ?? []).length, notes.join('\n'));
      (row.notes ?? []).forEach((pattern, index) => assert.match(notes[index] ?? '', pattern));
    });
  }

  void test('a note is given once per rule for a resource, however many items the rule runs on', () => {
    const schema = root({
      type: 'object',
      properties: {
        l: {
          type: 'array',
          items: withRules(
            { type: 'string' },
            rule('format.dns1123Label().validate(self).hasValue() == false'),
          ),
        },
      },
    });
    const outcome = evaluateRules(schema, { spec: { l: ['a', 'b', 'c'] } });
    assert.equal(outcome.notEvaluated.length, 1);
    assert.equal(outcome.evaluated, 0);
  });
});
