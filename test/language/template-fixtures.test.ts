/**
 * Real-shaped files with {{ … }}: alert rules and dashboards whose templating is data (analysed), a Helm template
 * file (left out with one note naming the line), and a chart folder (skipped as a unit). Each folder of
 * test/fixtures/language/templates holds input.yaml and expected.json; expected files change only on request:
 * UPDATE_FIXTURES=1 node scripts/run-tests.mjs test/language/template-fixtures.test.ts
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { getAnalysisContext } from '../support/language-service';
import { analyzeText } from '../../server/src/language/analyzer';
import { severityOf } from '../../server/src/language/findings';
import { collectManifestFiles } from '../../server/src/files/manifest-files';

const ROOT = join(__dirname, '..', 'fixtures', 'language', 'templates');
const SHOULD_UPDATE = process.env['UPDATE_FIXTURES'] === '1';
const context = getAnalysisContext('1.35', 8 * 2 ** 20);

const FILE_CASES = [
  { folder: 'prometheus-rule', why: 'alert templating in plain, quoted and block scalars is data: analysed' },
  {
    folder: 'dashboards-configmap',
    why: 'dashboard JSON in a block scalar is data: a mistake beside it is found',
  },
  { folder: 'helm-template', why: 'a Helm template file is left out with one note naming the first line' },
] as const;

describe('files with {{ … }} as users have them', () => {
  for (const { folder, why } of FILE_CASES) {
    test(`${folder}: ${why}`, () => {
      const text = readFileSync(join(ROOT, folder, 'input.yaml'), 'utf8');
      const analysis = analyzeText(text, context);
      const actual = {
        analysedObjects: analysis.documents.reduce((sum, document) => sum + document.objects.length, 0),
        findings: analysis.findings.map((finding) => ({
          code: finding.code,
          severity: severityOf(finding.code),
          line: text.slice(0, finding.start).split('\n').length,
          message: finding.message,
        })),
      };
      const expectedFile = join(ROOT, folder, 'expected.json');
      if (SHOULD_UPDATE || !existsSync(expectedFile)) {
        assert.ok(SHOULD_UPDATE, `${expectedFile} is missing: run with UPDATE_FIXTURES=1`);
        writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
      }
      assert.deepEqual(actual, JSON.parse(readFileSync(expectedFile, 'utf8')));
    });
  }

  test('helm-chart: a chart folder is skipped as a unit, even its files without template text', () => {
    const collected = collectManifestFiles(['.'], join(ROOT, 'helm-chart'), { recursive: true });
    assert.deepEqual(collected.files, []);
    assert.deepEqual(collected.charts, [join(ROOT, 'helm-chart')]);
  });
});
