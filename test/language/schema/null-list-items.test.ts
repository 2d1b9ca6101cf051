/**
 * A null item in a list of objects is decoded by the API server as an empty object, which lacks the item's
 * required fields: reported on the item. Null items of string lists, and null fields, are accepted as the API
 * server accepts them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getAnalysisContext } from '../../support/language-service';
import { analyzeText } from '../../../server/src/language/analyzer';

const CONTEXT = getAnalysisContext('1.35', 8192 * 1024);

function findings(text: string): [string, string, string][] {
  return analyzeText(text, CONTEXT).findings.map((finding) => [
    finding.code,
    text.slice(finding.start, finding.end),
    finding.message,
  ]);
}

const POD = (spec: string): string =>
  ['apiVersion: v1', 'kind: Pod', 'metadata: { name: p }', 'spec:', spec].join('\n') + '\n';

describe('null items in lists of objects', () => {
  test('a null volume and a null container are reported on the item, naming the required fields', () => {
    assert.deepEqual(findings(POD('  volumes: [null]\n  containers: [~]')), [
      [
        'schema-required',
        'null',
        'spec.volumes[0] is null: the API server reads it as an empty object, which lacks the required field "name".',
      ],
      [
        'schema-required',
        '~',
        'spec.containers[0] is null: the API server reads it as an empty object, which lacks the required field "name".',
      ],
    ]);
  });

  test('a null item of a string list and a null field are accepted', () => {
    assert.deepEqual(
      findings(
        POD('  volumes: null\n  containers:\n    - name: a\n      image: nginx\n      args: [null, x]'),
      ),
      [],
    );
  });

  test('a null item among others in a nested list (a Deployment’s template) is reported alone', () => {
    const text = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: d }',
      'spec:',
      '  selector: { matchLabels: { a: b } }',
      '  template:',
      '    metadata: { labels: { a: b } }',
      '    spec:',
      '      containers:',
      '        - { name: a, image: nginx, ports: [{ containerPort: 80 }, null] }',
      '',
    ].join('\n');
    assert.deepEqual(
      findings(text).map(([code, covered, message]) => [code, covered, message.split(':')[0]]),
      [['schema-required', 'null', 'spec.template.spec.containers[0].ports[1] is null']],
    );
  });
});
