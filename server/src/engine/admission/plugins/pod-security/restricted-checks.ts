/**
 * The restricted checks of the Pod Security Standards, with their versions and the baseline checks each one
 * overrides, as pod-security-admission v0.35 registers them (policy/check_*.go). From 1.25 Windows pods are
 * exempt from the Linux-only checks; from 1.35 a pod in its own user namespace (hostUsers: false) is exempt from
 * the root checks.
 */
import { isRecord } from '../../../model/objects';
import { procMount } from './baseline-checks';
import {
  asJson,
  badSetters,
  containersOf,
  containersText,
  isUserNamespacePod,
  isWindowsPod,
  joinQuote,
  nameOf,
  podSecurityOf,
  pluralize,
  securityOf,
  sortedUnique,
  volumesOf,
  type CheckPod,
} from './check-helpers';
import type { PodSecurityCheck } from './check-registry';
import { seccompRestricted } from './profile-checks';
import { appendAll } from '../../../../../../protocol/collections';

const unlessWindows =
  (check: CheckPod): CheckPod =>
  (metadata, spec) =>
    isWindowsPod(spec) ? null : check(metadata, spec);

const unlessUserNamespace =
  (check: CheckPod): CheckPod =>
  (metadata, spec) =>
    isUserNamespacePod(spec) ? null : check(metadata, spec);

const allowPrivilegeEscalation: CheckPod = (_metadata, spec) => {
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

const capabilitiesRestricted: CheckPod = (_metadata, spec) => {
  const missingDrop: string[] = [];
  const adding: string[] = [];
  const forbidden: string[] = [];
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
      appendAll(forbidden, add);
    }
  }
  const details = [
    ...(missingDrop.length > 0
      ? [`${containersText(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`]
      : []),
    ...(adding.length > 0
      ? [
          `${containersText(adding)} must not include ${joinQuote(sortedUnique(forbidden))} in securityContext.capabilities.add`,
        ]
      : []),
  ];
  return details.length === 0 ? null : { reason: 'unrestricted capabilities', detail: details.join('; ') };
};

/** The volume sources restricted allows. */
const ALLOWED_VOLUME_SOURCES = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'image',
  'persistentVolumeClaim',
  'projected',
  'secret',
];
/** The sources restricted names, in the check's order; any other is "unknown". */
const NAMED_VOLUME_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

const restrictedVolumes: CheckPod = (_metadata, spec) => {
  const badVolumes: string[] = [];
  const badTypes: string[] = [];
  for (const volume of volumesOf(spec)) {
    const sources = Object.keys(volume).filter((key) => key !== 'name' && isRecord(volume[key]));
    // The API server defaults a volume without a source to an emptyDir.
    if (sources.length === 0 || sources.some((key) => ALLOWED_VOLUME_SOURCES.includes(key))) {
      continue;
    }
    badVolumes.push(nameOf(volume));
    badTypes.push(NAMED_VOLUME_SOURCES.find((key) => sources.includes(key)) ?? 'unknown');
  }
  const types = sortedUnique(badTypes);
  return badVolumes.length === 0
    ? null
    : {
        reason: 'restricted volume types',
        detail: `${pluralize('volume', 'volumes', badVolumes.length)} ${joinQuote(badVolumes)} ${pluralize('uses', 'use', badVolumes.length)} ${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
      };
};

const runAsNonRoot: CheckPod = (_metadata, spec) => {
  const podValue = podSecurityOf(spec)?.['runAsNonRoot'];
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const container of containersOf(spec)) {
    const value = securityOf(container)?.['runAsNonRoot'];
    if (value === false) {
      explicit.push(nameOf(container));
    } else if (value !== true && podValue !== true) {
      implicit.push(nameOf(container));
    }
  }
  const setters = badSetters(podValue === false, explicit);
  if (setters !== null) {
    return {
      reason: 'runAsNonRoot != true',
      detail: `${setters} must not set securityContext.runAsNonRoot=false`,
    };
  }
  return implicit.length === 0
    ? null
    : {
        reason: 'runAsNonRoot != true',
        detail: `pod or ${containersText(implicit)} must set securityContext.runAsNonRoot=true`,
      };
};

const runAsUser: CheckPod = (_metadata, spec) => {
  const bad = containersOf(spec)
    .filter((container) => securityOf(container)?.['runAsUser'] === 0)
    .map(nameOf);
  const setters = badSetters(asJson(podSecurityOf(spec))['runAsUser'] === 0, bad);
  return setters === null ? null : { reason: 'runAsUser=0', detail: `${setters} must not set runAsUser=0` };
};

/** The restricted checks, with their versions and the baseline checks they replace at the restricted level. */
export const RESTRICTED_CHECKS: readonly PodSecurityCheck[] = [
  {
    id: 'allowPrivilegeEscalation',
    versions: [
      { minimum: 8, check: allowPrivilegeEscalation },
      { minimum: 25, check: unlessWindows(allowPrivilegeEscalation) },
    ],
  },
  {
    id: 'capabilities_restricted',
    versions: [
      { minimum: 22, check: capabilitiesRestricted, overrides: ['capabilities_baseline'] },
      { minimum: 25, check: unlessWindows(capabilitiesRestricted), overrides: ['capabilities_baseline'] },
    ],
  },
  { id: 'procMount_restricted', versions: [{ minimum: 35, check: procMount, overrides: ['procMount'] }] },
  {
    id: 'restrictedVolumes',
    versions: [{ minimum: 0, check: restrictedVolumes, overrides: ['hostPathVolumes'] }],
  },
  {
    id: 'runAsNonRoot',
    versions: [
      { minimum: 0, check: runAsNonRoot },
      { minimum: 35, check: unlessUserNamespace(runAsNonRoot) },
    ],
  },
  {
    id: 'runAsUser',
    versions: [
      { minimum: 23, check: runAsUser },
      { minimum: 35, check: unlessUserNamespace(runAsUser) },
    ],
  },
  {
    id: 'seccompProfile_restricted',
    versions: [
      { minimum: 19, check: seccompRestricted, overrides: ['seccompProfile_baseline'] },
      { minimum: 25, check: unlessWindows(seccompRestricted), overrides: ['seccompProfile_baseline'] },
    ],
  },
];
