import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURES, runForesight } from './cli-harness';

// A kubebuilder sample (`spec:` with nothing under it) beside its CRD: the API server prunes the null spec before
// validation (apiextensions-apiserver customresource_handler.go, defaulting.PruneNonNullableNullsWithoutDefaults),
// so `kubectl apply` accepts it, and so does validate.

const FOLDER = `${FIXTURES}/crd-null-spec`;

describe('a custom resource with spec: null', () => {
  test('validate gives no schema-type error on the null spec, and exits 0', async () => {
    const { code, stdout } = await runForesight(['validate', FOLDER]);
    assert.equal(code, 0, stdout);
    assert.doesNotMatch(stdout, /schema-type/);
    assert.match(stdout, /2 object\(s\).*0 error\(s\), 0 other finding\(s\)/);
  });
});
