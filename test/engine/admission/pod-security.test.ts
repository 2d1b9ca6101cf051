import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../../server/src/engine/simulate/simulate';

// PodSecurity enforce: the namespace's label decides the level; a failing pod is refused with the checks' reasons
// and details in the registry's order. Rows follow the policy package's check tests (check_*_test.go).

const namespace = (labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'shop', labels },
});

const deployment = (podSpec: Record<string, unknown>, container: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { ...podSpec, containers: [{ name: 'web', image: 'nginx', ...container }] },
    },
  },
});

function refusal(
  labels: Record<string, string>,
  podSpec: Record<string, unknown>,
  container: Record<string, unknown>,
) {
  const report = simulate({
    manifests: [namespace(labels), deployment(podSpec, container)].map(
      (object, documentIndex): SourcedObject => ({
        object,
        source: { file: 'm.yaml', documentIndex, path: [] },
      }),
    ),
    cluster: null,
  }).report;
  return {
    pods: report.pods.length,
    message: report.rejected[0]?.message.replace(/^pods "[^"]+" is forbidden: /, '') ?? null,
    plugin: report.rejected[0]?.plugin ?? null,
  };
}

const RESTRICTED_OK = {
  securityContext: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
  },
};

describe('PodSecurity enforce', () => {
  test('a privileged container in a restricted namespace is refused with every failing check, baseline first', () => {
    const outcome = refusal(
      { 'pod-security.kubernetes.io/enforce': 'restricted' },
      {},
      { securityContext: { privileged: true } },
    );
    assert.equal(outcome.pods, 0);
    assert.equal(outcome.plugin, 'PodSecurity');
    assert.equal(
      outcome.message,
      'violates PodSecurity "restricted:latest": privileged (container "web" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  test('a container that sets what restricted requires is admitted', () => {
    const outcome = refusal({ 'pod-security.kubernetes.io/enforce': 'restricted' }, {}, RESTRICTED_OK);
    assert.equal(outcome.pods, 1);
    assert.equal(outcome.message, null);
  });

  test('pod-level runAsNonRoot and seccompProfile cover the containers (check_runAsNonRoot_test, check_seccompProfile_restricted_test)', () => {
    const outcome = refusal(
      { 'pod-security.kubernetes.io/enforce': 'restricted' },
      { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'Localhost' } } },
      { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } },
    );
    assert.equal(outcome.pods, 1);
  });

  test('explicit bad values are named as such (runAsNonRoot=false, runAsUser=0, seccomp Unconfined, added capabilities)', () => {
    const outcome = refusal(
      {
        'pod-security.kubernetes.io/enforce': 'restricted',
        'pod-security.kubernetes.io/enforce-version': 'v1.35',
      },
      { securityContext: { runAsUser: 0 } },
      {
        securityContext: {
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'], add: ['SYS_ADMIN', 'NET_BIND_SERVICE'] },
          runAsNonRoot: false,
          seccompProfile: { type: 'Unconfined' },
        },
      },
    );
    assert.equal(
      outcome.message,
      'violates PodSecurity "restricted:v1.35": unrestricted capabilities (container "web" must not include "SYS_ADMIN" in securityContext.capabilities.add), runAsNonRoot != true (container "web" must not set securityContext.runAsNonRoot=false), runAsUser=0 (pod must not set runAsUser=0), seccompProfile (container "web" must not set securityContext.seccompProfile.type to "Unconfined")',
    );
  });

  test('baseline refuses host namespaces and non-default capabilities, and allows what restricted would refuse', () => {
    const refused = refusal(
      { 'pod-security.kubernetes.io/enforce': 'baseline' },
      { hostNetwork: true, hostPID: true },
      { securityContext: { capabilities: { add: ['NET_ADMIN'] } } },
    );
    assert.equal(
      refused.message,
      'violates PodSecurity "baseline:latest": non-default capabilities (container "web" must not include "NET_ADMIN" in securityContext.capabilities.add), host namespaces (hostNetwork=true, hostPID=true)',
    );
    assert.equal(refusal({ 'pod-security.kubernetes.io/enforce': 'baseline' }, {}, {}).pods, 1);
  });

  test('privileged, or no label, enforces nothing', () => {
    assert.equal(
      refusal({ 'pod-security.kubernetes.io/enforce': 'privileged' }, { hostNetwork: true }, {}).pods,
      1,
    );
    assert.equal(refusal({}, { hostNetwork: true }, { securityContext: { privileged: true } }).pods, 1);
  });

  test('host ports and hostPath volumes (check_hostPorts_test, check_hostPathVolumes_test, check_restrictedVolumes_test)', () => {
    const podSpec = { volumes: [{ name: 'logs', hostPath: { path: '/var/log' } }, { name: 'scratch' }] };
    const container = {
      ports: [
        { containerPort: 80, hostPort: 8080 },
        { containerPort: 443, hostPort: 10443 },
      ],
    };
    assert.equal(
      refusal({ 'pod-security.kubernetes.io/enforce': 'baseline' }, podSpec, container).message,
      'violates PodSecurity "baseline:latest": hostPath volumes (volume "logs"), hostPort (container "web" uses hostPorts 10443, 8080)',
    );
    assert.equal(
      refusal({ 'pod-security.kubernetes.io/enforce': 'restricted' }, podSpec, { ...RESTRICTED_OK }).message,
      'violates PodSecurity "restricted:latest": restricted volume types (volume "logs" uses restricted volume type "hostPath")',
    );
  });

  test('the apply itself gets the API server’s warning for a workload whose template would violate the level', () => {
    const run = (labels: Record<string, string>) =>
      simulate({
        manifests: [namespace(labels), deployment({}, { securityContext: { privileged: true } })].map(
          (object, documentIndex): SourcedObject => ({
            object,
            source: { file: 'm.yaml', documentIndex, path: [] },
          }),
        ),
        cluster: null,
      });
    const enforced = run({ 'pod-security.kubernetes.io/enforce': 'baseline' });
    const warning = enforced.findings.find((finding) => finding.code === 'pod-security-warning');
    assert.equal(
      warning?.message,
      'the API server warns on the apply: would violate PodSecurity "baseline:latest": privileged (container "web" must not set securityContext.privileged=true)',
    );
    assert.deepEqual(warning?.path, ['spec', 'template', 'spec']);
    assert.equal(enforced.report.pods.length, 0);
    // warn only: the same warning, and the pods run.
    const warned = run({ 'pod-security.kubernetes.io/warn': 'baseline' });
    assert.ok(warned.findings.some((finding) => finding.code === 'pod-security-warning'));
    assert.equal(warned.report.pods.length, 1);
    assert.deepEqual(warned.report.rejected, []);
  });

  test('a workload template is warned about at the warn policy only, as EvaluatePodController does', () => {
    const run = (labels: Record<string, string>) =>
      simulate({
        manifests: [namespace(labels), deployment({ hostNetwork: true }, {})].map(
          (object, documentIndex): SourcedObject => ({
            object,
            source: { file: 'm.yaml', documentIndex, path: [] },
          }),
        ),
        cluster: null,
      }).findings.filter((finding) => finding.code === 'pod-security-warning');
    // enforce restricted, warn baseline: the warning names baseline; the pod is refused at restricted.
    const warnings = run({
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/warn': 'baseline',
    });
    assert.deepEqual(
      warnings.map((finding) => finding.message),
      [
        'the API server warns on the apply: would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)',
      ],
    );
    // warn privileged silences the apply's warning even when enforce would refuse.
    assert.deepEqual(
      run({
        'pod-security.kubernetes.io/enforce': 'baseline',
        'pod-security.kubernetes.io/warn': 'privileged',
      }),
      [],
    );
  });

  // admission.go EvaluatePod: "avoid adding warnings to a request we're already going to reject with an error".
  test('a Pod that enforce refuses gets the refusal only, no warning; one enforce allows is warned at warn', () => {
    const run = (labels: Record<string, string>, container: Record<string, unknown>) => {
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'debug', namespace: 'shop' },
        spec: { containers: [{ name: 'shell', image: 'busybox', ...container }] },
      };
      const result = simulate({
        manifests: [namespace(labels), pod].map((object, documentIndex): SourcedObject => ({
          object,
          source: { file: 'm.yaml', documentIndex, path: [] },
        })),
        cluster: null,
      });
      return {
        warnings: result.findings.filter((finding) => finding.code === 'pod-security-warning').length,
        refused: result.report.rejected.length,
      };
    };
    const privileged = { securityContext: { privileged: true } };
    const restricted = { 'pod-security.kubernetes.io/enforce': 'restricted' };
    assert.deepEqual(run(restricted, privileged), { warnings: 0, refused: 1 });
    // enforce allows (baseline), warn restricted: the Pod is created with the API server's warning.
    const baselineWarnRestricted = {
      'pod-security.kubernetes.io/enforce': 'baseline',
      'pod-security.kubernetes.io/warn': 'restricted',
    };
    assert.deepEqual(run(baselineWarnRestricted, {}), { warnings: 1, refused: 0 });
    // enforce refuses (baseline: privileged), warn restricted too: the refusal alone.
    assert.deepEqual(run(baselineWarnRestricted, privileged), { warnings: 0, refused: 1 });
  });

  test('a Namespace with an invalid pod-security label is refused (ValidateNamespace), and so is what it holds', () => {
    const report = simulate({
      manifests: [namespace({ 'pod-security.kubernetes.io/enforce': 'strict' }), deployment({}, {})].map(
        (object, documentIndex): SourcedObject => ({
          object,
          source: { file: 'm.yaml', documentIndex, path: [] },
        }),
      ),
      cluster: null,
    });
    const refused = report.report.rejected[0];
    assert.equal(
      refused?.message,
      'Namespace "shop" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
    assert.equal(refused?.plugin, 'PodSecurity');
    assert.deepEqual(refused?.path, ['metadata', 'labels', 'pod-security.kubernetes.io/enforce']);
    // The embedded default cluster may have "shop" already: its objects are assumed, with the warning.
    assert.ok(report.findings.some((finding) => finding.code === 'namespace-not-found'));
  });
});
