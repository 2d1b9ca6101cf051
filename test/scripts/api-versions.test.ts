import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { API_VERSIONS_FILE, OUTPUT_DIR, renderApiVersions } from '../../scripts/generate-schemas';
import type { VersionInput } from '../../scripts/schemas/api-versions';
import { buildApiVersions, createShapeComparison, guideKeys } from '../../scripts/schemas/api-versions';
import { GUIDE_REMOVALS } from '../../scripts/schemas/deprecation-guide';
import type { JsonObject } from '../../scripts/schemas/json';
import {
  listVersions,
  minorOf,
  readDefinitions,
  resolveOpenApiRoot,
} from '../../scripts/schemas/read-openapi';

const PROJECT_ROOT = resolve(__dirname, '../..');
const OPENAPI_ROOT = resolveOpenApiRoot(PROJECT_ROOT);
const NO_SHARED = existsSync(OPENAPI_ROOT) ? false : 'skipped: ../shared is absent';

/** A definition that is the body of a kind. */
function kind(
  group: string,
  version: string,
  name: string,
  properties: JsonObject,
  description = '',
): JsonObject {
  return {
    type: 'object',
    description,
    properties,
    'x-kubernetes-group-version-kind': [{ group, version, kind: name }],
  };
}

const str: JsonObject = { type: 'string' };

/**
 * Two made-up releases after every removal of the deprecation guide (so all of it counts as removed before):
 * widgets.example/v1beta1 Widget goes away in 1.41, where only widgets.example/v1 Widget, which renamed a
 * field, remains; core v1 Gadget is deprecated in 1.41 in favour of widgets.example/v1 Widget.
 */
const INPUTS: VersionInput[] = [
  {
    version: '1.41',
    definitions: {
      'example.v1.Widget': kind('widgets.example', 'v1', 'Widget', { size: str }),
      'core.v1.Gadget': kind('', 'v1', 'Gadget', {}, 'Gadget. Deprecated: use widgetsv1.Widget.'),
    },
  },
  {
    version: '1.40',
    definitions: {
      'example.v1beta1.Widget': kind('widgets.example', 'v1beta1', 'Widget', { length: str }),
      'example.v1.Widget': kind('widgets.example', 'v1', 'Widget', { size: str }),
      'core.v1.Gadget': kind('', 'v1', 'Gadget', {}, 'Gadget.'),
    },
  },
];

void describe('buildApiVersions', () => {
  const file = buildApiVersions(INPUTS);

  void test('versions are listed oldest first whatever the input order', () => {
    assert.deepEqual(file.versions, ['1.40', '1.41']);
  });

  void test('each kind lists the versions that serve it', () => {
    assert.deepEqual(file.kinds, {
      'v1/Gadget': ['1.40', '1.41'],
      'widgets.example/v1/Widget': ['1.40', '1.41'],
      'widgets.example/v1beta1/Widget': ['1.40'],
    });
  });

  void test('removals of the guide before the first version become removedBefore entries, with their List kinds', () => {
    assert.deepEqual(file.removedBefore['extensions/v1beta1/Deployment'], { removedIn: '1.16' });
    assert.deepEqual(file.removedBefore['networking.k8s.io/v1beta1/Ingress'], { removedIn: '1.22' });
    assert.deepEqual(file.removedBefore['policy/v1beta1/PodDisruptionBudget'], { removedIn: '1.25' });
    // No version of this input serves apps/v1 DeploymentList, so no List entry is invented.
    assert.equal(file.removedBefore['extensions/v1beta1/DeploymentList'], undefined);
  });

  void test('a deprecation notice in a description is recorded for that version, with the kind it names', () => {
    assert.deepEqual(file.deprecated, {
      'v1/Gadget': {
        '1.41': { message: 'Deprecated: use widgetsv1.Widget.', replacement: 'widgets.example/v1/Widget' },
      },
    });
  });

  void test('a removal the guide does not cover is judged by comparing shapes', () => {
    assert.deepEqual(file.migrations['widgets.example/v1beta1/Widget'], {
      'widgets.example/v1': { isMechanical: false, changes: ['length does not exist in widgets.example/v1'] },
    });
  });

  void test('a removal the guide covers takes the guide verdict', () => {
    const ingress = buildApiVersions([
      { version: '1.40', definitions: { 'n.v1.Ingress': kind('networking.k8s.io', 'v1', 'Ingress', {}) } },
    ]).migrations['extensions/v1beta1/Ingress'];
    assert.equal(ingress?.['networking.k8s.io/v1']?.isMechanical, false);
    assert.match(ingress?.['networking.k8s.io/v1']?.changes.join('; ') ?? '', /defaultBackend/);
  });

  void test('a guide removal that the documents contradict is an error', () => {
    const served = { 'b.v1beta1.CronJob': kind('batch', 'v1beta1', 'CronJob', {}) };
    assert.throws(
      () =>
        buildApiVersions([
          { version: '1.24', definitions: served },
          { version: '1.25', definitions: served },
        ]),
      /the guide removes [^ ]+ in 1\.\d+, but the documents (never serve it|serve it until 1\.25)/,
    );
  });
});

void describe('api-versions.json from the real OpenAPI documents', () => {
  const inputs =
    NO_SHARED === false ? listVersions(OPENAPI_ROOT).map((v) => readDefinitions(OPENAPI_ROOT, v)) : [];

  void test('regenerating it gives the committed bytes', { skip: NO_SHARED }, () => {
    const committed = readFileSync(join(PROJECT_ROOT, OUTPUT_DIR, API_VERSIONS_FILE), 'utf8');
    assert.ok(renderApiVersions(inputs) === committed, 'api-versions.json is stale: run npm run schemas');
  });

  void test(
    'the guide and the shape comparison agree on every move both can judge',
    { skip: NO_SHARED },
    () => {
      const file = buildApiVersions(inputs);
      const compare = createShapeComparison(inputs, file.kinds);
      const first = minorOf(file.versions[0] ?? '1.0');
      // Moves whose guide changes are defaults, validation rules or semantics, which no schema shape shows.
      const beyondShapes = new Set(['events.k8s.io/v1beta1/Event']);
      for (const entry of GUIDE_REMOVALS.filter(
        (e) => minorOf(e.removedIn) > first && e.migrateTo !== undefined,
      )) {
        for (const key of guideKeys(entry)) {
          const target = entry.migrateTo as string;
          if (
            file.kinds[`${target}/${key.slice(key.lastIndexOf('/') + 1)}`] === undefined ||
            beyondShapes.has(key)
          ) {
            continue;
          }
          const changes = compare(key, target);
          assert.equal(
            changes.length === 0,
            entry.changes.length === 0,
            `${key} → ${target}: ${changes.join('; ')}`,
          );
        }
      }
    },
  );
});
