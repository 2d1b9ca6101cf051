import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluatePod } from '../../../server/src/engine/admission/plugins/pod-security/check-registry';
import {
  namespacePolicy,
  podSecurityLabelErrors,
} from '../../../server/src/engine/admission/plugins/pod-security/namespace-policy';

// The Pod Security checks one by one, at a level and a policy version. Each row follows a case of
// pod-security-admission's policy/check_*_test.go (named in the row) with pods of our own making; the policy row
// tests follow api/helpers_test.go and registry_test.go.

type Json = Record<string, unknown>;
/** The failures as the Forbidden message joins them. */
const failures = (
  level: 'baseline' | 'restricted',
  minor: number | null,
  spec: Json,
  metadata: Json = {},
): string =>
  evaluatePod(level, minor, metadata, spec)
    .map((failure) => `${failure.reason} (${failure.detail})`)
    .join(', ');

/** What restricted asks of a container, so that a row sees only the check it is about. */
const SAFE = {
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
  runAsNonRoot: true,
  seccompProfile: { type: 'RuntimeDefault' },
};
const container = (name: string, extra: Json = {}, security: Json = {}): Json => ({
  name,
  image: 'x',
  ...extra,
  securityContext: { ...SAFE, ...security },
});

interface Row {
  readonly follows: string;
  readonly level: 'baseline' | 'restricted';
  readonly minor?: number | null;
  readonly spec: Json;
  readonly metadata?: Json;
  readonly expect: string;
}

const ROWS: readonly Row[] = [
  {
    follows: 'TestAllowPrivilegeEscalation_1_8 multiple containers',
    level: 'restricted',
    spec: {
      containers: [
        container('a', {}, { allowPrivilegeEscalation: undefined }),
        container('b', {}, { allowPrivilegeEscalation: true }),
        container('c', {}, { allowPrivilegeEscalation: undefined }),
        container('d'),
      ],
    },
    expect:
      'allowPrivilegeEscalation != false (containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false)',
  },
  {
    follows: 'TestAllowPrivilegeEscalation_1_25 windows pod, admit without checking privilegeEscalation',
    level: 'restricted',
    spec: { os: { name: 'windows' }, containers: [container('a', {}, { allowPrivilegeEscalation: true })] },
    expect: '',
  },
  {
    follows: 'TestAllowPrivilegeEscalation_1_8 (a Windows pod is checked before 1.25)',
    level: 'restricted',
    minor: 24,
    spec: { os: { name: 'windows' }, containers: [container('a', {}, { allowPrivilegeEscalation: true })] },
    expect:
      'allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false)',
  },
  {
    follows: 'TestCheckAppArmor_Forbidden unconfined pod, unconfined init container',
    level: 'baseline',
    spec: {
      securityContext: { appArmorProfile: { type: 'Unconfined' } },
      initContainers: [{ name: 'bar', securityContext: { appArmorProfile: { type: 'Unconfined' } } }],
      containers: [{ name: 'foo', securityContext: { appArmorProfile: { type: 'Localhost' } } }],
    },
    expect:
      'forbidden AppArmor profile (pod and container "bar" must not set AppArmor profile type to "Unconfined")',
  },
  {
    follows: 'TestCheckAppArmor_Forbidden multiple containers (annotations)',
    level: 'baseline',
    metadata: {
      annotations: {
        'container.apparmor.security.beta.kubernetes.io/a': '',
        'container.apparmor.security.beta.kubernetes.io/b': 'runtime/default',
        'container.apparmor.security.beta.kubernetes.io/d': 'localhost/foo',
        'container.apparmor.security.beta.kubernetes.io/f': 'unknown',
        'container.apparmor.security.beta.kubernetes.io/e': 'unconfined',
      },
    },
    spec: { containers: [{ name: 'a' }] },
    expect:
      'forbidden AppArmor profiles (annotations must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/e="unconfined"", "container.apparmor.security.beta.kubernetes.io/f="unknown"")',
  },
  {
    follows: 'TestCapabilitiesBaseline multiple containers',
    level: 'baseline',
    spec: {
      containers: [
        { name: 'a', securityContext: { capabilities: { add: ['FOO', 'BAR', 'CHOWN'] } } },
        { name: 'b', securityContext: { capabilities: { add: ['BAZ', 'FOO'] } } },
        { name: 'c', securityContext: { capabilities: { add: ['NET_BIND_SERVICE'] } } },
      ],
    },
    expect:
      'non-default capabilities (containers "a", "b" must not include "BAR", "BAZ", "FOO" in securityContext.capabilities.add)',
  },
  {
    follows: 'TestCapabilitiesRestricted_1_22 multiple containers',
    level: 'restricted',
    spec: {
      containers: [
        container('a', {}, { capabilities: { add: ['FOO', 'BAR'] } }),
        container('b', {}, { capabilities: { add: ['BAZ'] } }),
        container('c', {}, { capabilities: { drop: ['ALL'], add: ['CHOWN', 'NET_BIND_SERVICE'] } }),
      ],
    },
    expect:
      'unrestricted capabilities (containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b", "c" must not include "BAR", "BAZ", "CHOWN", "FOO" in securityContext.capabilities.add)',
  },
  {
    follows: 'registry: before 1.22 restricted has no capabilities_restricted, so capabilities_baseline runs',
    level: 'restricted',
    minor: 21,
    spec: { containers: [container('a', {}, { capabilities: { add: ['SYS_ADMIN'] } })] },
    expect:
      'non-default capabilities (container "a" must not include "SYS_ADMIN" in securityContext.capabilities.add)',
  },
  {
    follows: 'TestHostNamespaces multiple host namespaces',
    level: 'baseline',
    spec: { hostIPC: true, hostPID: true, hostNetwork: true, containers: [{ name: 'a' }] },
    expect: 'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)',
  },
  {
    follows: 'TestHostPathVolumes host path volumes',
    level: 'baseline',
    spec: {
      volumes: [
        { name: 'a', hostPath: { path: '/a' } },
        { name: 'b', hostPath: { path: '/b' } },
        { name: 'c', emptyDir: {} },
      ],
      containers: [{ name: 'x' }],
    },
    expect: 'hostPath volumes (volumes "a", "b")',
  },
  {
    follows: 'TestHostPort multiple containers, multiple host port',
    level: 'baseline',
    spec: {
      containers: [
        { name: 'a', ports: [{ containerPort: 80 }] },
        { name: 'b', ports: [{ hostPort: 10 }, { hostPort: 20 }] },
        { name: 'c', ports: [{ hostPort: 10 }, { hostPort: 30 }] },
      ],
    },
    expect: 'hostPort (containers "b", "c" use hostPorts 10, 20, 30)',
  },
  {
    follows: 'TestHostProbesAndHostLifecycle multiple containers with multiple invalid hosts',
    level: 'baseline',
    spec: {
      containers: [
        { name: 'invalid2', livenessProbe: { httpGet: { host: 'b.com', port: 80 } } },
        { name: 'invalid1', lifecycle: { preStop: { tcpSocket: { host: 'a.com', port: 80 } } } },
        { name: 'fine', readinessProbe: { httpGet: { port: 80 } } },
      ],
    },
    expect:
      'probe or lifecycle host (containers "invalid1", "invalid2" use probe or lifecycle hosts "a.com", "b.com")',
  },
  {
    follows: 'TestHostProbesAndHostLifecycleEmulation emulate 1.33 (the check starts at 1.34)',
    level: 'baseline',
    minor: 33,
    spec: { containers: [{ name: 'a', livenessProbe: { httpGet: { host: 'b.com', port: 80 } } }] },
    expect: '',
  },
  {
    follows: 'TestPrivileged privileged',
    level: 'baseline',
    spec: {
      initContainers: [{ name: 'd', securityContext: { privileged: true } }],
      containers: [
        { name: 'a', securityContext: { privileged: false } },
        { name: 'e', securityContext: { privileged: true } },
      ],
    },
    expect: 'privileged (containers "d", "e" must not set securityContext.privileged=true)',
  },
  {
    follows: 'TestProcMountBaseline procMount',
    level: 'baseline',
    spec: {
      containers: [
        { name: 'a', securityContext: { procMount: 'Default' } },
        { name: 'd', securityContext: { procMount: 'Unmasked' } },
        { name: 'e', securityContext: { procMount: 'other' } },
      ],
    },
    expect: 'procMount (containers "d", "e" must not set securityContext.procMount to "Unmasked", "other")',
  },
  {
    follows: 'TestProcMountBaseline procMount with userns',
    level: 'baseline',
    spec: { hostUsers: false, containers: [{ name: 'd', securityContext: { procMount: 'Unmasked' } }] },
    expect: '',
  },
  {
    follows: 'TestProcMountRestricted procMount (restricted allows no Unmasked, even in a user namespace)',
    level: 'restricted',
    spec: { hostUsers: false, containers: [container('d', {}, { procMount: 'Unmasked' })] },
    expect: 'procMount (container "d" must not set securityContext.procMount to "Unmasked")',
  },
  {
    follows: 'TestRestrictedVolumes host path volumes (a volume without a source is an emptyDir)',
    level: 'restricted',
    spec: {
      volumes: [
        { name: 'a', emptyDir: {} },
        { name: 'b2', nfs: { server: 's', path: '/' } },
        { name: 'b1', hostPath: { path: '/' } },
        { name: 'c1', someFutureSource: {} },
        { name: 'd' },
        { name: 'e', image: { reference: 'x' } },
      ],
      containers: [container('x')],
    },
    expect:
      'restricted volume types (volumes "b2", "b1", "c1" use restricted volume types "hostPath", "nfs", "unknown")',
  },
  {
    follows: 'TestRunAsNonRoot pod nil, container fallthrough',
    level: 'restricted',
    spec: {
      containers: [
        container('a', {}, { runAsNonRoot: undefined }),
        container('b', {}, { runAsNonRoot: undefined }),
      ],
    },
    expect: 'runAsNonRoot != true (pod or containers "a", "b" must set securityContext.runAsNonRoot=true)',
  },
  {
    follows: 'TestRunAsNonRoot pod runAsNonRoot=false and containers runAsNonRoot=false',
    level: 'restricted',
    spec: {
      securityContext: { runAsNonRoot: false },
      containers: [container('c', {}, { runAsNonRoot: false }), container('d', {}, { runAsNonRoot: false })],
    },
    expect:
      'runAsNonRoot != true (pod and containers "c", "d" must not set securityContext.runAsNonRoot=false)',
  },
  {
    follows: 'TestRunAsNonRoot host users false allowed; TestRunAsUser host users false allowed',
    level: 'restricted',
    spec: {
      hostUsers: false,
      securityContext: { runAsUser: 0 },
      containers: [container('a', {}, { runAsNonRoot: false })],
    },
    expect: '',
  },
  {
    follows: 'TestRunAsUser containers runAsUser=0 (before 1.35 a user namespace changes nothing)',
    level: 'restricted',
    minor: 34,
    spec: {
      hostUsers: false,
      containers: [container('c', {}, { runAsUser: 0 }), container('d', {}, { runAsUser: 0 })],
    },
    expect: 'runAsUser=0 (containers "c", "d" must not set runAsUser=0)',
  },
  {
    follows: 'registry: runAsUser starts at 1.23',
    level: 'restricted',
    minor: 22,
    spec: { securityContext: { runAsUser: 0 }, containers: [container('a')] },
    expect: '',
  },
  {
    follows: 'TestSELinuxOptions invalid pod and containers',
    level: 'baseline',
    spec: {
      securityContext: { seLinuxOptions: { type: 'foo', user: 'u', role: 'r' } },
      containers: [
        { name: 'e', securityContext: { seLinuxOptions: { type: 'bar' } } },
        { name: 'f', securityContext: { seLinuxOptions: { user: 'u' } } },
        { name: 'g', securityContext: { seLinuxOptions: { role: 'r' } } },
        { name: 'h', securityContext: { seLinuxOptions: { type: 'container_t' } } },
      ],
    },
    expect:
      'seLinuxOptions (pod and containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set)',
  },
  {
    follows: 'TestSELinuxOptions: container_engine_t is allowed from 1.31',
    level: 'baseline',
    spec: {
      containers: [{ name: 'a', securityContext: { seLinuxOptions: { type: 'container_engine_t' } } }],
    },
    expect: '',
  },
  {
    follows: 'TestSELinuxOptions: container_engine_t before 1.31',
    level: 'baseline',
    minor: 30,
    spec: {
      containers: [{ name: 'a', securityContext: { seLinuxOptions: { type: 'container_engine_t' } } }],
    },
    expect:
      'seLinuxOptions (container "a" set forbidden securityContext.seLinuxOptions: type "container_engine_t")',
  },
  {
    follows: 'TestSeccompProfileBaseline_1_0 pod and containers seccomp invalid',
    level: 'baseline',
    minor: 18,
    metadata: {
      annotations: {
        'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
        'container.seccomp.security.alpha.kubernetes.io/a': 'unconfined',
        'container.seccomp.security.alpha.kubernetes.io/b': 'unknown',
        'container.seccomp.security.alpha.kubernetes.io/c': 'runtime/default',
      },
    },
    spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
    expect:
      'seccompProfile (forbidden annotations container.seccomp.security.alpha.kubernetes.io/a="unconfined", container.seccomp.security.alpha.kubernetes.io/b="unknown", seccomp.security.alpha.kubernetes.io/pod="unconfined")',
  },
  {
    follows: 'TestSeccompProfileBaseline_1_19 (explicit Unconfined on pod and containers)',
    level: 'baseline',
    spec: {
      securityContext: { seccompProfile: { type: 'Unconfined' } },
      containers: [
        { name: 'a', securityContext: { seccompProfile: { type: 'Unconfined' } } },
        { name: 'b', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } },
        { name: 'c' },
      ],
    },
    expect:
      'seccompProfile (pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined")',
  },
  {
    follows: 'TestSeccompProfileRestricted_1_25 windows pod',
    level: 'restricted',
    spec: { os: { name: 'windows' }, containers: [container('a', {}, { seccompProfile: undefined })] },
    expect: '',
  },
  {
    follows: 'TestSysctls forbidden sysctls',
    level: 'baseline',
    spec: {
      securityContext: {
        sysctls: [{ name: 'a', value: '1' }, { name: 'kernel.shm_rmid_forced' }, { name: 'b' }],
      },
      containers: [{ name: 'x' }],
    },
    expect: 'forbidden sysctls (a, b)',
  },
  {
    follows: 'TestSysctls_1_27 … 1_32: net.ipv4.tcp_rmem is allowed from 1.32 only',
    level: 'baseline',
    minor: 31,
    spec: { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem' }] }, containers: [{ name: 'x' }] },
    expect: 'forbidden sysctls (net.ipv4.tcp_rmem)',
  },
  {
    follows: 'TestSysctls_1_32',
    level: 'baseline',
    spec: { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem' }] }, containers: [{ name: 'x' }] },
    expect: '',
  },
  {
    follows: 'TestWindowsHostProcess',
    level: 'baseline',
    spec: {
      securityContext: { windowsOptions: { hostProcess: true } },
      containers: [
        { name: 'a', securityContext: { windowsOptions: { hostProcess: true } } },
        { name: 'b', securityContext: { windowsOptions: { hostProcess: false } } },
      ],
    },
    expect:
      'hostProcess (pod and container "a" must not set securityContext.windowsOptions.hostProcess=true)',
  },
];

describe('Pod Security checks, per level and version', () => {
  for (const row of ROWS) {
    test(`${row.level}:${row.minor === undefined || row.minor === null ? 'latest' : `v1.${row.minor}`} ${row.follows}`, () => {
      assert.equal(failures(row.level, row.minor ?? null, row.spec, row.metadata), row.expect);
    });
  }

  test('registry order: baseline check IDs sorted, then restricted ones; overridden baseline checks do not run', () => {
    const spec = {
      hostNetwork: true,
      volumes: [{ name: 'h', hostPath: { path: '/' } }],
      containers: [
        { name: 'a', securityContext: { capabilities: { add: ['NET_ADMIN'] }, privileged: true } },
      ],
    };
    const reasons = (level: 'baseline' | 'restricted') =>
      evaluatePod(level, null, {}, spec).map((failure) => failure.reason);
    assert.deepEqual(reasons('baseline'), [
      'non-default capabilities',
      'host namespaces',
      'hostPath volumes',
      'privileged',
    ]);
    assert.deepEqual(reasons('restricted'), [
      'host namespaces',
      'privileged',
      'allowPrivilegeEscalation != false',
      'unrestricted capabilities',
      'restricted volume types',
      'runAsNonRoot != true',
      'seccompProfile',
    ]);
  });

  test('a version newer than the newest check evaluates as latest', () => {
    const spec = { containers: [{ name: 'a', livenessProbe: { httpGet: { host: 'x', port: 1 } } }] };
    assert.equal(failures('baseline', 99, spec), failures('baseline', null, spec));
    assert.notEqual(failures('baseline', 99, spec), '');
  });
});

describe('a namespace’s Pod Security policy (PolicyToEvaluate)', () => {
  test('levels and versions, latest by default, privileged when unset', () => {
    const policy = namespacePolicy({
      'pod-security.kubernetes.io/enforce': 'baseline',
      'pod-security.kubernetes.io/enforce-version': 'v1.25',
      'pod-security.kubernetes.io/warn': 'restricted',
    });
    assert.equal(policy.enforce.name, 'baseline:v1.25');
    assert.equal(policy.warn.name, 'restricted:latest');
    assert.equal(policy.audit.name, 'privileged:latest');
  });

  test('warn follows a stricter enforce level and its version when no warn label is set', () => {
    const policy = namespacePolicy({
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/enforce-version': 'v1.30',
    });
    assert.equal(policy.warn.name, 'restricted:v1.30');
    const ownVersion = namespacePolicy({
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/warn-version': 'v1.20',
    });
    assert.equal(ownVersion.warn.name, 'restricted:v1.20');
  });

  test('an invalid enforce level fails closed, an invalid warn level fails open, an invalid version is latest', () => {
    const policy = namespacePolicy({
      'pod-security.kubernetes.io/enforce': 'strict',
      'pod-security.kubernetes.io/enforce-version': '1.25',
      'pod-security.kubernetes.io/warn': 'loud',
    });
    assert.equal(policy.enforce.name, 'restricted:latest');
    assert.equal(policy.warn.name, 'privileged:latest');
    assert.deepEqual(
      podSecurityLabelErrors({
        'pod-security.kubernetes.io/enforce': 'strict',
        'pod-security.kubernetes.io/enforce-version': '1.25',
        'pod-security.kubernetes.io/warn-version': 'v1.05',
      }),
      [
        'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
        'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "1.25": must be "latest" or "v1.x"',
        'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v1.05": must be "latest" or "v1.x"',
      ],
    );
  });
});
