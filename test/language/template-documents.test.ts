import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getAnalysisContext } from '../support/language-service';
import { analyzeText } from '../../server/src/language/analyzer';
import { withHelmChart } from '../../server/src/language/helm-chart-context';

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
    assert.equal(
      analysis.findings[0]?.message,
      'Document 1 is template text (line 4: `name: {{ .Release.Name }}`); not analysed — render it with `helm template`.',
    );
    assert.equal(analysis.skipped, undefined);
    assert.deepEqual(
      analysis.documents.map((document) => document.objects.length),
      [0, 1],
    );
  });

  test('a file whose every document is template text is skipped as a whole', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n---\n{{- if .Values.x }}\nkind: Secret\n{{- end }}\n`;
    const analysis = analyzeText(text, context);
    assert.deepEqual(codes(text), ['helm-template-skipped']);
    assert.equal(analysis.skipped?.code, 'helm-template-skipped');
  });

  test('a comment block before the only templated document does not keep the file from being skipped whole', () => {
    const analysis = analyzeText(
      `# generated\n---\nkind: ConfigMap\nmetadata:\n  name: web-{{ .Release.Name }}\n`,
      context,
    );
    assert.equal(analysis.skipped?.code, 'helm-template-skipped');
    assert.equal(
      analysis.skipped?.message,
      'Document 2 is template text (line 5: `name: web-{{ .Release.Name }}`); not analysed — render it with `helm template`.',
    );
    assert.deepEqual(analysis.documents, []);
  });

  test('a file of one templated document is named as the file in the note', () => {
    const analysis = analyzeText(
      'kind: ConfigMap\napiVersion: v1\n{{- if .Values.x }}\ndata: {}\n{{- end }}\n',
      context,
    );
    assert.equal(
      analysis.skipped?.message,
      'This file is template text (line 3: `{{- if .Values.x }}`); not analysed — render it with `helm template`.',
    );
  });

  test('{{ … }} as data (alert templating in a ConfigMap value) does not skip the document: its mistakes are found', () => {
    const text =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alerts\n  annotations:\n    summary: Pod {{ $labels.pod }} down\ndata:\n  tmpl: |\n    {{ define "t" }}{{ .CommonLabels.alertname }}{{ end }}\n  count: 3\n';
    const analysis = analyzeText(text, context);
    assert.equal(analysis.skipped, undefined);
    assert.deepEqual(
      analysis.findings.map((finding) => finding.code),
      ['schema-type'],
    );
  });

  test('a document that fails to parse only because of template text is not a yaml-syntax error', () => {
    const text =
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-svc\n  labels: {{ include "x" . }}\n';
    assert.deepEqual(codes(text), ['helm-template-skipped']);
  });

  test('several templated documents beside a plain one are counted in one note', () => {
    const text = `{{- if .Values.a }}\nkind: A\n{{- end }}\n---\n${DEPLOYMENT_WITH_TYPO}---\nkind: B\nspec: {{ .Values.b }}\n`;
    const analysis = analyzeText(text, context);
    assert.deepEqual(
      analysis.findings.map((finding) => [finding.code, finding.message.slice(0, 44)]),
      [
        ['helm-template-skipped', 'Documents 1, 3 are template text (line 1: `{'],
        ['schema-type', '"spec.replicas" must be integer, not string '],
      ],
    );
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

  test('a file of a Helm chart folder is skipped whole with the chart named, template text or not', () => {
    const chartContext = withHelmChart(context, 'web');
    const analysis = analyzeText(DEPLOYMENT_WITH_TYPO, chartContext);
    assert.deepEqual(analysis.documents, []);
    assert.deepEqual(
      analysis.findings.map((finding) => [finding.code, finding.message]),
      [
        [
          'helm-chart-skipped',
          'This file is part of the Helm chart web (Chart.yaml beside templates/), which is rendered as a unit; not analysed — render the chart with `helm template`.',
        ],
      ],
    );
    assert.equal(withHelmChart(context, 'web'), chartContext, 'the same chart gives the same context');
  });

  test("a chart's values file is skipped without a note: it is not a manifest", () => {
    const analysis = analyzeText(
      'replicaCount: 2\nimage: {tag: "{{ .Chart.AppVersion }}"}\n',
      withHelmChart(context, 'web'),
    );
    assert.equal(analysis.skipped?.code, 'helm-chart-skipped');
    assert.deepEqual(analysis.findings, []);
  });

  test('hostile nesting of {{ past the depth limit is refused unparsed (yaml-too-deep), its tokens never read', () => {
    const text = `kind: ConfigMap\n${'- {{\n'.repeat(50_000)}`;
    assert.deepEqual(codes(text), ['yaml-too-deep']);
  });
});
