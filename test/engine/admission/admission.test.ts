import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { PodAdmissionChain } from '../../../server/src/engine/admission/admit-pod';
import { ObjectQuotaLedger } from '../../../server/src/engine/admission/plugins/object-count-quota';
import { admitManifests } from '../../../server/src/engine/admission/admit-manifests';
import { knownObjects } from '../../../server/src/engine/admission/known-objects';
import { ADMISSION_ORDER, ADMISSION_PLUGIN } from '../../../server/src/engine/admission/names';
import {
  admittedTolerations,
  DEFAULT_TOLERATION_SECONDS_PLUGIN,
} from '../../../server/src/engine/admission/plugins/default-toleration-seconds';
import type { PodAdmissionPlugin } from '../../../server/src/engine/admission/pod-admission-plugin';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../../server/src/engine/simulate/simulate';
import { formatReportJson } from '../../../server/src/cli/formats/report-json';
import { apiServingFor } from '../../support/language-service';

// The API server's door: kinds not served are refused as kubectl refuses them, pods go through the admission
// plugins in the API server's order, and what is refused is reported, never simulated.

const source = (documentIndex: number): SourcedObject['source'] => ({
  file: 'm.yaml',
  documentIndex,
  path: [],
});
const sourced = (object: Record<string, unknown>, index = 0): SourcedObject => ({
  object,
  source: source(index),
});

describe('discovery: a kind the selected version does not serve', () => {
  const serving = apiServingFor('1.35');
  const cases: { name: string; apiVersion: string; kind: string; refused: boolean }[] = [
    {
      name: 'policy/v1beta1 PodDisruptionBudget (removed in 1.25) is refused',
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      refused: true,
    },
    {
      name: 'extensions/v1beta1 Deployment (removed in 1.16) is refused',
      apiVersion: 'extensions/v1beta1',
      kind: 'Deployment',
      refused: true,
    },
    {
      name: 'apps/v1beta2 Deployment (removed in 1.16) is refused',
      apiVersion: 'apps/v1beta2',
      kind: 'Deployment',
      refused: true,
    },
    {
      name: 'apps/v1 Deploymnt (no such kind in the group) is refused',
      apiVersion: 'apps/v1',
      kind: 'Deploymnt',
      refused: true,
    },
    { name: 'apps/v1 Deployment is admitted', apiVersion: 'apps/v1', kind: 'Deployment', refused: false },
    {
      name: 'policy/v1 PodDisruptionBudget is admitted',
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      refused: false,
    },
    {
      name: 'a custom kind is admitted (its CRD may be installed)',
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'Prometheus',
      refused: false,
    },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      const object = {
        apiVersion: entry.apiVersion,
        kind: entry.kind,
        metadata: { name: 'web', namespace: 'shop' },
      };
      const known = knownObjects(null, [sourced(object)]);
      const result = admitManifests(
        [sourced(object)],
        serving,
        known,
        new ObjectQuotaLedger(known.quotas, []),
      );
      assert.equal(result.rejected.length, entry.refused ? 1 : 0);
      assert.equal(result.admitted.length, entry.refused ? 0 : 1);
      if (entry.refused) {
        // kubectl's RESTMapper error (cli-runtime resource/mapper.go), word for word.
        assert.equal(
          result.rejected[0]?.message,
          `resource mapping not found for name: "web" namespace: "shop" from "m.yaml": no matches for kind "${entry.kind}" in version "${entry.apiVersion}"\nensure CRDs are installed first`,
        );
        assert.equal(result.rejected[0]?.stage, 'discovery');
        assert.equal(result.rejected[0]?.plugin, '');
      }
    });
  }

  test('a refused budget is reported in rejected[] and never simulated: no budget status, no finding about it', () => {
    const result = simulate({
      manifests: [
        sourced({
          apiVersion: 'policy/v1beta1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'web' },
          spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
        }),
      ],
      cluster: null,
      apiServing: serving,
    });
    assert.deepEqual(
      result.report.rejected.map((entry) => [entry.kind, entry.name, entry.stage]),
      [['PodDisruptionBudget', 'web', 'discovery']],
    );
    assert.deepEqual(result.report.disruptionBudgets ?? [], []);
    assert.deepEqual(
      result.findings.filter((finding) => finding.code.startsWith('pdb-')),
      [],
    );
  });
});

describe('pod admission', () => {
  test('the plugins run in kube-apiserver’s order (AllOrderedPlugins), ResourceQuota last', () => {
    assert.deepEqual(ADMISSION_ORDER.slice(0, 7), [
      'NamespaceLifecycle',
      'LimitRanger',
      'ServiceAccount',
      'TaintNodesByCondition',
      'PodSecurity',
      'Priority',
      'DefaultTolerationSeconds',
    ]);
    assert.equal(ADMISSION_ORDER.at(-1), 'ResourceQuota');
  });

  test('every mutation runs before any validation, and the first refusal in order wins', () => {
    const calls: string[] = [];
    const plugin = (name: PodAdmissionPlugin['name'], refuses: boolean): PodAdmissionPlugin => ({
      name,
      mutateSpec(spec) {
        calls.push(`mutate ${name}`);
        return spec;
      },
      validate() {
        calls.push(`validate ${name}`);
        return refuses ? { reason: `${name} says no`, path: ['spec'] } : null;
      },
    });
    const chain = new PodAdmissionChain([
      plugin(ADMISSION_PLUGIN.LimitRanger, false),
      plugin(ADMISSION_PLUGIN.PodSecurity, true),
      plugin(ADMISSION_PLUGIN.ResourceQuota, true),
    ]);
    const outcome = chain.admit({
      metadata: { generateName: 'web-5d4f8-', name: 'web-5d4f8-abcde' },
      spec: {},
    });
    assert.deepEqual(calls, [
      'mutate LimitRanger',
      'mutate PodSecurity',
      'mutate ResourceQuota',
      'validate LimitRanger',
      'validate PodSecurity',
    ]);
    assert.equal(outcome.admitted, false);
    // apiserver's admission errors name the generateName while the name is not generated yet.
    assert.equal(
      outcome.admitted ? '' : outcome.refusal.message,
      'pods "web-5d4f8-" is forbidden: PodSecurity says no',
    );
  });

  // Rows after plugin/pkg/admission/defaulttolerationseconds/admission_test.go TestForgivenessAdmission.
  const tolerationCases: { name: string; tolerations: Record<string, unknown>[]; added: string[] }[] = [
    {
      name: 'a pod without tolerations gets both, for 300 s',
      tolerations: [],
      added: ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'],
    },
    {
      name: 'a pod tolerating not-ready NoExecute for 700 s keeps it and gets unreachable only',
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 700,
        },
      ],
      added: ['node.kubernetes.io/unreachable'],
    },
    {
      name: 'a pod tolerating every taint (empty key, Exists, no effect) gets nothing',
      tolerations: [{ operator: 'Exists' }],
      added: [],
    },
    {
      name: 'a NoSchedule toleration of not-ready does not count: both NoExecute ones are added',
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
      added: ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'],
    },
  ];
  for (const entry of tolerationCases) {
    test(`DefaultTolerationSeconds: ${entry.name}`, () => {
      const after = admittedTolerations(entry.tolerations);
      const added = after.slice(entry.tolerations.length);
      assert.deepEqual(
        added.map((toleration) => toleration.key),
        entry.added,
      );
      for (const toleration of added) {
        assert.deepEqual(toleration, {
          key: toleration.key,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        });
      }
    });
  }

  test('DefaultTolerationSeconds writes a new spec and leaves the template it came from untouched', () => {
    const spec = { containers: [] };
    const chain = new PodAdmissionChain([DEFAULT_TOLERATION_SECONDS_PLUGIN]);
    const outcome = chain.admit({ metadata: { name: 'p' }, spec });
    assert.equal(outcome.admitted, true);
    assert.deepEqual(spec, { containers: [] });
    const admitted = outcome.admitted
      ? (outcome.pod['spec'] as { tolerations: unknown[] })
      : { tolerations: [] };
    assert.equal(admitted.tolerations.length, 2);
    const again = chain.admit({ metadata: { name: 'q' }, spec });
    assert.equal(
      again.admitted ? again.pod['spec'] : null,
      outcome.admitted ? outcome.pod['spec'] : undefined,
    );
  });

  const workload = (kind: 'Deployment' | 'StatefulSet'): Record<string, unknown> => ({
    apiVersion: 'apps/v1',
    kind,
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { priorityClassName: 'missing', containers: [{ name: 'web', image: 'nginx' }] },
      },
    },
  });

  test('a pod a ReplicaSet creates and Priority refuses: rejected with its owner, FailedCreate in the timeline', () => {
    const result = simulate({ manifests: [sourced(workload('Deployment'))], cluster: null });
    assert.equal(result.report.pods.length, 0);
    const schema = JSON.parse(
      readFileSync(join(__dirname, '..', '..', '..', 'schemas', 'report.schema.json'), 'utf8'),
    ) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    // The schema is the JSON output's: the report with its findings written as that output writes them.
    const json: unknown = JSON.parse(formatReportJson(result.report, result.report.findings));
    assert.ok(validate(json), JSON.stringify(validate.errors));
    const [entry, ...more] = result.report.rejected;
    assert.deepEqual(more, []);
    assert.equal(entry?.plugin, 'Priority');
    assert.equal(entry?.owner?.kind, 'ReplicaSet');
    assert.match(
      entry?.message ?? '',
      /^pods "web-[a-z0-9]+-" is forbidden: no PriorityClass with name missing was found$/,
    );
    const failed = (result.report.events ?? []).filter((event) => event.type === 'FailedCreate');
    assert.equal(failed.length, 1);
    assert.equal(failed[0]?.object.kind, 'ReplicaSet');
    assert.equal(failed[0]?.message, `Error creating: ${entry?.message ?? ''}`);
  });

  test('a StatefulSet words its FailedCreate as stateful_pod_control.go does', () => {
    const result = simulate({ manifests: [sourced(workload('StatefulSet'))], cluster: null });
    const failed = (result.report.events ?? []).find((event) => event.type === 'FailedCreate');
    assert.equal(
      failed?.message,
      'create Pod web-0 in StatefulSet web failed error: pods "web-0" is forbidden: no PriorityClass with name missing was found',
    );
  });
});
