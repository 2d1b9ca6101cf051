import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getAnalysisContext } from '../../server/src/host/analysis-context';
import { analyzeText } from '../../server/src/language/analyzer';

// Per document, not per file: template text and YAML that is not a Kubernetes object are set aside with one note
// for the file, and the plain objects beside them are still analysed.

const context = getAnalysisContext('1.35', 8 * 2 ** 20);

const DEPLOYMENT_WITH_TYPO = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: "3"
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`;

const codes = (text: string): string[] => analyzeText(text, context).findings.map((finding) => finding.code);

describe('documents of template text and documents that are not objects', () => {
  test('a templated document is left out with one note, and the plain document beside it is still checked', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n---\n${DEPLOYMENT_WITH_TYPO}`;
    const analysis = analyzeText(text, context);
    assert.deepEqual(
      analysis.findings.map((finding) => finding.code),
      ['helm-template-skipped', 'schema-type'],
    );
    assert.match(
      analysis.findings[0]?.message ?? '',
      /^1 of the 2 documents of this file contain template syntax/,
    );
    assert.equal(analysis.skipped, undefined);
    assert.deepEqual(
      analysis.documents.map((document) => document.objects.length),
      [0, 1],
    );
  });

  test('a file whose every document is template text is skipped as a whole, as before', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n---\n{{- if .Values.x }}\nkind: Secret\n{{- end }}\n`;
    const analysis = analyzeText(text, context);
    assert.deepEqual(codes(text), ['helm-template-skipped']);
    assert.equal(analysis.skipped?.code, 'helm-template-skipped');
  });

  test('a comment block before the only templated document does not keep the file from being skipped whole', () => {
    const analysis = analyzeText(`# generated\n---\nkind: ConfigMap\nmetadata: {name: "{{ x }}"}\n`, context);
    assert.equal(analysis.skipped?.code, 'helm-template-skipped');
    assert.deepEqual(analysis.documents, []);
  });

  test('a document that is not a Kubernetes object, beside objects, gets one note for the file', () => {
    const text = `${DEPLOYMENT_WITH_TYPO.replace('"3"', '3')}---\nreplicaCount: 2\nimage: nginx\n---\nfoo: bar\n`;
    const analysis = analyzeText(text, context);
    assert.deepEqual(
      analysis.findings.map((finding) => finding.code),
      ['document-not-an-object'],
    );
    assert.match(analysis.findings[0]?.message ?? '', /documents 2, 3 are not a Kubernetes object/);
  });

  test('a file with no Kubernetes object at all is not ours: no note', () => {
    assert.deepEqual(codes('name: CI\non: push\n---\nfoo: bar\n'), []);
  });
});
