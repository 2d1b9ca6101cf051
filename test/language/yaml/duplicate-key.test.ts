import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getAnalysisContext } from '../../support/language-service';
import { analyzeText } from '../../../server/src/language/analyzer';
import { severityOf } from '../../../server/src/language/findings';
import { readManifests } from '../../../server/src/language/manifests/read-manifests';

// A repeated key as kubectl v1.32 reads it: `kubectl apply -f` decodes YAML with sigs.k8s.io/yaml's non-strict
// Unmarshal (go-yaml v2: the last value of a key wins, no error; see goyaml.v2/decode_test.go's
// unmarshalStrictTests, where plain Unmarshal accepts "9: 2 … 9: 4" and keeps 4), so the object applied is the
// later value and the API server never sees the repeat. Hence a warning, and the prediction reads the later value.

const context = getAnalysisContext('1.35', 8 * 2 ** 20);
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  replicas: 5
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`;

describe('a mapping that repeats a key', () => {
  test('is a warning on the repeat, saying that -f keeps it and that kustomize refuses the file', () => {
    const analysis = analyzeText(DEPLOYMENT, context);
    assert.deepEqual(
      analysis.findings.map((finding) => [
        finding.code,
        severityOf(finding.code),
        DEPLOYMENT.slice(finding.start, finding.end),
        DEPLOYMENT.slice(0, finding.start).split('\n').length,
        finding.message,
      ]),
      [
        [
          'yaml-duplicate-key',
          'warning',
          'replicas',
          8,
          'Duplicate key "replicas": this mapping already sets it. kubectl apply -f keeps this later value and ' +
            'silently drops the earlier one; kustomize refuses the file (kubectl apply -k: mapping key "replicas" ' +
            'already defined).',
        ],
      ],
    );
  });

  test('the object read for the prediction has the later value, as kubectl apply -f sends it', () => {
    const read = readManifests([{ id: 'web.yaml', analysis: analyzeText(DEPLOYMENT, context) }]);
    assert.deepEqual(
      read.objects.map(({ object }) => (object as { spec: { replicas: number } }).spec.replicas),
      [5],
    );
  });
});
