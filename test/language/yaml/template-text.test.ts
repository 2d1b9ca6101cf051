import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findTemplateSite } from '../../../server/src/language/yaml/template-text';

// Where {{ … }} is the document's structure (template text) and where it is data, decided from the YAML tokens.
// Expected: undefined (data), or the reason and the `{{ … }}` text found.

const CASES: readonly { name: string; text: string; expected?: { reason: string; at: string } }[] = [
  {
    name: 'an unquoted {{ … }} value is read by YAML as a flow mapping: structure',
    text: 'spec:\n  replicas: {{ .Values.replicas }}\n',
    expected: { reason: 'structure', at: '{{ .Values.replicas }}' },
  },
  {
    name: 'a {{- if … }} line at the start of a document is structure',
    text: '{{- if .Values.enabled }}\nkind: Service\n{{- end }}\n',
    expected: { reason: 'structure', at: '{{- if .Values.enabled }}' },
  },
  {
    name: 'an {{ include … | nindent 4 }} line inside a mapping is structure',
    text: 'metadata:\n  labels:\n    {{- include "web.labels" . | nindent 4 }}\n',
    expected: { reason: 'structure', at: '{{- include "web.labels" . | nindent 4 }}' },
  },
  {
    name: 'a name that begins with {{ … }} and goes on is structure, even with Prometheus-like names',
    text: 'metadata:\n  name: {{ $labels.pod }}-web\n',
    expected: { reason: 'structure', at: '{{ $labels.pod }}' },
  },
  {
    name: 'a plain scalar holding Prometheus alert templating is data',
    text: 'annotations:\n  description: Pod {{ $labels.namespace }}/{{ $labels.pod}} has {{ $value }} restarts.\n',
  },
  {
    name: 'single- and double-quoted Prometheus templating is data',
    text: 'summary: \'{{ $value | humanizePercentage }} down\'\ntext: "{{ template \\"slack.text\\" . }}"\n',
  },
  {
    name: 'a block scalar of dashboard JSON with legend formats is data, even where a line starts with {{',
    text: 'data:\n  d.json: |\n    {"legendFormat": "{{instance}}"}\n    {{ code }}\n',
  },
  {
    name: 'a comment with {{ … }} is neither data nor structure: the document is analysed',
    text: '# rendered from {{ .Values.x }}\nkind: ConfigMap\n',
  },
  {
    name: 'a plain scalar naming .Values is an unrendered chart: template text',
    text: 'containers:\n- image: web:{{ .Values.image.tag }}\n',
    expected: { reason: 'helm-value', at: '{{ .Values.image.tag }}' },
  },
  {
    name: 'a quoted scalar naming .Release in an otherwise plain document is a string: data',
    text: 'metadata:\n  name: "{{ .Release.Name }}-svc"\n',
  },
  {
    name: 'a block scalar calling toYaml on $.Values in an otherwise plain document is a string: data',
    text: 'data:\n  conf: |\n    a: 1\n    {{ toYaml $.Values.conf }}\n',
  },
  {
    name: 'Go templates naming .Values in a block string, as istio-sidecar-injector holds them, are data',
    text:
      'kind: ConfigMap\nmetadata:\n  name: istio-sidecar-injector\ndata:\n  config: |-\n    policy: enabled\n' +
      '    templates:\n      sidecar: |\n        {{- $containers := list }}\n' +
      '        image: "{{ .Values.global.hub }}/proxyv2:{{ .Values.global.tag }}"\n' +
      '        {{ toJSON .ProxyConfig.ProxyMetadata }}\n',
  },
  {
    name: 'a document that is a template by its structure is template text, even when a string names .Values first',
    text: 'data:\n  a: "{{ .Values.a }}"\nspec:\n  {{- toYaml .Values.spec | nindent 2 }}\n',
    expected: { reason: 'structure', at: '{{- toYaml .Values.spec | nindent 2 }}' },
  },
  {
    name: 'a plain scalar naming .Values makes the document template text, with quoted Helm values beside it',
    text: 'metadata:\n  name: "{{ .Release.Name }}"\nspec:\n  image: web:{{ .Values.tag }}\n',
    expected: { reason: 'helm-value', at: '{{ .Values.tag }}' },
  },
  {
    name: 'Prometheus data first, Helm structure later: the structure is found',
    text: 'a: Pod {{ $labels.pod }}\nb: {{ .Values.b }}\n',
    expected: { reason: 'structure', at: '{{ .Values.b }}' },
  },
  {
    name: 'a {{ with no closing }} in a plain scalar is data, the site ends where the scalar does',
    text: 'a: x {{ y\n',
  },
  {
    name: 'a Prometheus label named like a Helm function ($labels.required) is data',
    text: 'description: Missing {{ $labels.required }} on {{ $labels.include }}\n',
  },
  {
    name: 'a Helm function right after {{- in a plain scalar is still found',
    text: 'data:\n  x: a {{-include "x" .}}\n',
    expected: { reason: 'helm-value', at: '{{-include "x" .}}' },
  },
  { name: 'a document without {{ has no template site', text: 'kind: ConfigMap\ndata: {a: "}}"}\n' },
];

describe('template text found from the YAML tokens', () => {
  for (const { name, text, expected } of CASES) {
    test(name, () => {
      const site = findTemplateSite(text);
      assert.deepEqual(
        site === undefined ? undefined : { reason: site.reason, at: text.slice(site.start, site.end) },
        expected,
      );
    });
  }

  test('deeply nested flow collections are walked without overflowing the stack', () => {
    const text = `a: ${'['.repeat(20_000)}{{ x }}`;
    assert.equal(findTemplateSite(text)?.reason, 'structure');
  });
});
