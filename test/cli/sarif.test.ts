import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { CODE_DOCS } from '../../server/src/cli/formats/code-docs';
import { FIXTURES, runForesight, scratch } from './cli-harness';

// --output sarif of both commands, checked against the SARIF 2.1.0 JSON schema. The schema comes from the
// devDependency @microsoft/jest-sarif (MIT), which ships SchemaStore's sarif-2.1.0-rtm.5.json (JSON Schema
// draft-04); nothing of it is copied here. ajv 8 reads draft-04 once `id` is `$id`; the formats the schema uses
// (uri, uri-reference, date-time) are checked by the small functions below. The schema's pattern for `language`
// (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`) is not a valid Unicode-mode regular expression, hence
// unicodeRegExp: false.

/** A SARIF log, as far as these tests read it. */
interface SarifLog {
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        rules: {
          id: string;
          shortDescription: { text: string };
          fullDescription: { text: string };
          help: { text: string };
          defaultConfiguration: { level: string };
        }[];
      };
    };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations?: {
        physicalLocation: {
          artifactLocation: { uri: string };
          region?: { startLine: number; startColumn: number; endLine: number; endColumn: number };
        };
        logicalLocations?: { fullyQualifiedName: string }[];
      }[];
    }[];
  }[];
}

function sarifValidator(): ValidateFunction {
  const path = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const schema = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const id = String(schema['id']);
  delete schema['$schema'];
  delete schema['id'];
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  ajv.addFormat('uri', (value: string) => URL.canParse(value));
  ajv.addFormat(
    'uri-reference',
    (value: string) => /^[^\s<>"{}|\\^`]*$/.test(value) && URL.canParse(value, 'file:///base/'),
  );
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  return ajv.compile({ ...schema, $id: id });
}

const validateSarif = sarifValidator();

function assertValidSarif(log: unknown): void {
  assert.ok(validateSarif(log), JSON.stringify(validateSarif.errors, null, 2));
}

async function sarifOf(args: readonly string[], cwd?: string): Promise<{ code: number; log: SarifLog }> {
  const result = await runForesight([...args, '--output', 'sarif'], cwd === undefined ? {} : { cwd });
  return { code: result.code, log: JSON.parse(result.stdout) as SarifLog };
}

describe('foresight --output sarif', () => {
  test('validate gives a valid SARIF 2.1.0 log: one rule per code that occurs, one located result per finding', async () => {
    const { code, log } = await sarifOf(['validate', `${FIXTURES}/mixed`]);
    assert.equal(code, 1);
    assertValidSarif(log);
    const run = log.runs[0];
    assert.equal(run?.tool.driver.name, 'foresight');
    assert.deepEqual(
      run?.tool.driver.rules.map((rule) => [rule.id, rule.defaultConfiguration.level]),
      [
        ['schema-type', 'error'],
        ['yaml-duplicate-key', 'warning'],
      ],
    );
    const duplicateKey = run?.tool.driver.rules[1];
    assert.equal(duplicateKey?.fullDescription.text, CODE_DOCS['yaml-duplicate-key']);
    assert.equal(duplicateKey?.shortDescription.text, 'A mapping has the same key twice.');
    assert.match(
      duplicateKey?.help.text ?? '',
      /^A mapping has the same key twice\. A warning, not an error/,
    );
    assert.deepEqual(
      run?.results.map((result) => ({
        ruleId: result.ruleId,
        ruleIndex: result.ruleIndex,
        level: result.level,
        location: result.locations?.[0]?.physicalLocation,
        object: result.locations?.[0]?.logicalLocations?.[0]?.fullyQualifiedName,
      })),
      [
        {
          ruleId: 'schema-type',
          ruleIndex: 0,
          level: 'error',
          location: {
            artifactLocation: { uri: 'test/fixtures/cli/mixed/broken.yaml' },
            region: { startLine: 19, startColumn: 17, endLine: 19, endColumn: 25 },
          },
          object: 'Service default/web',
        },
        {
          ruleId: 'yaml-duplicate-key',
          ruleIndex: 1,
          level: 'warning',
          location: {
            artifactLocation: { uri: 'test/fixtures/cli/mixed/team.yaml' },
            region: { startLine: 10, startColumn: 3, endLine: 10, endColumn: 7 },
          },
          object: 'ConfigMap team/team-settings',
        },
      ],
    );
  });

  test('simulate lists Pending replicas as pod-unschedulable on the request, notes as "note", and a finding on no file without a location', async () => {
    const { code, log } = await sarifOf([
      'simulate',
      '--drain',
      'no-such-node@10',
      `${FIXTURES}/mixed/huge.yaml`,
      `${FIXTURES}/mixed/web.yaml`,
    ]);
    assert.equal(code, 1);
    assertValidSarif(log);
    const results = log.runs[0]?.results ?? [];
    const pending = results.find((result) => result.ruleId === 'pod-unschedulable');
    assert.equal(pending?.level, 'warning');
    assert.match(pending?.message.text ?? '', /^Its only replica stays Pending: 0\/4 nodes are available/);
    assert.deepEqual(pending?.locations?.[0]?.physicalLocation, {
      artifactLocation: { uri: 'test/fixtures/cli/mixed/huge.yaml' },
      region: { startLine: 22, startColumn: 20, endLine: 22, endColumn: 25 },
    });
    const note = results.find((result) => result.ruleId === 'service-account-assumed');
    assert.equal(note?.level, 'note');
    assert.equal(note?.locations?.[0]?.physicalLocation.region?.startLine, 16);
    const scenario = results.find((result) => result.ruleId === 'scenario-invalid');
    assert.equal(scenario?.level, 'error');
    assert.match(scenario?.message.text ?? '', /the cluster has no node "no-such-node"/);
    assert.equal(scenario?.locations, undefined);
    const rules = log.runs[0]?.tool.driver.rules ?? [];
    assert.deepEqual(
      rules.map((rule) => rule.id),
      [...new Set(results.map((result) => result.ruleId))].sort(),
    );
    for (const result of results) {
      assert.equal(rules[result.ruleIndex]?.id, result.ruleId);
    }
  });

  test('simulate reports an object the API server refuses as admission-refused, an error', async () => {
    const { code, log } = await sarifOf(['simulate', `${FIXTURES}/refused`]);
    assert.equal(code, 1);
    assertValidSarif(log);
    const refused = log.runs[0]?.results.find((result) => result.ruleId === 'admission-refused');
    assert.equal(refused?.level, 'error');
    assert.match(
      refused?.message.text ?? '',
      /^pods "debug" is forbidden: violates PodSecurity "restricted:latest"/,
    );
    assert.equal(
      refused?.locations?.[0]?.physicalLocation.artifactLocation.uri,
      'test/fixtures/cli/refused/debug.yaml',
    );
  });

  test('a path with a space and a "#" is a relative URI with each segment percent-encoded', async () => {
    const dir = scratch({});
    mkdirSync(join(dir, 'my manifests'));
    writeFileSync(
      join(dir, 'my manifests', 'web#1.yaml'),
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: "eighty"\n',
    );
    const { log } = await sarifOf(['validate', '-R', '.'], dir);
    assertValidSarif(log);
    assert.equal(
      log.runs[0]?.results[0]?.locations?.[0]?.physicalLocation.artifactLocation.uri,
      'my%20manifests/web%231.yaml',
    );
  });

  test('a clean run is a valid log with no rule and no result', async () => {
    const { code, log } = await sarifOf(['validate', `${FIXTURES}/mixed/web.yaml`]);
    assert.equal(code, 0);
    assertValidSarif(log);
    assert.equal(log.version, '2.1.0');
    assert.deepEqual(log.runs[0]?.results, []);
    assert.deepEqual(log.runs[0]?.tool.driver.rules, []);
  });

  const BROKEN_LOGS: readonly { name: string; breakIt: (log: SarifLog) => void }[] = [
    {
      name: 'a level SARIF does not have',
      breakIt: (log) => {
        const result = log.runs[0]?.results[0];
        if (result !== undefined) {
          result.level = 'information';
        }
      },
    },
    {
      name: 'a line 0',
      breakIt: (log) => {
        const region = log.runs[0]?.results[0]?.locations?.[0]?.physicalLocation.region;
        if (region !== undefined) {
          region.startLine = 0;
        }
      },
    },
    { name: 'another version', breakIt: (log) => (log.version = '2.0.0') },
  ];
  for (const { name, breakIt } of BROKEN_LOGS) {
    test(`the schema check refuses a log with ${name}`, async () => {
      const { log } = await sarifOf(['validate', `${FIXTURES}/mixed/broken.yaml`]);
      assertValidSarif(log);
      breakIt(log);
      assert.equal(validateSarif(log), false);
    });
  }
});
