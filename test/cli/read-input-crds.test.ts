import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { customKindsOf, usesCustomKinds } from '../../server/src/language/service/analysis-context';
import { getAnalysisContext } from '../support/language-service';
import { analyzeText } from '../../server/src/language/analyzer';

const CRD = [
  'apiVersion: apiextensions.k8s.io/v1',
  'kind: CustomResourceDefinition',
  'metadata: { name: widgets.example.com }',
  'spec:',
  '  group: example.com',
  '  scope: Namespaced',
  '  names: { kind: Widget, plural: widgets }',
  '  versions:',
  '    - { name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object } } }',
  '',
].join('\n');
const WIDGET = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w }\n';
const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\n';

void describe('which files the CLI analyses again once CRDs are known (issue #18)', () => {
  const context = getAnalysisContext('1.35', 8 * 2 ** 20);
  const analyses = [CRD, WIDGET, CONFIG_MAP, `${CRD}---\n${WIDGET}`].map((text) =>
    analyzeText(text, context),
  );
  const customKinds = customKindsOf(analyses);

  void test('only files holding an object of a kind the CRDs define are analysed again', () => {
    assert.ok(customKinds !== undefined);
    assert.deepEqual(
      analyses.map((analysis) => usesCustomKinds(analysis, customKinds)),
      [false, true, false, true],
    );
  });
});
