/**
 * The build leaves the default Kubernetes version's validators beside the bundles (dist/kubernetes-validators-
 * 1.35.js): the installation's schema store loads them for the schema file they were built from, and for no
 * other.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadPrebuiltValidators } from '../../server/src/files/schema-files';

const DIST = join(__dirname, '..', '..', 'dist');
const MODULE = join(DIST, 'kubernetes-validators-1.35.js');
const SCHEMA = join(__dirname, '..', '..', 'schemas', 'kubernetes', '1.35.json');
const skip = !existsSync(MODULE) && 'dist/ is not built (run npm run build)';

const schemaSha256 = createHash('sha256').update(readFileSync(SCHEMA, 'utf8')).digest('hex');

test(
  'the built validators of 1.35 are loaded for the schema file in schemas/ and reject a quoted replicas',
  { skip },
  () => {
    const validators = loadPrebuiltValidators(DIST, '1.35', schemaSha256);
    assert.ok(validators !== null);
    const validate = validators.validatorOf('io.k8s.api.apps.v1.Deployment');
    assert.ok(validate !== undefined);
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: '3', selector: {}, template: {} },
    };
    assert.equal(validate(deployment), false);
    assert.deepEqual(
      validate.errors?.map((error) => [error.instancePath, error.message]),
      [['/spec/replicas', 'must be integer,null']],
    );
  },
);

test(
  'the built validators are not used for another schema file or a version the build did not compile',
  { skip },
  () => {
    assert.equal(loadPrebuiltValidators(DIST, '1.35', 'another-hash'), null);
    assert.equal(loadPrebuiltValidators(DIST, '1.34', schemaSha256), null);
  },
);
