import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { parse, parseAllDocuments } from 'yaml';
import { OUTPUT_DIR, renderVersionSchema, SCHEMA_VERSIONS } from '../../scripts/generate-schemas';
import { readDefinitions, resolveOpenApiRoot } from '../../scripts/schemas/read-openapi';
import type { VersionSchema } from '../../scripts/schemas/version-schema';

const PROJECT_ROOT = resolve(__dirname, '../..');
const OPENAPI_ROOT = resolveOpenApiRoot(PROJECT_ROOT);
const CORPUS = resolve(PROJECT_ROOT, '../shared/corpus');
const NO_SHARED = existsSync(OPENAPI_ROOT) && existsSync(CORPUS) ? false : 'skipped: ../shared is absent';

/** A CRD in the style of the Kubernetes documentation's CronTab example, using most schema features. */
const CRONTAB_CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: { plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct] }
  versions:
    - name: v1
      served: true
      storage: true
      subresources:
        status: {}
        scale: { specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas }
      additionalPrinterColumns:
        - { name: Spec, type: string, jsonPath: .spec.cronSpec }
      schema:
        openAPIV3Schema:
          type: object
          required: [spec]
          properties:
            spec:
              type: object
              x-kubernetes-validations:
                - rule: "self.minReplicas <= self.replicas"
                  message: "replicas must not be below minReplicas"
              properties:
                cronSpec: { type: string, pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' }
                image: { type: string, default: "nginx:1.27" }
                replicas: { type: integer, minimum: 1, maximum: 10 }
                minReplicas: { type: integer }
                port: { x-kubernetes-int-or-string: true, anyOf: [{ type: integer }, { type: string }] }
                mode: { type: string, enum: [Fast, Slow], nullable: true }
                labels: { type: object, additionalProperties: { type: string } }
                template: { type: object, x-kubernetes-preserve-unknown-fields: true, x-kubernetes-embedded-resource: true }
                items:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [name]
                  items:
                    type: object
                    required: [name]
                    properties: { name: { type: string }, weight: { type: number, format: double } }
            status:
              type: object
              properties: { replicas: { type: integer } }
    - name: v1beta1
      served: true
      storage: false
      deprecated: true
      deprecationWarning: "stable.example.com/v1beta1 CronTab is deprecated; use stable.example.com/v1"
      schema:
        openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true }
  conversion:
    strategy: None
`;

/** The committed schema of a version. */
function loadSchema(version: string): VersionSchema {
  return JSON.parse(readFileSync(join(PROJECT_ROOT, OUTPUT_DIR, `${version}.json`), 'utf8')) as VersionSchema;
}

/**
 * Validators over one committed file, with the options the brief asks for. allowUnionTypes is needed because
 * strict mode otherwise refuses `type: ["integer", "string"]`, the form chosen over oneOf for int-or-string
 * and quantities; kinds, kubernetesVersion and the list-map extensions of map lists are declared as annotations
 * so the file loads as it is.
 */
function createValidators(schema: VersionSchema): (key: string) => ValidateFunction {
  const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
  ajv.addFormat('quantity', () => true);
  ajv.addVocabulary(['kinds', 'kubernetesVersion', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys']);
  ajv.addSchema(schema, 'kubernetes');
  return (key) => {
    const definition = schema.kinds[key];
    assert.ok(definition !== undefined, `${key} is a kind of ${schema.kubernetesVersion}`);
    const validate = ajv.getSchema(`kubernetes#/definitions/${definition}`);
    assert.ok(validate !== undefined);
    return validate;
  };
}

const KINDS_TO_COMPILE = [
  'apps/v1/Deployment',
  'v1/Pod',
  'v1/Service',
  'batch/v1/CronJob',
  'policy/v1/PodDisruptionBudget',
  'apiextensions.k8s.io/v1/CustomResourceDefinition',
];

void describe('generated version schemas', () => {
  for (const version of SCHEMA_VERSIONS) {
    void test(`the ${version} schema compiles in ajv strict mode for the main kinds`, () => {
      const validatorFor = createValidators(loadSchema(version));
      for (const key of KINDS_TO_COMPILE) {
        assert.equal(typeof validatorFor(key), 'function');
      }
    });
  }

  const validatorFor = createValidators(loadSchema('1.35'));
  const cases: { name: string; key: string; object: unknown; isValid: boolean }[] = [
    {
      name: 'int-or-string fields take a number and a percentage',
      key: 'apps/v1/Deployment',
      object: deployment({ strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } }),
      isValid: true,
    },
    {
      name: 'quantities take a number, a decimal and a suffixed string',
      key: 'v1/Pod',
      object: pod({ resources: { requests: { cpu: 0.5, memory: '64Mi' }, limits: { cpu: 2 } } }),
      isValid: true,
    },
    {
      name: 'null is accepted as unset, as in kubectl output',
      key: 'apps/v1/Deployment',
      object: { ...deployment({}), metadata: { name: 'web', creationTimestamp: null }, status: {} },
      isValid: true,
    },
    {
      name: 'a misspelled field is an error',
      key: 'v1/Pod',
      object: pod({ imagePullPolcy: 'Always' }),
      isValid: false,
    },
    {
      name: 'a string where an integer is required is an error',
      key: 'v1/Service',
      object: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's' },
        spec: { ports: [{ port: 'eighty' }] },
      },
      isValid: false,
    },
    {
      name: 'a missing required field is an error',
      key: 'apps/v1/Deployment',
      object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: {} },
      isValid: false,
    },
    {
      name: 'a document that is null is not an object of the kind',
      key: 'v1/Pod',
      object: null,
      isValid: false,
    },
    {
      name: 'a CustomResourceDefinition with a recursive, real-world schema is valid',
      key: 'apiextensions.k8s.io/v1/CustomResourceDefinition',
      object: parse(CRONTAB_CRD),
      isValid: true,
    },
    {
      name: 'a CustomResourceDefinition with a misspelled schema keyword is an error',
      key: 'apiextensions.k8s.io/v1/CustomResourceDefinition',
      object: parse(CRONTAB_CRD.replace('x-kubernetes-int-or-string', 'x-kubernetes-int-or-strings')),
      isValid: false,
    },
  ];
  for (const { name, key, object, isValid } of cases) {
    void test(name, () => {
      const validate = validatorFor(key);
      assert.equal(validate(object), isValid, JSON.stringify(validate.errors));
    });
  }
});

void describe('the corpus of real manifests against the 1.35 schema', () => {
  const validatorFor = NO_SHARED === false ? createValidators(loadSchema('1.35')) : undefined;
  const kinds = loadSchema('1.35').kinds;

  void test('every valid file whose documents are all 1.35 kinds has no error', { skip: NO_SHARED }, () => {
    let checked = 0;
    for (const file of yamlFiles(join(CORPUS, 'valid'))) {
      const objects = documentsOf(file);
      if (!objects.every((object) => kinds[keyOf(object)] !== undefined)) {
        continue;
      }
      checked++;
      for (const object of objects) {
        const validate = (validatorFor as (key: string) => ValidateFunction)(keyOf(object));
        assert.ok(validate(object), `${relative(CORPUS, file)}: ${JSON.stringify(validate.errors)}`);
      }
    }
    assert.ok(checked >= 250, `only ${checked} files checked`);
  });

  void test('every invalid file has at least one error', { skip: NO_SHARED }, () => {
    const files = yamlFiles(join(CORPUS, 'invalid'));
    assert.ok(files.length > 0);
    for (const file of files) {
      const failing = documentsOf(file).filter((object) => {
        const validate = (validatorFor as (key: string) => ValidateFunction)(keyOf(object));
        return !validate(object);
      });
      assert.ok(failing.length > 0, `${relative(CORPUS, file)} passed`);
    }
  });
});

void describe('reproducibility', () => {
  void test(
    'regenerating 1.35 from the OpenAPI documents gives the committed bytes',
    { skip: NO_SHARED },
    () => {
      const { definitions } = readDefinitions(OPENAPI_ROOT, '1.35');
      const committed = readFileSync(join(PROJECT_ROOT, OUTPUT_DIR, '1.35.json'), 'utf8');
      assert.ok(
        renderVersionSchema('1.35', definitions) === committed,
        'schemas are stale: run npm run schemas',
      );
    },
  );
});

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? yamlFiles(full) : /\.ya?ml$/.test(name) ? [full] : [];
    });
}

function documentsOf(file: string): Record<string, unknown>[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((document) => document.toJS() as unknown)
    .filter((value): value is Record<string, unknown> => typeof value === 'object' && value !== null);
}

function keyOf(object: Record<string, unknown>): string {
  return `${String(object['apiVersion'])}/${String(object['kind'])}`;
}

function deployment(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx' }] },
      },
      ...spec,
    },
  };
}

function pod(container: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'nginx', ...container }] },
  };
}
