/**
 * The schema store compiles its validators without ajv's code optimisation (it only makes compiling slower): the
 * errors must be exactly those of ajv's optimised code, for valid objects and for objects broken at every field.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { loadSchemaStore } from '../../support/language-service';
import { brokenCopies } from '../../support/broken-copies';
import { isQuantityText } from '../../../server/src/language/schema/quantity-format';

const store = loadSchemaStore('1.35');

/** The same bundle compiled with ajv's defaults (code optimisation on), as the store did before. */
function optimizedValidator(apiVersion: string, kind: string): ValidateFunction {
  const id = 'https://kube-foresight.invalid/optimized.json';
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, validateSchema: false });
  ajv.addFormat('quantity', { type: 'string', validate: isQuantityText });
  ajv.addSchema({ $id: id, definitions: store.bundle.definitions });
  return ajv.compile({ $ref: `${id}#/definitions/${store.definitionOf(apiVersion, kind) ?? ''}` });
}

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, labels: { app: web } }
spec:
  replicas: 3
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports: [{ name: http, containerPort: 8080 }]
          env: [{ name: LOG_LEVEL, value: info }]
          resources: { requests: { cpu: 100m, memory: 128Mi }, limits: { memory: 256Mi } }
          readinessProbe: { httpGet: { path: /healthz, port: http }, periodSeconds: 5 }
`;

const SERVICE = `apiVersion: v1
kind: Service
metadata: { name: web }
spec:
  selector: { app: web }
  ports: [{ name: http, port: 80, targetPort: http }]
`;

const CASES = [
  { name: 'a Deployment with probes, ports and resources', text: DEPLOYMENT, leastRejected: 30 },
  { name: 'a Service', text: SERVICE, leastRejected: 8 },
];

describe('validators compiled without code optimisation', () => {
  for (const { name, text, leastRejected } of CASES) {
    test(`report exactly the optimised validator's errors for ${name} broken at every field`, () => {
      const object = parse(text) as { apiVersion: string; kind: string };
      const ours = store.validatorFor(object.apiVersion, object.kind);
      assert.ok(ours !== undefined);
      const reference = optimizedValidator(object.apiVersion, object.kind);
      let rejected = 0;
      for (const candidate of [object, ...brokenCopies(object)]) {
        const valid: boolean = ours(candidate);
        assert.equal(valid, reference(candidate));
        assert.deepEqual(ours.errors ?? null, reference.errors ?? null);
        rejected += valid ? 0 : 1;
      }
      assert.ok(rejected >= leastRejected, `only ${rejected} broken copies were rejected`);
    });
  }

  test('reject a quoted replicas count with one type error at its path', () => {
    const object = parse(DEPLOYMENT.replace('replicas: 3', 'replicas: "3"')) as Record<string, unknown>;
    const validate = store.validatorFor('apps/v1', 'Deployment');
    assert.ok(validate !== undefined);
    assert.equal(validate(object), false);
    assert.deepEqual(
      validate.errors?.map((error) => [error.instancePath, error.keyword]),
      [['/spec/replicas', 'type']],
    );
  });
});
