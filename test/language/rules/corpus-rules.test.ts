/**
 * Runs every rule over the real manifests of ../shared/corpus/valid (written by others, accepted by the API
 * server): a rule that reports an error on any of them is wrong, not the manifest.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { severityOf } from '../../../server/src/language/findings';
import { OBJECT_RULES, checkServiceTargetPorts } from '../../../server/src/language/rules';
import { splitDocuments } from '../../../server/src/language/yaml/split-documents';
import { objectsOf, ruleContext } from './rule-harness';

const VALID_CORPUS = resolve(__dirname, '../../../../shared/corpus/valid');

/**
 * Corpus files that pass the schema (which is how the corpus was chosen) but that the API server rejects, with
 * the finding that says so. This archived ReplicationController has neither a selector nor template labels, so
 * defaulting leaves the selector empty and ValidateNonEmptySelector (pkg/apis/core/validation) answers
 * "spec.selector: Required value". Any other error, or this one disappearing, fails the test.
 */
const KNOWN_API_SERVER_REJECTIONS = [
  'kubernetes+examples/_archived/sysdig-cloud/sysdig-rc.yaml: selector-mismatch: spec.selector: Required value: a ReplicationController without a selector uses its pod template labels, and the template has none.',
];
const NO_SHARED = existsSync(VALID_CORPUS) ? false : 'skipped: ../shared/corpus is absent';

function yamlFiles(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) {
        return yamlFiles(path);
      }
      return /\.ya?ml$/.test(name) ? [path] : [];
    });
}

void describe('the rules on the valid corpus', () => {
  void test(
    'no rule reports an error on any valid manifest the API server accepts',
    { skip: NO_SHARED },
    () => {
      const context = ruleContext('1.35');
      const files = yamlFiles(VALID_CORPUS);
      assert.ok(files.length > 200, `the corpus has its files (found ${files.length})`);
      const errors: string[] = [];
      let objectCount = 0;
      for (const file of files) {
        const objects = splitDocuments(readFileSync(file, 'utf8')).flatMap((slice) => objectsOf(slice.text));
        objectCount += objects.length;
        const findings = [
          ...objects.flatMap((object) => OBJECT_RULES.flatMap((rule) => rule(object, context))),
          ...[...checkServiceTargetPorts(objects).values()].flat(),
        ];
        for (const finding of findings) {
          if (severityOf(finding.code) === 'error') {
            errors.push(`${relative(VALID_CORPUS, file)}: ${finding.code}: ${finding.message}`);
          }
        }
      }
      assert.ok(objectCount > 300, `the corpus files hold objects (found ${objectCount})`);
      assert.deepEqual(errors, KNOWN_API_SERVER_REJECTIONS);
    },
  );
});
