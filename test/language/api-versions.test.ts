import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { ApiVersionsFile, ApiVersionStatus } from '../../server/src/language/schema/api-versions';
import { createApiVersionIndex } from '../../server/src/language/schema/api-versions';

const PROJECT_ROOT = resolve(__dirname, '../..');
const FILE = JSON.parse(
  readFileSync(join(PROJECT_ROOT, 'schemas/kubernetes/api-versions.json'), 'utf8'),
) as ApiVersionsFile;
const index = createApiVersionIndex(FILE);

/** A replacement with no recorded changes or notes. */
function plain(apiVersion: string, kind: string, isMechanical: boolean) {
  return { apiVersion, kind, isMechanical, changes: [], notes: [] };
}

void describe('api-versions index over the generated api-versions.json', () => {
  const exact: {
    name: string;
    apiVersion: string;
    kind: string;
    version?: string;
    expected: ApiVersionStatus;
  }[] = [
    {
      name: 'apps/v1 Deployment is served by 1.35',
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      expected: { status: 'served' },
    },
    {
      name: 'v1 Endpoints is served by 1.32 without a deprecation',
      apiVersion: 'v1',
      kind: 'Endpoints',
      version: '1.32',
      expected: { status: 'served' },
    },
    {
      name: 'v1 Endpoints is served but deprecated in 1.33, pointing at discovery.k8s.io/v1 EndpointSlice',
      apiVersion: 'v1',
      kind: 'Endpoints',
      version: '1.33',
      expected: {
        status: 'served',
        deprecation: {
          message: 'Deprecated: This API is deprecated in v1.33+. Use discoveryv1.EndpointSlice.',
          replacement: plain('discovery.k8s.io/v1', 'EndpointSlice', false),
        },
      },
    },
    {
      name: 'batch/v1beta1 CronJob was removed in 1.25 and batch/v1 is a plain rewrite',
      apiVersion: 'batch/v1beta1',
      kind: 'CronJob',
      expected: { status: 'removed', removedIn: '1.25', replacement: plain('batch/v1', 'CronJob', true) },
    },
    {
      name: 'autoscaling/v2beta2 HorizontalPodAutoscaler was removed in 1.26 and autoscaling/v2 (newest, not v1) is a plain rewrite',
      apiVersion: 'autoscaling/v2beta2',
      kind: 'HorizontalPodAutoscaler',
      expected: {
        status: 'removed',
        removedIn: '1.26',
        replacement: plain('autoscaling/v2', 'HorizontalPodAutoscaler', true),
      },
    },
    {
      name: 'networking.k8s.io/v1beta1 IngressClass, removed in 1.22 before the documents begin, moves to v1 by a rewrite',
      apiVersion: 'networking.k8s.io/v1beta1',
      kind: 'IngressClass',
      expected: {
        status: 'removed',
        removedIn: '1.22',
        replacement: plain('networking.k8s.io/v1', 'IngressClass', true),
      },
    },
    {
      name: 'policy/v1beta1 PodSecurityPolicy was removed in 1.25 with nothing to move to',
      apiVersion: 'policy/v1beta1',
      kind: 'PodSecurityPolicy',
      expected: { status: 'removed', removedIn: '1.25' },
    },
    {
      name: 'resource.k8s.io/v1 DeviceClass is not yet served by 1.33 and no stable apiVersion serves it there',
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      version: '1.33',
      expected: { status: 'notYetServed', introducedIn: '1.34' },
    },
    {
      name: 'certificates.k8s.io/v1alpha1 PodCertificateRequest, served only by 1.34, is removed in 1.35',
      apiVersion: 'certificates.k8s.io/v1alpha1',
      kind: 'PodCertificateRequest',
      expected: { status: 'removed', removedIn: '1.35' },
    },
    {
      name: 'apps/v1 Ingress is a kind the apiVersion does not have, served as networking.k8s.io/v1 Ingress',
      apiVersion: 'apps/v1',
      kind: 'Ingress',
      expected: { status: 'unknownKind', servedAs: ['networking.k8s.io/v1'] },
    },
    {
      name: 'apps/v2 is an unknown version of a built-in group, and apps/v1 is offered without claiming a plain rewrite',
      apiVersion: 'apps/v2',
      kind: 'Deployment',
      expected: { status: 'unknownApiVersion', replacement: plain('apps/v1', 'Deployment', false) },
    },
    {
      name: 'a custom resource group is unknown',
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      expected: { status: 'unknown' },
    },
    {
      name: 'a custom resource named like a built-in kind (Knative Service) is unknown, not a wrong apiVersion',
      apiVersion: 'serving.knative.dev/v1',
      kind: 'Service',
      expected: { status: 'unknown' },
    },
    {
      name: 'a version newer than the documents is judged like the newest one',
      apiVersion: 'v1',
      kind: 'Pod',
      version: '1.40',
      expected: { status: 'served' },
    },
  ];
  for (const { name, apiVersion, kind, version, expected } of exact) {
    void test(name, () => {
      assert.deepEqual(index.check(apiVersion, kind, version ?? '1.35'), expected);
    });
  }

  const migrations: {
    name: string;
    apiVersion: string;
    kind: string;
    to: string;
    isMechanical: boolean;
    mentions?: RegExp;
  }[] = [
    {
      name: 'policy/v1beta1 PodDisruptionBudget moves to policy/v1 by a rewrite, with a note on empty selectors',
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      to: 'policy/v1',
      isMechanical: true,
      mentions: /empty spec\.selector/,
    },
    {
      name: 'extensions/v1beta1 Deployment moves to apps/v1 but needs spec.selector',
      apiVersion: 'extensions/v1beta1',
      kind: 'Deployment',
      to: 'apps/v1',
      isMechanical: false,
      mentions: /spec\.selector is required/,
    },
    {
      name: 'extensions/v1beta1 Ingress moves to networking.k8s.io/v1 with reshaped backends',
      apiVersion: 'extensions/v1beta1',
      kind: 'Ingress',
      to: 'networking.k8s.io/v1',
      isMechanical: false,
      mentions: /service\.name/,
    },
    {
      name: 'networking.k8s.io/v1beta1 Ingress moves to networking.k8s.io/v1 with reshaped backends',
      apiVersion: 'networking.k8s.io/v1beta1',
      kind: 'Ingress',
      to: 'networking.k8s.io/v1',
      isMechanical: false,
      mentions: /pathType is required/,
    },
    {
      name: 'autoscaling/v2beta1 HorizontalPodAutoscaler moves to autoscaling/v2 with new metric targets',
      apiVersion: 'autoscaling/v2beta1',
      kind: 'HorizontalPodAutoscaler',
      to: 'autoscaling/v2',
      isMechanical: false,
      mentions: /target/,
    },
    {
      name: 'events.k8s.io/v1beta1 Event moves within its own group, not to the core v1 Event',
      apiVersion: 'events.k8s.io/v1beta1',
      kind: 'Event',
      to: 'events.k8s.io/v1',
      isMechanical: false,
    },
    {
      name: 'extensions/v1beta1 NetworkPolicy moves to networking.k8s.io/v1 by a rewrite',
      apiVersion: 'extensions/v1beta1',
      kind: 'NetworkPolicy',
      to: 'networking.k8s.io/v1',
      isMechanical: true,
    },
  ];
  for (const { name, apiVersion, kind, to, isMechanical, mentions } of migrations) {
    void test(name, () => {
      const status = index.check(apiVersion, kind, '1.35');
      assert.equal(status.status, 'removed');
      const replacement = status.status === 'removed' ? status.replacement : undefined;
      assert.equal(replacement?.apiVersion, to);
      assert.equal(replacement?.isMechanical, isMechanical);
      if (mentions !== undefined) {
        assert.match([...(replacement?.changes ?? []), ...(replacement?.notes ?? [])].join('\n'), mentions);
      }
    });
  }

  const corpus = resolve(PROJECT_ROOT, '../shared/corpus/removed-api');
  void test(
    'every file of the removed-api corpus has a document whose apiVersion 1.35 no longer serves',
    { skip: existsSync(corpus) ? false : 'skipped: ../shared is absent' },
    () => {
      for (const file of yamlFiles(corpus)) {
        const statuses = parseAllDocuments(readFileSync(file, 'utf8'))
          .map((document) => document.toJS() as { apiVersion?: unknown; kind?: unknown } | null)
          .filter((object) => object !== null)
          .map((object) => index.check(String(object.apiVersion), String(object.kind), '1.35').status);
        assert.ok(statuses.includes('removed'), `${relative(corpus, file)}: ${statuses.join(', ')}`);
      }
    },
  );
});

void describe('api-versions index over a hand-written file', () => {
  const small = createApiVersionIndex({
    versions: ['1.30', '1.31', '1.32'],
    kinds: { 'x.io/v1beta1/Thing': ['1.30'], 'x.io/v1/Thing': ['1.31', '1.32'] },
    removedBefore: {},
    deprecated: {},
    migrations: {},
  });

  void test('a removal without a recorded migration offers the replacement without claiming a plain rewrite', () => {
    assert.deepEqual(small.check('x.io/v1beta1', 'Thing', '1.32'), {
      status: 'removed',
      removedIn: '1.31',
      replacement: plain('x.io/v1', 'Thing', false),
    });
  });

  void test('a version older than the file is judged like the oldest one', () => {
    assert.deepEqual(small.check('x.io/v1', 'Thing', '1.20'), {
      status: 'notYetServed',
      introducedIn: '1.31',
    });
  });
});

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? yamlFiles(full) : /\.ya?ml$/.test(name) ? [full] : [];
    });
}
