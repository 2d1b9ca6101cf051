import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../scripts/schemas/json';
import { stringifyStable } from '../../scripts/schemas/json';
import { extractKinds } from '../../scripts/schemas/kinds';
import { buildVersionSchema, JSON_SCHEMA_DRAFT_07 } from '../../scripts/schemas/version-schema';

const gvk = (group: string, version: string, kind: string): JsonObject => ({
  'x-kubernetes-group-version-kind': [{ group, version, kind }],
});

/** A tiny OpenAPI components.schemas: a core kind, a named-group kind, a part, and two protocol envelopes. */
const OPENAPI: Record<string, JsonObject> = {
  'io.k8s.api.core.v1.ConfigMap': {
    type: 'object',
    properties: { data: { type: 'object', additionalProperties: { type: 'string' } } },
    ...gvk('', 'v1', 'ConfigMap'),
  },
  'io.k8s.api.apps.v1.Deployment': {
    type: 'object',
    properties: {
      spec: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec' }], default: {} },
    },
    ...gvk('apps', 'v1', 'Deployment'),
  },
  'io.k8s.api.apps.v1.DeploymentSpec': {
    type: 'object',
    properties: { replicas: { type: 'integer', format: 'int32' } },
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status': { type: 'object', ...gvk('', 'v1', 'Status') },
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent': {
    type: 'object',
    'x-kubernetes-group-version-kind': [
      { group: '', version: 'v1', kind: 'WatchEvent' },
      { group: 'apps', version: 'v1', kind: 'WatchEvent' },
    ],
  },
};

void describe('extractKinds', () => {
  void test('kinds are keyed "<apiVersion>/<Kind>", the core group without a group part, and API envelopes are left out', () => {
    assert.deepEqual(extractKinds(OPENAPI), {
      'apps/v1/Deployment': 'io.k8s.api.apps.v1.Deployment',
      'v1/ConfigMap': 'io.k8s.api.core.v1.ConfigMap',
    });
  });

  void test('two definitions claiming one kind are an error', () => {
    const clash = {
      ...OPENAPI,
      'io.k8s.api.core.v1.OtherConfigMap': { type: 'object', ...gvk('', 'v1', 'ConfigMap') },
    };
    assert.throws(() => extractKinds(clash), /v1\/ConfigMap is claimed by both/);
  });
});

void describe('buildVersionSchema', () => {
  const schema = buildVersionSchema('1.35', OPENAPI);

  void test('the file names its dialect and version and maps kinds to definitions', () => {
    assert.equal(schema.$schema, JSON_SCHEMA_DRAFT_07);
    assert.equal(schema.kubernetesVersion, '1.35');
    assert.deepEqual(Object.keys(schema.kinds), ['apps/v1/Deployment', 'v1/ConfigMap']);
  });

  void test('a kind is translated with a non-nullable top and $refs into #/definitions', () => {
    assert.deepEqual(schema.definitions['io.k8s.api.apps.v1.Deployment'], {
      type: 'object',
      properties: { spec: { $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec' } },
      additionalProperties: false,
    });
  });

  void test('a part of a kind admits null at its top', () => {
    assert.deepEqual(schema.definitions['io.k8s.api.apps.v1.DeploymentSpec'], {
      type: ['object', 'null'],
      properties: { replicas: { type: ['integer', 'null'] } },
      additionalProperties: false,
    });
  });

  void test('a $ref to a definition the documents lack is an error', () => {
    const broken = { ...OPENAPI };
    delete broken['io.k8s.api.apps.v1.DeploymentSpec'];
    assert.throws(
      () => buildVersionSchema('1.35', broken),
      /missing definition: io.k8s.api.apps.v1.DeploymentSpec/,
    );
  });

  void test('the serialised file sorts keys at every level and ends with a newline', () => {
    const text = stringifyStable({ b: { d: 1, c: [2, 1] }, a: true });
    assert.equal(text, '{\n "a": true,\n "b": {\n  "c": [\n   2,\n   1\n  ],\n  "d": 1\n }\n}\n');
  });
});

void describe('keepListMapKeyDefaults (in buildVersionSchema)', () => {
  const ports: Record<string, JsonObject> = {
    'io.k8s.api.core.v1.Container': {
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          items: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.ContainerPort' }], default: {} },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
        },
      },
    },
    'io.k8s.api.core.v1.ContainerPort': {
      type: 'object',
      properties: {
        containerPort: { type: 'integer', default: 0 },
        protocol: { type: 'string', default: 'TCP' },
        name: { type: 'string', default: 'http' },
      },
    },
  };
  const definitions = buildVersionSchema('1.35', ports).definitions;

  void test('the keys of a map list keep their default (protocol TCP), other properties do not', () => {
    assert.deepEqual(definitions['io.k8s.api.core.v1.ContainerPort']?.['properties'], {
      containerPort: { type: ['integer', 'null'], default: 0 },
      protocol: { type: ['string', 'null'], default: 'TCP' },
      name: { type: ['string', 'null'] },
    });
  });
});
