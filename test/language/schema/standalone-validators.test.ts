/**
 * The validators compiled at build time (scripts/standalone-validators.ts) report exactly what the store's own
 * compiled validators report: the same verdict, the same errors (schema descriptions aside, which the build leaves
 * out) and the same findings, for valid objects and objects broken at every field. A module built from another
 * schema file or version is refused, and a kind it lacks is compiled as before.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { compileFunction } from 'node:vm';
import { parseDocument } from 'yaml';
import type { Node } from 'yaml';
import { loadSchemaStore } from '../../support/language-service';
import { brokenCopies } from '../../support/broken-copies';
import { SchemaStore } from '../../../server/src/language/schema/schema-store';
import { readStandaloneValidators } from '../../../server/src/language/schema/standalone-validators';
import type { StandaloneValidators } from '../../../server/src/language/schema/standalone-validators';
import { validateAgainstSchema } from '../../../server/src/language/schema/validate-object';
import { standaloneValidatorsSource } from '../../../scripts/standalone-validators';

const bundle = loadSchemaStore('1.35').bundle;
const HASH = 'test-hash';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, labels: { app: web }, annotations: { note: x } }
spec:
  replicas: 3
  strategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 25%, maxUnavailable: 0 } }
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      tolerations: [{ key: k, operator: Exists, effect: NoSchedule }]
      containers:
        - name: web
          image: nginx:1.27
          ports: [{ name: http, containerPort: 8080, protocol: TCP }]
          env: [{ name: LOG_LEVEL, value: info }]
          resources: { requests: { cpu: 100m, memory: 128Mi }, limits: { memory: 256Mi } }
          readinessProbe: { httpGet: { path: /healthz, port: http }, periodSeconds: 5 }
`;

const SERVICE = `apiVersion: v1
kind: Service
metadata: { name: web }
spec:
  type: ClusterIP
  selector: { app: web }
  ports: [{ name: http, port: 80, targetPort: http }]
`;

const CRON_JOB = `apiVersion: batch/v1
kind: CronJob
metadata: { name: report }
spec:
  schedule: "0 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{ name: report, image: busybox, args: [date] }]
`;

const CASES = [
  { name: 'a Deployment with probes, ports, tolerations and resources', text: DEPLOYMENT, leastRejected: 40 },
  { name: 'a Service', text: SERVICE, leastRejected: 8 },
  { name: 'a CronJob', text: CRON_JOB, leastRejected: 15 },
];

/** The definitions of the kinds the cases use (the build compiles every kind; a few keep the test quick). */
const DEFINITIONS = ['apps/v1/Deployment', 'v1/Service', 'batch/v1/CronJob'].map(
  (key) => bundle.kinds[key] ?? '',
);

/** Loads module source as the store loads dist/kubernetes-validators-<version>.js. */
function evaluate(source: string): unknown {
  const module = { exports: {} as unknown };
  const load = compileFunction(source, ['module', 'exports', 'require']) as (
    module: { exports: unknown },
    exports: unknown,
    require: NodeRequire,
  ) => void;
  load(module, module.exports, createRequire(__filename));
  return module.exports;
}

const prebuiltModule = evaluate(standaloneValidatorsSource(bundle, HASH, DEFINITIONS));

function prebuilt(): StandaloneValidators {
  const validators = readStandaloneValidators(prebuiltModule, {
    kubernetesVersion: '1.35',
    schemaSha256: HASH,
  });
  assert.ok(validators !== null);
  return validators;
}

/** Errors as JSON without schema descriptions (the build leaves them out of the schemas errors point to). */
function comparable(errors: unknown): unknown {
  return JSON.parse(
    JSON.stringify(errors ?? null, (key, value: unknown) =>
      key === 'description' && typeof value === 'string' ? undefined : value,
    ),
  ) as unknown;
}

describe('validators compiled at build time', () => {
  for (const { name, text, leastRejected } of CASES) {
    test(`report exactly the store's own errors and findings for ${name} broken at every field`, () => {
      const document = parseDocument(text);
      const object = document.toJS() as { apiVersion: string; kind: string };
      const node = document.contents as Node;
      const own = new SchemaStore(bundle);
      const built = new SchemaStore(bundle, prebuilt);
      const ownValidate = own.validatorFor(object.apiVersion, object.kind);
      const builtValidate = built.validatorFor(object.apiVersion, object.kind);
      assert.ok(ownValidate !== undefined && builtValidate !== undefined);
      assert.equal(built.usesPrebuiltValidators, true);
      assert.equal(own.usesPrebuiltValidators, false);
      assert.notEqual(builtValidate, ownValidate);
      let rejected = 0;
      for (const candidate of [object, ...brokenCopies(object)]) {
        const valid: boolean = builtValidate(candidate);
        assert.equal(valid, ownValidate(candidate));
        assert.deepEqual(comparable(builtValidate.errors), comparable(ownValidate.errors));
        assert.deepEqual(
          validateAgainstSchema(built, object.apiVersion, object.kind, candidate, node),
          validateAgainstSchema(own, object.apiVersion, object.kind, candidate, node),
        );
        rejected += valid ? 0 : 1;
      }
      assert.ok(rejected >= leastRejected, `only ${rejected} broken copies were rejected`);
    });
  }

  test('report a quoted replicas count as the one type error the store compiles', () => {
    const store = new SchemaStore(bundle, prebuilt);
    const object = parseDocument(DEPLOYMENT.replace('replicas: 3', 'replicas: "3"')).toJS() as unknown;
    const validate = store.validatorFor('apps/v1', 'Deployment');
    assert.ok(validate !== undefined);
    assert.equal(validate(object), false);
    assert.deepEqual(
      validate.errors?.map((error) => [error.instancePath, error.keyword, error.message]),
      [['/spec/replicas', 'type', 'must be integer,null']],
    );
  });

  test('compile a kind the module does not hold, as the store does without a module', () => {
    const store = new SchemaStore(bundle, prebuilt);
    const validate = store.validatorFor('v1', 'ConfigMap');
    assert.ok(validate !== undefined);
    assert.equal(validate({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: 1 } }), false);
    assert.deepEqual(
      validate.errors?.map((error) => [error.instancePath, error.keyword]),
      [['/data/a', 'type']],
    );
  });

  const REFUSED = [
    { name: 'another schema file', module: prebuiltModule, version: '1.35', hash: 'other-hash' },
    { name: 'another Kubernetes version', module: prebuiltModule, version: '1.34', hash: HASH },
    { name: 'a value that is no such module', module: { load: 'nothing' }, version: '1.35', hash: HASH },
    { name: 'nothing at all', module: undefined, version: '1.35', hash: HASH },
  ];
  for (const { name, module, version, hash } of REFUSED) {
    test(`refuse a module of ${name}`, () => {
      assert.equal(
        readStandaloneValidators(module, { kubernetesVersion: version, schemaSha256: hash }),
        null,
      );
    });
  }

  test('fail the build on a definition the bundle lacks', () => {
    assert.throws(
      () => standaloneValidatorsSource(bundle, HASH, ['io.k8s.api.apps.v1.Nothing']),
      /no definition/,
    );
  });
});
