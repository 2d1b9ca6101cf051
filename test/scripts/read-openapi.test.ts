import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  DEFAULT_OPENAPI_DIR,
  listDocuments,
  listVersions,
  readDefinitions,
  resolveOpenApiRoot,
} from '../../scripts/schemas/read-openapi';

/** Writes an OpenAPI document holding the given components.schemas. */
function writeDocument(file: string, schemas: Record<string, unknown>): void {
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ openapi: '3.0.0', components: { schemas } }));
}

void describe('reading the OpenAPI documents', () => {
  const root = mkdtempSync(join(tmpdir(), 'openapi-'));
  const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
  writeDocument(join(root, '1.9', 'api', 'v1.json'), {
    [meta]: { type: 'object', description: 'core copy' },
  });
  writeDocument(join(root, '1.10', 'apis', 'apps', 'v1.json'), {});
  writeDocument(join(root, '1.10', 'apis', 'apiregistration.k8s.io', 'v1.json'), {
    [meta]: { type: 'object', description: 'aggregator copy' },
  });
  writeDocument(join(root, '1.10', 'api', 'v1.json'), {
    [meta]: { description: 'core copy', type: 'object' },
    'io.k8s.api.core.v1.Pod': { type: 'object' },
  });
  mkdirSync(join(root, 'notes'));
  after(() => rmSync(root, { recursive: true, force: true }));

  void test('the root comes from KUBE_OPENAPI_DIR when set, else from ../shared beside the project', () => {
    assert.equal(resolveOpenApiRoot('/p', { KUBE_OPENAPI_DIR: '/elsewhere' }), '/elsewhere');
    assert.equal(resolveOpenApiRoot('/p', {}), resolve('/p', DEFAULT_OPENAPI_DIR));
  });

  void test('versions are ordered by minor number and other folders are ignored', () => {
    assert.deepEqual(listVersions(root), ['1.9', '1.10']);
  });

  void test('the core document comes first, then the named groups in order', () => {
    assert.deepEqual(listDocuments(join(root, '1.10')), [
      'api/v1.json',
      'apis/apiregistration.k8s.io/v1.json',
      'apis/apps/v1.json',
    ]);
  });

  void test('a definition given differently by two documents keeps the core copy and is reported', () => {
    const { definitions, conflicts } = readDefinitions(root, '1.10');
    assert.deepEqual(Object.keys(definitions).sort(), ['io.k8s.api.core.v1.Pod', meta]);
    assert.equal(definitions[meta]?.['description'], 'core copy');
    assert.deepEqual(conflicts, [meta]);
  });

  void test('the same definition with keys in another order is no conflict', () => {
    writeDocument(join(root, '1.10', 'apis', 'apiregistration.k8s.io', 'v1.json'), {
      [meta]: { type: 'object', description: 'core copy' },
    });
    assert.deepEqual(readDefinitions(root, '1.10').conflicts, []);
  });
});
