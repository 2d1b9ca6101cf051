/**
 * Real manifests written by others (../shared/corpus): valid/ must give no error, invalid/ and removed-api/
 * must each be caught, and the kustomize patch fragment must not be reported.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { getAnalysisContext } from '../support/language-service';
import { analyzeText } from '../../server/src/language/analyzer';
import { severityOf } from '../../server/src/language/findings';
import type { TextFinding } from '../../server/src/language/findings';

const CORPUS = join(__dirname, '..', '..', '..', 'shared', 'corpus');
const context = getAnalysisContext('1.35', 8 * 1024 * 1024);

/**
 * Files of valid/ that pass the schema (which is how the corpus was assembled) but that a real API server
 * rejects, so reporting them is right:
 * - sysdig-rc.yaml: a ReplicationController with no spec.selector and no template labels. Defaulting copies the
 *   template labels into the selector (SetDefaults_ReplicationController); with none, the selector stays empty and
 *   ValidateReplicationControllerSpec → ValidateNonEmptySelector fails with "spec.selector: Required value".
 * - aws-ebs-web.yaml and cinder-web.yaml: `protocol: tcp`. Port protocols are checked case-sensitively against
 *   TCP, UDP and SCTP (validateContainerPorts: "Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"").
 */
const API_SERVER_REJECTS: Record<string, string> = {
  'valid/kubernetes+examples/_archived/sysdig-cloud/sysdig-rc.yaml': 'selector-mismatch',
  'valid/kubernetes+examples/_archived/volumes/aws_ebs/aws-ebs-web.yaml': 'schema-enum',
  'valid/kubernetes+examples/_archived/volumes/cinder/cinder-web.yaml': 'schema-enum',
};

function filesUnder(directory: string): string[] {
  if (!existsSync(directory)) {
    return [];
  }
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const full = join(directory, name);
      return statSync(full).isDirectory() ? filesUnder(full) : /\.(ya?ml|json)$/.test(name) ? [full] : [];
    });
}

function errorsOf(file: string): TextFinding[] {
  return analyzeText(readFileSync(file, 'utf8'), context).findings.filter(
    (finding) => severityOf(finding.code) === 'error',
  );
}

describe('corpus of real manifests', { skip: existsSync(CORPUS) ? false : `no corpus at ${CORPUS}` }, () => {
  test('every manifest of valid/ gives no error, except those the API server itself rejects', () => {
    const files = filesUnder(join(CORPUS, 'valid'));
    assert.ok(files.length > 200, `found ${files.length} valid files`);
    const failures = files
      .map((file) => ({ file: relative(CORPUS, file), errors: errorsOf(file) }))
      .filter((result) => result.errors.length > 0)
      .filter((result) => !result.errors.every((e) => API_SERVER_REJECTS[result.file] === e.code))
      .map((result) => `${result.file}: ${result.errors.map((e) => `${e.code} ${e.message}`).join('; ')}`);
    assert.deepEqual(failures, []);
  });

  test('the known exceptions are still reported, each with its one code', () => {
    for (const [file, code] of Object.entries(API_SERVER_REJECTS)) {
      assert.deepEqual(
        errorsOf(join(CORPUS, file)).map((e) => e.code),
        [code],
        file,
      );
    }
  });

  for (const folder of ['invalid', 'removed-api']) {
    test(`every manifest of ${folder}/ gives at least one error`, () => {
      const files = filesUnder(join(CORPUS, folder));
      assert.ok(files.length > 0);
      const missed = files
        .filter((file) => errorsOf(file).length === 0)
        .map((file) => relative(CORPUS, file));
      assert.deepEqual(missed, []);
    });
  }

  test('removed-api/ manifests are reported as removed apiVersions', () => {
    for (const file of filesUnder(join(CORPUS, 'removed-api'))) {
      assert.ok(
        errorsOf(file).some((finding) => finding.code === 'removed-api-version'),
        `${relative(CORPUS, file)} reports removed-api-version`,
      );
    }
  });

  test('a kustomize patch fragment ($patch: delete) gives no diagnostic', () => {
    for (const file of filesUnder(join(CORPUS, 'kustomize-patch'))) {
      assert.deepEqual(analyzeText(readFileSync(file, 'utf8'), context).findings, []);
    }
  });
});
