/**
 * Scenario tests over real YAML: each folder of test/fixtures/language/rules holds input.yaml and expected.json,
 * the findings of analysing it as the language server does (the 1.35 schemas, every rule, the CRDs of the file,
 * the cross-object targetPort check). Expected files change only on request:
 * UPDATE_FIXTURES=1 node scripts/run-tests.mjs language/rules/fixtures
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { AnalysisContext } from '../../../server/src/language/analyzer';
import { analyzeText } from '../../../server/src/language/analyzer';
import { buildCustomKindValidator, isCrdObject } from '../../../server/src/language/crd';
import type { TextFinding } from '../../../server/src/language/findings';
import { severityOf, shiftFinding, sortAndMergeFindings } from '../../../server/src/language/findings';
import { OBJECT_RULES, checkServiceTargetPorts } from '../../../server/src/language/rules';
import type { KubernetesSchemaBundle } from '../../../server/src/language/schema/schema-store';
import { SchemaStore } from '../../../server/src/language/schema/schema-store';

const ROOT = join(__dirname, '..', '..', 'fixtures', 'language', 'rules');
const SCHEMA_FILE = join(__dirname, '..', '..', '..', 'schemas', 'kubernetes', '1.35.json');
const SHOULD_UPDATE = process.env['UPDATE_FIXTURES'] === '1';
const NO_SCHEMAS = existsSync(SCHEMA_FILE) ? false : 'skipped: schemas/kubernetes/1.35.json is not generated';

function loadStore(): SchemaStore {
  return new SchemaStore(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as KubernetesSchemaBundle);
}

/** Analyses a file the way the server wires the pieces: CRDs first, then every object, then across objects. */
function analyseFile(text: string, store: SchemaStore): TextFinding[] {
  const base: AnalysisContext = {
    key: 'fixtures',
    store,
    apiVersions: () => ({ status: 'served' }),
    rules: OBJECT_RULES,
    maxFileLength: 1_000_000,
  };
  const first = analyzeText(text, base);
  const customKinds = buildCustomKindValidator(
    first.documents.flatMap((document) => document.objects).filter(isCrdObject),
  );
  const analysis = analyzeText(text, { ...base, key: `fixtures|${customKinds.key}`, customKinds });
  const crossObject = checkServiceTargetPorts(analysis.documents.flatMap((document) => document.objects));
  const shifted = analysis.documents.flatMap((document) =>
    document.objects.flatMap((object) =>
      (crossObject.get(object) ?? []).map((finding) => shiftFinding(finding, document.offset)),
    ),
  );
  return sortAndMergeFindings([...analysis.findings, ...shifted]);
}

function summarise(text: string, findings: readonly TextFinding[]): unknown[] {
  return findings.map((finding) => ({
    code: finding.code,
    severity: severityOf(finding.code),
    line: text.slice(0, finding.start).split('\n').length,
    at: text.slice(finding.start, finding.end),
    message: finding.message,
    ...(finding.fix?.replacement === undefined ? {} : { fix: finding.fix.replacement }),
  }));
}

void describe('language rule fixtures', () => {
  const folders = existsSync(ROOT) ? readdirSync(ROOT).sort() : [];
  for (const name of folders) {
    void test(
      `the findings of fixture ${name} match expected.json, run after run`,
      { skip: NO_SCHEMAS },
      () => {
        const store = loadStore();
        const text = readFileSync(join(ROOT, name, 'input.yaml'), 'utf8');
        const first = summarise(text, analyseFile(text, store));
        const second = summarise(text, analyseFile(text, store));
        assert.deepEqual(second, first, 'the same input gives the same findings');
        const expectedFile = join(ROOT, name, 'expected.json');
        if (SHOULD_UPDATE) {
          writeFileSync(expectedFile, `${JSON.stringify(first, null, 2)}\n`);
        }
        assert.ok(existsSync(expectedFile), `${expectedFile} exists (UPDATE_FIXTURES=1 writes it)`);
        assert.deepEqual(first, JSON.parse(readFileSync(expectedFile, 'utf8')) as unknown);
      },
    );
  }
});
