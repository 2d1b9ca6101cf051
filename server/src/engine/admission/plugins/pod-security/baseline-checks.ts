/**
 * The baseline checks of the Pod Security Standards, each with its versions as pod-security-admission v0.35
 * registers them (policy/check_*.go). A version applies from its minimum policy version until the next one.
 * Wording follows each check's ForbiddenReason and ForbiddenDetail.
 */
import { isRecord } from '../../../model/objects';
import {
  asJson,
  badSetters,
  containersOf,
  containersText,
  isUserNamespacePod,
  joinQuote,
  nameOf,
  podSecurityOf,
  pluralize,
  securityOf,
  sortedUnique,
  volumesOf,
  textOf,
  type CheckPod,
  type Json,
} from './check-helpers';
import type { PodSecurityCheck } from './check-registry';
import {
  appArmorProfile,
  seccompAnnotations,
  seccompFields,
  seLinuxOptions,
  SELINUX_TYPES_1_0,
  SELINUX_TYPES_1_31,
} from './profile-checks';
import { appendAll } from '../../../../../../protocol/collections';

/** capabilities_allowed_1_0: what baseline lets a container add (check_capabilities_baseline.go). */
const BASELINE_CAPABILITIES: ReadonlySet<string> = new Set([
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

/** Whether baseline lets a container add this capability; the check and the securityContext fix both ask. */
export function isBaselineCapability(name: unknown): boolean {
  return typeof name === 'string' && BASELINE_CAPABILITIES.has(name);
}

const capabilitiesBaseline: CheckPod = (_metadata, spec) => {
  const bad: string[] = [];
  const added: string[] = [];
  for (const container of containersOf(spec)) {
    const capabilities = securityOf(container)?.['capabilities'];
    const adds = isRecord(capabilities) && Array.isArray(capabilities['add']) ? capabilities['add'] : [];
    const extra = adds.map(String).filter((name) => !isBaselineCapability(name));
    if (extra.length > 0) {
      bad.push(nameOf(container));
      appendAll(added, extra);
    }
  }
  return bad.length === 0
    ? null
    : {
        reason: 'non-default capabilities',
        detail: `${containersText(bad)} must not include ${joinQuote(sortedUnique(added))} in securityContext.capabilities.add`,
      };
};

const hostNamespaces: CheckPod = (_metadata, spec) => {
  const used = ['hostNetwork', 'hostPID', 'hostIPC'].filter((key) => spec[key] === true);
  return used.length === 0
    ? null
    : { reason: 'host namespaces', detail: used.map((key) => `${key}=true`).join(', ') };
};

const hostPathVolumes: CheckPod = (_metadata, spec) => {
  const names = volumesOf(spec)
    .filter((volume) => isRecord(volume['hostPath']))
    .map(nameOf);
  return names.length === 0
    ? null
    : {
        reason: 'hostPath volumes',
        detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}`,
      };
};

const hostPorts: CheckPod = (_metadata, spec) => {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const container of containersOf(spec)) {
    const used = (Array.isArray(container['ports']) ? container['ports'].filter(isRecord) : [])
      .map((port) => port['hostPort'])
      .filter((port): port is number => typeof port === 'number' && port !== 0);
    if (used.length > 0) {
      bad.push(nameOf(container));
      appendAll(ports, used.map(String));
    }
  }
  // sets.NewString sorts the ports as strings.
  const sorted = sortedUnique(ports);
  return bad.length === 0
    ? null
    : {
        reason: 'hostPort',
        detail: `${containersText(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', sorted.length)} ${sorted.join(', ')}`,
      };
};

/** The hosts a probe or a lifecycle handler names in httpGet.host or tcpSocket.host. */
const handlerHosts = (handler: unknown): string[] =>
  ['httpGet', 'tcpSocket']
    .map((kind) => asJson(asJson(handler)[kind])['host'])
    .filter((host): host is string => typeof host === 'string' && host !== '');

const hostProbesAndHostLifecycle: CheckPod = (_metadata, spec) => {
  const bad = new Set<string>();
  const hosts: string[] = [];
  for (const container of containersOf(spec)) {
    const lifecycle = asJson(container['lifecycle']);
    const found = [
      container['livenessProbe'],
      container['readinessProbe'],
      container['startupProbe'],
      lifecycle['postStart'],
      lifecycle['preStop'],
    ].flatMap(handlerHosts);
    if (found.length > 0) {
      bad.add(nameOf(container));
      appendAll(hosts, found);
    }
  }
  const forbidden = sortedUnique(hosts);
  return bad.size === 0
    ? null
    : {
        reason: 'probe or lifecycle host',
        detail: `${containersText(sortedUnique(bad))} ${pluralize('uses', 'use', bad.size)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', forbidden.length)} ${joinQuote(forbidden)}`,
      };
};

const privileged: CheckPod = (_metadata, spec) => {
  const bad = containersOf(spec).filter((container) => securityOf(container)?.['privileged'] === true);
  return bad.length === 0
    ? null
    : {
        reason: 'privileged',
        detail: `${containersText(bad.map(nameOf))} must not set securityContext.privileged=true`,
      };
};

/** procMount_1_0: a container may set procMount only to Default. */
export const procMount: CheckPod = (_metadata, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const container of containersOf(spec)) {
    const value = securityOf(container)?.['procMount'];
    if (value !== undefined && value !== null && value !== 'Default') {
      bad.push(nameOf(container));
      types.push(textOf(value));
    }
  }
  return bad.length === 0
    ? null
    : {
        reason: 'procMount',
        detail: `${containersText(bad)} must not set securityContext.procMount to ${joinQuote(sortedUnique(types))}`,
      };
};

const SYSCTLS_1_0 = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [
  ...SYSCTLS_1_27,
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

const sysctls =
  (allowed: readonly string[]): CheckPod =>
  (_metadata, spec) => {
    const list = podSecurityOf(spec)?.['sysctls'];
    const forbidden = (Array.isArray(list) ? list.filter(isRecord) : [])
      .map((sysctl) => textOf(sysctl['name']))
      .filter((name) => !allowed.includes(name));
    return forbidden.length === 0 ? null : { reason: 'forbidden sysctls', detail: forbidden.join(', ') };
  };

const windowsHostProcess: CheckPod = (_metadata, spec) => {
  const isHostProcess = (context: Json | undefined): boolean =>
    asJson(context?.['windowsOptions'])['hostProcess'] === true;
  const badContainers = containersOf(spec)
    .filter((container) => isHostProcess(securityOf(container)))
    .map(nameOf);
  const setters = badSetters(isHostProcess(podSecurityOf(spec)), badContainers);
  return setters === null
    ? null
    : {
        reason: 'hostProcess',
        detail: `${setters} must not set securityContext.windowsOptions.hostProcess=true`,
      };
};

/** The baseline checks, with their versions (minimum policy minor version, check). */
export const BASELINE_CHECKS: readonly PodSecurityCheck[] = [
  { id: 'appArmorProfile', versions: [{ minimum: 0, check: appArmorProfile }] },
  { id: 'capabilities_baseline', versions: [{ minimum: 0, check: capabilitiesBaseline }] },
  { id: 'hostNamespaces', versions: [{ minimum: 0, check: hostNamespaces }] },
  { id: 'hostPathVolumes', versions: [{ minimum: 0, check: hostPathVolumes }] },
  { id: 'hostPorts', versions: [{ minimum: 0, check: hostPorts }] },
  { id: 'hostProbesAndHostLifecycle', versions: [{ minimum: 34, check: hostProbesAndHostLifecycle }] },
  { id: 'privileged', versions: [{ minimum: 0, check: privileged }] },
  {
    id: 'procMount',
    versions: [
      { minimum: 0, check: procMount },
      {
        minimum: 35,
        check: (metadata, spec) => (isUserNamespacePod(spec) ? null : procMount(metadata, spec)),
      },
    ],
  },
  {
    id: 'seLinuxOptions',
    versions: [
      { minimum: 0, check: seLinuxOptions(SELINUX_TYPES_1_0) },
      { minimum: 31, check: seLinuxOptions(SELINUX_TYPES_1_31) },
    ],
  },
  {
    id: 'seccompProfile_baseline',
    versions: [
      { minimum: 0, check: seccompAnnotations },
      { minimum: 19, check: seccompFields },
    ],
  },
  {
    id: 'sysctls',
    versions: [
      { minimum: 0, check: sysctls(SYSCTLS_1_0) },
      { minimum: 27, check: sysctls(SYSCTLS_1_27) },
      { minimum: 29, check: sysctls(SYSCTLS_1_29) },
      { minimum: 32, check: sysctls(SYSCTLS_1_32) },
    ],
  },
  { id: 'windowsHostProcess', versions: [{ minimum: 0, check: windowsHostProcess }] },
];
