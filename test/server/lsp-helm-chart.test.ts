/**
 * The bundled language server skips a file of a Helm chart folder as a unit, as the CLI skips the chart, even
 * when nothing in the file is template text; a file of template text outside a chart gets one note naming its
 * line. Requires `npm run build` first.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { LspSession } from '../support/lsp-session';

const FIXTURES = join(__dirname, '..', 'fixtures', 'language', 'templates');

const CASES: readonly { name: string; file: string; diagnostics: [string, number, RegExp][] }[] = [
  {
    name: 'a chart template with no template text is still skipped, with the chart named',
    file: 'helm-chart/templates/configmap.yaml',
    diagnostics: [['helm-chart-skipped', 0, /^This file is part of the Helm chart helm-chart \(Chart\.yaml/]],
  },
  {
    name: 'a chart template with template text is skipped as part of the chart, not per document',
    file: 'helm-chart/templates/deployment.yaml',
    diagnostics: [['helm-chart-skipped', 0, /render the chart with `helm template`\.$/]],
  },
  {
    name: "a chart's values.yaml is not a manifest: skipped without a note",
    file: 'helm-chart/values.yaml',
    diagnostics: [],
  },
  {
    name: 'a template file outside a chart gets the per-document note on the first template line',
    file: 'helm-template/input.yaml',
    diagnostics: [['helm-template-skipped', 4, /^Documents 1, 2 are template text \(line 5: /]],
  },
  {
    name: 'alert rules with {{ }} as data are analysed and predicted: the namespace they need is missing',
    file: 'prometheus-rule/input.yaml',
    diagnostics: [
      ['unknown-custom-kind', 3, /PrometheusRule is not a built-in kind/],
      ['namespace-not-found', 6, /^Namespace "monitoring" is neither in the cluster nor in the manifests/],
    ],
  },
];

describe('Helm charts and template text over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  for (const { name, file, diagnostics: expected } of CASES) {
    test(name, async () => {
      const path = join(FIXTURES, file);
      const diagnostics = await session.open(pathToFileURL(path).href, readFileSync(path, 'utf8'));
      assert.equal(diagnostics.length, expected.length, JSON.stringify(diagnostics));
      expected.forEach(([code, line, message], index) => {
        assert.equal(diagnostics[index]?.code, code);
        assert.equal(diagnostics[index]?.range.start.line, line);
        assert.match(diagnostics[index]?.message ?? '', message);
      });
    });
  }

  test('a file of helm template output: each diagnostic is related to the # Source: comment naming its template', async () => {
    const text = [
      '---',
      '# Source: web/templates/service.yaml',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: shop-web',
      'spec:',
      '  ports:',
      '    - port: 80',
      '      protocol: TCPP',
      '',
    ].join('\n');
    const path = join(mkdtempSync(join(tmpdir(), 'foresight-lsp-helm-')), 'rendered.yaml');
    writeFileSync(path, text);
    const uri = pathToFileURL(path).href;
    const diagnostics = await session.open(uri, text);
    const invalid = diagnostics.find((diagnostic) => diagnostic.code === 'schema-enum');
    assert.equal(invalid?.range.start.line, 9, JSON.stringify(diagnostics));
    assert.deepEqual(
      invalid?.relatedInformation?.map((entry) => [
        entry.location.uri,
        entry.location.range.start.line,
        entry.message,
      ]),
      [[uri, 1, 'rendered by helm template from web/templates/service.yaml']],
    );
  });
});
