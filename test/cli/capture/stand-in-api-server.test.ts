/**
 * The stand-in API server (stand-in-api-server.ts) against the API documents of a real one: every resource it
 * serves is listed, at the path it serves it on, with that namespacing and group-version-kind, and with that list
 * kind, by the OpenAPI v3 documents Kubernetes 1.35's API server publishes (../shared/kubernetes-openapi); and it
 * serves every resource `foresight capture` lists.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CAPTURE_RESOURCES } from '../../../server/src/engine/model/load/capture-resources';
import { ROOT } from '../cli-harness';
import { STAND_IN_RESOURCES } from './stand-in-api-server';

const OPENAPI = join(ROOT, '..', 'shared', 'kubernetes-openapi', 'v3', '1.35');
const NO_SHARED = existsSync(OPENAPI) ? false : 'skipped: ../shared is absent';

/** An operation of an OpenAPI document, as far as this reads it. */
interface Operation {
  readonly 'x-kubernetes-action'?: string;
  readonly 'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string };
  readonly responses?: { '200'?: { content?: Record<string, { schema?: { $ref?: string } }> } };
}

function document(group: string, version: string): { paths: Record<string, { get?: Operation }> } {
  const file =
    group === '' ? join(OPENAPI, 'api', `${version}.json`) : join(OPENAPI, 'apis', group, `${version}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, { get?: Operation }> };
}

describe('the stand-in API server is shaped after Kubernetes 1.35', { skip: NO_SHARED }, () => {
  for (const resource of STAND_IN_RESOURCES) {
    test(`${resource.name}: the path, the scope, the kind and the list kind are the API server's`, () => {
      const base =
        resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
      const { paths } = document(resource.group, resource.version);
      // A namespaced resource is listed across namespaces at /…/NAME and within one at /…/namespaces/{ns}/NAME.
      const all = paths[`${base}/${resource.name}`]?.get;
      const inNamespace = paths[`${base}/namespaces/{namespace}/${resource.name}`]?.get;
      assert.equal(inNamespace !== undefined, resource.namespaced);
      assert.equal(all?.['x-kubernetes-action'], 'list');
      assert.deepEqual(all?.['x-kubernetes-group-version-kind'], {
        group: resource.group,
        version: resource.version,
        kind: resource.kind,
      });
      const schema = all?.responses?.['200']?.content?.['application/json']?.schema?.$ref ?? '';
      assert.match(schema, new RegExp(`\\.${resource.kind}List$`));
    });
  }
});

describe('the stand-in serves what foresight capture lists', () => {
  test('every resource of CAPTURE_RESOURCES, in its group', () => {
    for (const entry of CAPTURE_RESOURCES) {
      assert.ok(
        STAND_IN_RESOURCES.some(
          (resource) =>
            resource.name === entry.resource &&
            resource.group === entry.group &&
            resource.kind === entry.kind,
        ),
        entry.resource,
      );
    }
  });
});
