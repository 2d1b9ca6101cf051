/**
 * A quantity written with a unit people use but Kubernetes does not ("2 cores", "512mb", "100 m") gets one quick
 * fix per quantity it likely meant, each of which parses as a Kubernetes quantity (resource.ParseQuantity) and
 * leaves the document with no invalid-quantity error.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeText } from '../../../server/src/language/analyzer';
import { quickFixesFor, toDiagnostic } from '../../../server/src/language/lsp/diagnostics';
import { LineIndex } from '../../../server/src/language/text/line-index';
import { getAnalysisContext } from '../../support/language-service';

const context = getAnalysisContext('1.35', 1_000_000);
const URI = 'file:///pod.yaml';

const pod = (cpu: string, memory: string): string =>
  [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: app',
    'spec:',
    '  containers:',
    '    - name: app',
    '      image: nginx:1.27',
    '      resources:',
    '        requests:',
    `          cpu: ${cpu}`,
    `          memory: ${memory}`,
    '',
  ].join('\n');

/** Each quick fix of the invalid-quantity diagnostics, as its title and the document it leaves. */
function fixesOf(text: string): { title: string; fixed: string }[] {
  const lines = new LineIndex(text);
  const diagnostics = analyzeText(text, context)
    .findings.filter((finding) => finding.code === 'invalid-quantity')
    .map((finding) => toDiagnostic(finding, lines, URI));
  // The client sends the diagnostics back as JSON: the fixes are read from that, as untrusted data.
  const wire = JSON.parse(JSON.stringify(diagnostics)) as typeof diagnostics;
  return quickFixesFor(URI, wire).map((action) => ({
    title: action.title,
    fixed: TextDocument.applyEdits(
      TextDocument.create(URI, 'yaml', 1, text),
      action.edit?.changes?.[URI] ?? [],
    ),
  }));
}

describe('the unit fix of a malformed quantity', () => {
  const rows: { name: string; cpu: string; memory: string; titles: string[] }[] = [
    { name: '"2 cores" becomes 2', cpu: '2 cores', memory: '512Mi', titles: ['Change to 2'] },
    {
      name: '"512mb" offers 512M and 512Mi as two fixes',
      cpu: '1',
      memory: '512mb',
      titles: ['Change to 512M', 'Change to 512Mi'],
    },
    { name: '"1gb" offers 1G and 1Gi', cpu: '1', memory: '1gb', titles: ['Change to 1G', 'Change to 1Gi'] },
    { name: '"1GB" offers 1G and 1Gi', cpu: '1', memory: '1GB', titles: ['Change to 1G', 'Change to 1Gi'] },
    { name: '"100 m" becomes 100m', cpu: '100 m', memory: '64Mi', titles: ['Change to 100m'] },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const fixes = fixesOf(pod(row.cpu, row.memory));
      assert.deepEqual(
        fixes.map((fix) => fix.title),
        row.titles,
      );
      for (const fix of fixes) {
        assert.deepEqual(
          analyzeText(fix.fixed, context).findings.filter((finding) => finding.severity === 'error'),
          [],
          fix.title,
        );
      }
    });
  }

  test('a value with no likely quantity ("lots") is reported with no fix', () => {
    const text = pod('lots', '64Mi');
    assert.deepEqual(
      analyzeText(text, context).findings.map((finding) => finding.code),
      ['invalid-quantity'],
    );
    assert.deepEqual(fixesOf(text), []);
  });
});
