/**
 * PodSecurity (staging/src/k8s.io/pod-security-admission): a pod in a namespace labelled
 * `pod-security.kubernetes.io/enforce: baseline|restricted` (version from `…/enforce-version`, default latest) is
 * refused when a check of that level fails, with the checks' own reasons and details in the registry's order
 * (baseline checks, then the restricted ones or, for baseline, the overlapping baseline ones):
 * `violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set
 * securityContext.allowPrivilegeEscalation=false), …`.
 * Modelled checks, as their latest versions: hostNamespaces, hostPorts, privileged, capabilities_baseline,
 * hostPathVolumes; allowPrivilegeEscalation, capabilities_restricted, restrictedVolumes, runAsNonRoot, runAsUser,
 * seccompProfile_restricted. Left out (said in admission/README.md): the other checks (AppArmor, SELinux,
 * procMount, seccomp baseline, sysctls, Windows hostProcess, probes), older versions' variants, the
 * user-namespace relaxation, audit, exemptions. The warnings of the apply itself (warn mode, and workload templates
 * against enforce) are made at apply by admit-manifests.ts with namespacePolicy and podSecurityViolations.
 */
import { isRecord } from '../../model/objects';
import { ADMISSION_PLUGIN } from '../names';
import type { PodAdmissionPlugin } from '../pod-admission-plugin';

type Json = Record<string, unknown>;
/** A failed check: its reason and detail, as CheckResult's ForbiddenReason and ForbiddenDetail. */
type Failure = { readonly reason: string; readonly detail: string } | null;
type Check = (spec: Json) => Failure;

/** capabilities_baseline: the capabilities a container may add (capabilities_allowed_1_0). */
const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

const asJson = (value: unknown): Json => (isRecord(value) ? value : {});
/** Every container: init, regular and ephemeral (visitContainers). */
const containersOf = (spec: Json): Json[] =>
  ['initContainers', 'containers', 'ephemeralContainers'].flatMap((key) =>
    Array.isArray(spec[key]) ? (spec[key] as unknown[]).filter(isRecord) : [],
  );
const nameOf = (container: Json): string => (typeof container['name'] === 'string' ? container['name'] : '');
const securityOf = (container: Json): Json | undefined =>
  isRecord(container['securityContext']) ? container['securityContext'] : undefined;
/** pluralize + joinQuote: `container "a"`, `containers "a", "b"`. */
const containersText = (names: readonly string[]): string =>
  `${names.length === 1 ? 'container' : 'containers'} ${names.map((name) => JSON.stringify(name)).join(', ')}`;
const quoted = (values: readonly string[]): string => values.map((value) => JSON.stringify(value)).join(', ');

const hostNamespaces: Check = (spec) => {
  const used = ['hostIPC', 'hostNetwork', 'hostPID'].filter((key) => spec[key] === true);
  return used.length === 0 ? null : { reason: 'host namespaces', detail: used.join(', ') };
};

const hostPorts: Check = (spec) => {
  const bad: string[] = [];
  const ports = new Set<number>();
  for (const container of containersOf(spec)) {
    const list = Array.isArray(container['ports']) ? container['ports'].filter(isRecord) : [];
    const used = list
      .map((port) => port['hostPort'])
      .filter((port): port is number => typeof port === 'number' && port !== 0);
    if (used.length > 0) {
      bad.push(nameOf(container));
      used.forEach((port) => ports.add(port));
    }
  }
  // sets.NewString sorts the ports as strings.
  const sorted = [...ports].map(String).sort();
  return bad.length === 0
    ? null
    : {
        reason: 'hostPort',
        detail: `${containersText(bad)} ${bad.length === 1 ? 'uses' : 'use'} ${sorted.length === 1 ? 'hostPort' : 'hostPorts'} ${sorted.join(', ')}`,
      };
};

const volumesOf = (spec: Json): Json[] =>
  Array.isArray(spec['volumes']) ? spec['volumes'].filter(isRecord) : [];

const hostPathVolumes: Check = (spec) => {
  const names = volumesOf(spec)
    .filter((volume) => isRecord(volume['hostPath']))
    .map((volume) => (typeof volume['name'] === 'string' ? volume['name'] : ''));
  return names.length === 0
    ? null
    : { reason: 'hostPath volumes', detail: `${names.length === 1 ? 'volume' : 'volumes'} ${quoted(names)}` };
};

/** The volume types restricted allows; a volume with none is an emptyDir (the API server's default). */
const RESTRICTED_VOLUME_TYPES = new Set([
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
]);

const restrictedVolumes: Check = (spec) => {
  const names = volumesOf(spec)
    .filter((volume) =>
      Object.keys(volume).some((key) => key !== 'name' && !RESTRICTED_VOLUME_TYPES.has(key)),
    )
    .map((volume) => (typeof volume['name'] === 'string' ? volume['name'] : ''))
    .sort();
  // Go's %q of a []string: ["a" "b"].
  return names.length === 0
    ? null
    : {
        reason: 'restricted volume types',
        detail: `volumes [${names.map((name) => JSON.stringify(name)).join(' ')}] have restricted types`,
      };
};

const privileged: Check = (spec) => {
  const bad = containersOf(spec).filter((container) => securityOf(container)?.['privileged'] === true);
  return bad.length === 0
    ? null
    : {
        reason: 'privileged',
        detail: `${containersText(bad.map(nameOf))} must not set securityContext.privileged=true`,
      };
};

const capabilitiesBaseline: Check = (spec) => {
  const bad: string[] = [];
  const added = new Set<string>();
  for (const container of containersOf(spec)) {
    const adds = asJson(securityOf(container)?.['capabilities'])['add'];
    const extra = (Array.isArray(adds) ? adds : [])
      .map(String)
      .filter((name) => !BASELINE_CAPABILITIES.has(name));
    if (extra.length > 0) {
      bad.push(nameOf(container));
      extra.forEach((name) => added.add(name));
    }
  }
  return bad.length === 0
    ? null
    : {
        reason: 'non-default capabilities',
        detail: `${containersText(bad)} must not include ${quoted([...added].sort())} in securityContext.capabilities.add`,
      };
};

const allowPrivilegeEscalation: Check = (spec) => {
  const bad = containersOf(spec).filter(
    (container) => securityOf(container)?.['allowPrivilegeEscalation'] !== false,
  );
  return bad.length === 0
    ? null
    : {
        reason: 'allowPrivilegeEscalation != false',
        detail: `${containersText(bad.map(nameOf))} must set securityContext.allowPrivilegeEscalation=false`,
      };
};

const capabilitiesRestricted: Check = (spec) => {
  const missingDrop: string[] = [];
  const adding: string[] = [];
  const forbidden = new Set<string>();
  for (const container of containersOf(spec)) {
    const capabilities = securityOf(container)?.['capabilities'];
    if (!isRecord(capabilities)) {
      missingDrop.push(nameOf(container));
      continue;
    }
    const drop = Array.isArray(capabilities['drop']) ? capabilities['drop'].map(String) : [];
    if (!drop.includes('ALL')) {
      missingDrop.push(nameOf(container));
    }
    const add = (Array.isArray(capabilities['add']) ? capabilities['add'].map(String) : []).filter(
      (name) => name !== 'NET_BIND_SERVICE',
    );
    if (add.length > 0) {
      adding.push(nameOf(container));
      add.forEach((name) => forbidden.add(name));
    }
  }
  const details = [
    ...(missingDrop.length > 0
      ? [`${containersText(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`]
      : []),
    ...(adding.length > 0
      ? [
          `${containersText(adding)} must not include ${quoted([...forbidden].sort())} in securityContext.capabilities.add`,
        ]
      : []),
  ];
  return details.length === 0 ? null : { reason: 'unrestricted capabilities', detail: details.join('; ') };
};

/** runAsNonRoot and seccompProfile share a shape: explicit bad setters first, then containers left unset. */
function podOrContainers(
  spec: Json,
  read: (context: Json | undefined) => 'good' | 'bad' | 'unset',
  reason: string,
  explicitDetail: (setters: string) => string,
  implicitDetail: (containers: string) => string,
): Failure {
  const setters: string[] = [];
  const podValue = read(asJson(spec['securityContext']));
  if (podValue === 'bad') {
    setters.push('pod');
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const container of containersOf(spec)) {
    const value = read(securityOf(container));
    if (value === 'bad') {
      explicit.push(nameOf(container));
    } else if (value === 'unset' && podValue !== 'good') {
      implicit.push(nameOf(container));
    }
  }
  if (explicit.length > 0) {
    setters.push(containersText(explicit));
  }
  if (setters.length > 0) {
    return { reason, detail: explicitDetail(setters.join(' and ')) };
  }
  return implicit.length === 0 ? null : { reason, detail: implicitDetail(containersText(implicit)) };
}

const runAsNonRoot: Check = (spec) =>
  podOrContainers(
    spec,
    (context) =>
      context?.['runAsNonRoot'] === true ? 'good' : context?.['runAsNonRoot'] === false ? 'bad' : 'unset',
    'runAsNonRoot != true',
    (setters) => `${setters} must not set securityContext.runAsNonRoot=false`,
    (containers) => `pod or ${containers} must set securityContext.runAsNonRoot=true`,
  );

const runAsUser: Check = (spec) => {
  const setters: string[] = [];
  if (asJson(spec['securityContext'])['runAsUser'] === 0) {
    setters.push('pod');
  }
  const bad = containersOf(spec).filter((container) => securityOf(container)?.['runAsUser'] === 0);
  if (bad.length > 0) {
    setters.push(containersText(bad.map(nameOf)));
  }
  return setters.length === 0
    ? null
    : { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` };
};

const seccompProfileRestricted: Check = (spec) => {
  const badValues = new Set<string>();
  const failure = podOrContainers(
    spec,
    (context) => {
      const profile = context?.['seccompProfile'];
      if (!isRecord(profile)) {
        return 'unset';
      }
      const type = typeof profile['type'] === 'string' ? profile['type'] : '';
      if (type === 'RuntimeDefault' || type === 'Localhost') {
        return 'good';
      }
      badValues.add(type);
      return 'bad';
    },
    'seccompProfile',
    (setters) =>
      `${setters} must not set securityContext.seccompProfile.type to ${quoted([...badValues].sort())}`,
    (containers) =>
      `pod or ${containers} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  );
  return failure;
};

/** The checks of a level, in the registry's order. */
const BASELINE_CHECKS: readonly Check[] = [hostNamespaces, hostPorts, privileged];
const OVERLAPPING_BASELINE_CHECKS: readonly Check[] = [capabilitiesBaseline, hostPathVolumes];
const RESTRICTED_CHECKS: readonly Check[] = [
  allowPrivilegeEscalation,
  capabilitiesRestricted,
  restrictedVolumes,
  runAsNonRoot,
  runAsUser,
  seccompProfileRestricted,
];

/**
 * The policy a namespace's labels set for a mode ("enforce" or "warn"): `"restricted:latest"` and the level, or
 * null when the mode is unset or privileged.
 */
export function namespacePolicy(
  labels: Readonly<Record<string, string>>,
  mode: 'enforce' | 'warn',
): { readonly level: 'baseline' | 'restricted'; readonly name: string } | null {
  const level = labels[`pod-security.kubernetes.io/${mode}`];
  if (level !== 'baseline' && level !== 'restricted') {
    return null;
  }
  return { level, name: `${level}:${labels[`pod-security.kubernetes.io/${mode}-version`] ?? 'latest'}` };
}

/** The failing checks of a pod spec at a level, as the reasons and details the messages join, or null. */
export function podSecurityViolations(level: 'baseline' | 'restricted', spec: Json): string | null {
  const checks =
    level === 'baseline'
      ? [...BASELINE_CHECKS, ...OVERLAPPING_BASELINE_CHECKS]
      : [...BASELINE_CHECKS, ...RESTRICTED_CHECKS];
  const failures = checks
    .map((check) => check(spec))
    .filter((failure): failure is NonNullable<Failure> => failure !== null);
  return failures.length === 0
    ? null
    : failures
        .map((failure) => (failure.detail === '' ? failure.reason : `${failure.reason} (${failure.detail})`))
        .join(', ');
}

/** The PodSecurity plugin over the namespaces' labels. */
export function podSecurityPlugin(
  namespaceLabels: ReadonlyMap<string, Readonly<Record<string, string>>>,
): PodAdmissionPlugin {
  return {
    name: ADMISSION_PLUGIN.PodSecurity,
    validate(pod) {
      const metadata = asJson(pod['metadata']);
      const namespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : 'default';
      const policy = namespacePolicy(namespaceLabels.get(namespace) ?? {}, 'enforce');
      const violations = policy === null ? null : podSecurityViolations(policy.level, asJson(pod['spec']));
      return policy === null || violations === null
        ? null
        : { reason: `violates PodSecurity "${policy.name}": ${violations}`, path: ['spec'] };
    },
  };
}
