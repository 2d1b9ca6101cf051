/**
 * The defaults kube-apiserver v1.35 gives the fields of a pod spec, of its containers and of their probes
 * (pkg/apis/core/v1/defaults.go: SetDefaults_PodSpec, SetDefaults_Container, SetDefaults_ContainerPort's protocol,
 * SetDefaults_Probe, the defaultMode of secret, configMap, downwardAPI and projected volumes, and a projected
 * service account token's expirationSeconds), for a field `kubectl apply` removes from a Pod or a pod template:
 * the API server defaults the merged object, so the field takes its default rather than disappearing. removed-defaults.ts finds the pod spec in each kind and asks here.
 */
import type { JsonObject } from '../model/json';
import { isJsonObject } from '../model/json';

type Path = readonly (string | number)[];

const POD_SPEC_DEFAULTS: Readonly<Record<string, unknown>> = {
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
  schedulerName: 'default-scheduler',
};

/** SetDefaults_Probe: a zero (unset) field takes these. */
const PROBE_DEFAULTS: Readonly<Record<string, number>> = {
  timeoutSeconds: 1,
  periodSeconds: 10,
  successThreshold: 1,
  failureThreshold: 3,
};

const PROBES = new Set(['livenessProbe', 'readinessProbe', 'startupProbe']);

/**
 * The volume sources whose defaultMode the API server sets to 0644 when unset: SetDefaults_SecretVolumeSource,
 * SetDefaults_ConfigMapVolumeSource, SetDefaults_DownwardAPIVolumeSource and SetDefaults_ProjectedVolumeSource
 * (v1.SecretVolumeSourceDefaultMode and its siblings are all 0644).
 */
const VOLUME_SOURCES_WITH_MODE = new Set(['secret', 'configMap', 'downwardAPI', 'projected']);
const DEFAULT_VOLUME_MODE = 0o644;
const TOKEN_EXPIRATION_SECONDS = 3600;
const CONTAINER_LISTS = new Set(['containers', 'initContainers']);

/**
 * The default of the field at `rest` (the path below the pod spec) of `podSpec` (as applied), or undefined when
 * the API server gives it none.
 */
export function podSpecFieldDefault(podSpec: JsonObject, rest: Path): unknown {
  const [field, index, ...inContainer] = rest;
  if (rest.length === 1 && typeof field === 'string') {
    return POD_SPEC_DEFAULTS[field];
  }
  if (field === 'volumes' && typeof index === 'number') {
    return volumeFieldDefault(inContainer);
  }
  if (typeof field !== 'string' || !CONTAINER_LISTS.has(field) || typeof index !== 'number') {
    return undefined;
  }
  const list = podSpec[field];
  const container = Array.isArray(list) ? (list as unknown[])[index] : undefined;
  return isJsonObject(container) ? containerFieldDefault(container, inContainer) : undefined;
}

/**
 * A volume's field: the defaultMode of a secret, configMap, downwardAPI or projected volume; a projected service
 * account token's expirationSeconds, an hour (SetDefaults_ServiceAccountTokenProjection).
 */
function volumeFieldDefault(rest: Path): unknown {
  const [source, sourceField, item, projection, projectionField] = rest;
  if (rest.length === 2 && typeof source === 'string' && VOLUME_SOURCES_WITH_MODE.has(source)) {
    return sourceField === 'defaultMode' ? DEFAULT_VOLUME_MODE : undefined;
  }
  return rest.length === 5 &&
    source === 'projected' &&
    sourceField === 'sources' &&
    typeof item === 'number' &&
    projection === 'serviceAccountToken' &&
    projectionField === 'expirationSeconds'
    ? TOKEN_EXPIRATION_SECONDS
    : undefined;
}

/** A container's field: SetDefaults_Container, its ports' protocol and its probes' thresholds. */
function containerFieldDefault(container: JsonObject, rest: Path): unknown {
  const [field, second, third] = rest;
  if (rest.length === 1) {
    switch (field) {
      case 'imagePullPolicy':
        return pullPolicyFor(container['image']);
      case 'terminationMessagePath':
        return '/dev/termination-log';
      case 'terminationMessagePolicy':
        return 'File';
      default:
        return undefined;
    }
  }
  if (rest.length === 2 && typeof field === 'string' && PROBES.has(field) && typeof second === 'string') {
    return PROBE_DEFAULTS[second];
  }
  if (rest.length === 3 && field === 'ports' && typeof second === 'number' && third === 'protocol') {
    return 'TCP';
  }
  return undefined;
}

/**
 * SetDefaults_Container's pull policy: Always for the `latest` tag, which is also the tag of an image written
 * with neither tag nor digest (parsers.ParseImageName); IfNotPresent otherwise, a digest without a tag included.
 */
export function pullPolicyFor(image: unknown): string | undefined {
  if (typeof image !== 'string' || image === '') {
    return undefined;
  }
  const at = image.indexOf('@');
  const named = at === -1 ? image : image.slice(0, at);
  const colon = named.lastIndexOf(':');
  const tag = colon > named.lastIndexOf('/') ? named.slice(colon + 1) : undefined;
  if (tag === 'latest' || (tag === undefined && at === -1)) {
    return 'Always';
  }
  return 'IfNotPresent';
}
