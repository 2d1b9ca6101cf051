/**
 * A removed apiVersion whose replacement changes fields is rewritten as `kubectl convert` writes it: the fix
 * applied leaves a document with no error at all in Kubernetes 1.35. Rows follow kubectl-convert's conversions
 * (pkg/apis/apps and pkg/apis/networking conversion and defaults of the old versions).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeText } from '../../../server/src/language/analyzer';
import type { TextFinding } from '../../../server/src/language/findings';
import { getAnalysisContext } from '../../support/language-service';

const context = getAnalysisContext('1.35', 1_000_000);

/** The document with the removed-api-version fix applied, and the fix's title. */
function convert(text: string): { text: string; title: string } | undefined {
  const finding = analyzeText(text, context).findings.find((f) => f.code === 'removed-api-version');
  assert.ok(finding !== undefined, 'the apiVersion is reported removed');
  const fix = finding.fix;
  if (fix === undefined) {
    return undefined;
  }
  const edits = fix.edits ?? [{ start: finding.start, end: finding.end, newText: fix.replacement ?? '' }];
  let fixed = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    fixed = fixed.slice(0, edit.start) + edit.newText + fixed.slice(edit.end);
  }
  return { text: fixed, title: fix.title ?? '' };
}

const errorsOf = (text: string): TextFinding[] =>
  analyzeText(text, context).findings.filter((finding) => finding.severity === 'error');

const lines = (...rows: string[]): string => `${rows.join('\n')}\n`;

const TEMPLATE = [
  '  template:',
  '    metadata:',
  '      labels:',
  '        app: web',
  '        tier: "frontend"',
  '    spec:',
  '      containers:',
  '        - name: web',
  '          image: nginx:1.27',
];

describe('converting a removed apiVersion as kubectl convert does', () => {
  const rows: { name: string; input: string; expected: string }[] = [
    {
      name: 'an extensions/v1beta1 Deployment without a selector gets apps/v1 and matchLabels from its template labels (SetDefaults_Deployment)',
      input: lines(
        'apiVersion: extensions/v1beta1',
        'kind: Deployment',
        'metadata:',
        '  name: web',
        'spec:',
        '  replicas: 2',
        ...TEMPLATE,
      ),
      expected: lines(
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: web',
        'spec:',
        '  replicas: 2',
        ...TEMPLATE,
        '  selector:',
        '    matchLabels:',
        '      app: web',
        '      tier: frontend',
      ),
    },
    {
      name: 'an apps/v1beta2 Deployment with a selector keeps it and drops rollbackTo, which apps/v1 does not have',
      input: lines(
        'apiVersion: apps/v1beta2',
        'kind: Deployment',
        'metadata: {name: web}',
        'spec:',
        '  rollbackTo:',
        '    revision: 2',
        '  selector:',
        '    matchLabels: {app: web}',
        ...TEMPLATE,
      ),
      expected: lines(
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: web}',
        'spec:',
        '  selector:',
        '    matchLabels: {app: web}',
        ...TEMPLATE,
      ),
    },
    {
      name: 'an extensions/v1beta1 DaemonSet keeps its OnDelete default written out (SetDefaults_DaemonSet of extensions/v1beta1)',
      input: lines(
        'apiVersion: extensions/v1beta1',
        'kind: DaemonSet',
        'metadata:',
        '  name: agent',
        'spec:',
        ...TEMPLATE,
      ),
      expected: lines(
        'apiVersion: apps/v1',
        'kind: DaemonSet',
        'metadata:',
        '  name: agent',
        'spec:',
        ...TEMPLATE,
        '  selector:',
        '    matchLabels:',
        '      app: web',
        '      tier: frontend',
        '  updateStrategy:',
        '    type: OnDelete',
      ),
    },
    {
      name: 'an extensions/v1beta1 Ingress gets defaultBackend, service.name/port and pathType ImplementationSpecific (Convert_v1beta1_IngressBackend_To_networking_IngressBackend)',
      input: lines(
        'apiVersion: extensions/v1beta1',
        'kind: Ingress',
        'metadata:',
        '  name: shop',
        'spec:',
        '  backend:',
        '    serviceName: fallback',
        '    servicePort: 8080',
        '  rules:',
        '    - host: shop.example.com',
        '      http:',
        '        paths:',
        '          - path: /api',
        '            backend:',
        '              serviceName: api',
        '              servicePort: http',
        '          - backend:',
        '              servicePort: 80',
        '              serviceName: web',
      ),
      expected: lines(
        'apiVersion: networking.k8s.io/v1',
        'kind: Ingress',
        'metadata:',
        '  name: shop',
        'spec:',
        '  defaultBackend:',
        '    service:',
        '      name: fallback',
        '      port:',
        '        number: 8080',
        '  rules:',
        '    - host: shop.example.com',
        '      http:',
        '        paths:',
        '          - pathType: ImplementationSpecific',
        '            path: /api',
        '            backend:',
        '              service:',
        '                name: api',
        '                port:',
        '                  name: http',
        '          - pathType: ImplementationSpecific',
        '            backend:',
        '              service:',
        '                name: web',
        '                port:',
        '                  number: 80',
      ),
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const converted = convert(row.input);
      assert.ok(converted !== undefined, 'a fix is offered');
      assert.equal(converted.text, row.expected);
      assert.deepEqual(
        errorsOf(converted.text).map((finding) => `${finding.code}: ${finding.message}`),
        [],
      );
    });
  }

  test('a removed kind with no replacement (PodSecurityPolicy) gets no fix', () => {
    const text = lines(
      'apiVersion: policy/v1beta1',
      'kind: PodSecurityPolicy',
      'metadata:',
      '  name: p',
      'spec: {}',
    );
    assert.equal(convert(text), undefined);
  });

  test('a Deployment whose template has no labels gets no fix: the selector cannot be derived', () => {
    const text = lines(
      'apiVersion: extensions/v1beta1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      'spec:',
      '  template:',
      '    spec:',
      '      containers: [{name: web, image: nginx}]',
    );
    assert.equal(convert(text), undefined);
  });

  test('the title says what besides the apiVersion changes', () => {
    const converted = convert(
      lines('apiVersion: apps/v1beta1', 'kind: ReplicaSet', 'metadata:', '  name: r', 'spec:', ...TEMPLATE),
    );
    assert.equal(converted?.title, 'Convert to apps/v1 (spec.selector from the template labels)');
  });
});
