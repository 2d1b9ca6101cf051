/**
 * What keeps a placed pod from starting, as the kubelet finds it: a volume whose ConfigMap or Secret (or one of
 * the keys it projects) does not exist cannot be mounted, so no container starts and the pod stays
 * ContainerCreating with FailedMount events (pkg/volume/configmap, secret and projected: "MountVolume.SetUp failed
 * for volume \"config\" : configmap \"settings\" not found"); a container whose env or envFrom reads a missing
 * ConfigMap, Secret or key gets CreateContainerConfigError with makeEnvironmentVariables' error (kubelet_pods.go:
 * `configmap "settings" not found`, `couldn't find key mode in ConfigMap default/settings`). A reference marked
 * optional is skipped when missing. Volumes are mounted before any container; init containers come before the app
 * containers, each reading envFrom before env. Before a container's config, its image: a reference the kubelet
 * cannot parse gets InvalidImageName (image-reference.ts), as kuberuntime's startContainer pulls the image
 * before it generates the container's config. When the cluster cannot say whether an object exists
 * (model/load/config-objects.ts), the reference is assumed to exist and returned as an assumption instead.
 */
import type { ConfigKind, ConfigObjects } from '../model/load/config-objects';
import { lookUpConfig } from '../model/load/config-objects';
import { asArray, asObject, readString } from '../model/json';
import { invalidImageNameMessage } from './image-reference';

type Path = readonly (string | number)[];

/** Why a pod never starts: the container's waiting reason, the kubelet's message, and the field that causes it. */
export interface StartFailure {
  readonly reason: 'ContainerCreating' | 'CreateContainerConfigError' | 'InvalidImageName';
  /** The waiting message (the kubelet's error). */
  readonly message: string;
  /**
   * The kubelet's event: FailedMount for a volume, InspectFailed for an image it cannot parse, Failed
   * ("Error: …") for a container's config.
   */
  readonly event: { readonly reason: 'FailedMount' | 'InspectFailed' | 'Failed'; readonly message: string };
  /** The container that cannot be created, or null for a volume (no container starts). */
  readonly container: string | null;
  /** Path in the pod spec to the reference. */
  readonly path: Path;
}

/** A reference the cluster cannot confirm: assumed to exist. */
export interface ConfigAssumption {
  readonly kind: ConfigKind;
  readonly namespace: string;
  readonly name: string;
  /** Path in the pod spec to the reference. */
  readonly path: Path;
  /** What happens without it: the kubelet's error. */
  readonly without: string;
}

/** The check of a pod spec: the first failure in the kubelet's order, and the references assumed on the way. */
export interface ConfigCheck {
  readonly failure: StartFailure | null;
  readonly assumptions: readonly ConfigAssumption[];
}

const LOWER: Readonly<Record<ConfigKind, string>> = { ConfigMap: 'configmap', Secret: 'secret' };

/** Checks a pod's volumes and containers against the ConfigMaps and Secrets that exist. */
export function checkPodConfig(spec: unknown, namespace: string, objects: ConfigObjects): ConfigCheck {
  const assumptions: ConfigAssumption[] = [];
  const podSpec = asObject(spec);
  /** The object, or an error text when it is certainly missing (null: found or assumed). */
  const find = (
    kind: ConfigKind,
    name: string,
    path: Path,
    optional: boolean,
  ): { keys: ReadonlySet<string> | null; error: string | null } => {
    const lookup = lookUpConfig(objects, kind, namespace, name);
    if (lookup.found) {
      return { keys: lookup.keys, error: null };
    }
    const error = `${LOWER[kind]} "${name}" not found`;
    if (optional) {
      return { keys: null, error: null };
    }
    if (!lookup.certain) {
      assumptions.push({ kind, namespace, name, path, without: error });
      return { keys: null, error: null };
    }
    return { keys: null, error };
  };

  let failure: StartFailure | null = null;
  const volumes = asArray(podSpec['volumes']);
  volumes.forEach((volume, index) => {
    const error = volumeError(asObject(volume), ['volumes', index], find);
    if (error !== null && failure === null) {
      const name = readString(asObject(volume)['name']) ?? '';
      const message = `MountVolume.SetUp failed for volume "${name}" : ${error.message}`;
      failure = {
        reason: 'ContainerCreating',
        message,
        event: { reason: 'FailedMount', message },
        container: null,
        path: error.path,
      };
    }
  });
  for (const list of ['initContainers', 'containers'] as const) {
    asArray(podSpec[list]).forEach((container, index) => {
      const image = imageFailure(asObject(container), [list, index]);
      if (image !== null && failure === null) {
        failure = image;
      }
      const error = environmentError(asObject(container), [list, index], find, namespace);
      if (error !== null && failure === null) {
        failure = {
          reason: 'CreateContainerConfigError',
          message: error.message,
          event: { reason: 'Failed', message: `Error: ${error.message}` },
          container: readString(asObject(container)['name']) ?? '',
          path: error.path,
        };
      }
    });
  }
  return { failure, assumptions };
}

/** InvalidImageName for a container whose image the kubelet cannot parse; null when it parses or is not a string. */
function imageFailure(container: Record<string, unknown>, path: Path): StartFailure | null {
  const image = readString(container['image']);
  // An empty image, or one with leading or trailing whitespace, is the API server's to refuse (never run here).
  if (image === undefined || image === '' || image.trim() !== image) {
    return null;
  }
  const message = invalidImageNameMessage(image);
  return message === undefined
    ? null
    : {
        reason: 'InvalidImageName',
        message,
        event: { reason: 'InspectFailed', message },
        container: readString(container['name']) ?? '',
        path: [...path, 'image'],
      };
}

type Finder = (
  kind: ConfigKind,
  name: string,
  path: Path,
  optional: boolean,
) => { keys: ReadonlySet<string> | null; error: string | null };

interface FieldError {
  readonly message: string;
  readonly path: Path;
}

/** A volume's mount error: its ConfigMap or Secret (or a projected source's), or a key its items name. */
function volumeError(volume: Record<string, unknown>, path: Path, find: Finder): FieldError | null {
  const sources: { kind: ConfigKind; source: Record<string, unknown>; path: Path; nameField: string }[] = [];
  if (volume['configMap'] !== undefined) {
    sources.push({
      kind: 'ConfigMap',
      source: asObject(volume['configMap']),
      path: [...path, 'configMap'],
      nameField: 'name',
    });
  }
  if (volume['secret'] !== undefined) {
    sources.push({
      kind: 'Secret',
      source: asObject(volume['secret']),
      path: [...path, 'secret'],
      nameField: 'secretName',
    });
  }
  asArray(asObject(volume['projected'])['sources']).forEach((entry, index) => {
    const projected = asObject(entry);
    const at = [...path, 'projected', 'sources', index];
    if (projected['configMap'] !== undefined) {
      sources.push({
        kind: 'ConfigMap',
        source: asObject(projected['configMap']),
        path: [...at, 'configMap'],
        nameField: 'name',
      });
    }
    if (projected['secret'] !== undefined) {
      sources.push({
        kind: 'Secret',
        source: asObject(projected['secret']),
        path: [...at, 'secret'],
        nameField: 'name',
      });
    }
  });
  for (const { kind, source, path: at, nameField } of sources) {
    const name = readString(source[nameField]) ?? '';
    const optional = source['optional'] === true;
    const found = find(kind, name, [...at, nameField], optional);
    if (found.error !== null) {
      return { message: found.error, path: [...at, nameField] };
    }
    if (found.keys === null) {
      continue;
    }
    const items = asArray(source['items']);
    for (let index = 0; index < items.length; index++) {
      const key = readString(asObject(items[index])['key']) ?? '';
      if (!found.keys.has(key) && !optional) {
        // MakePayload's wording differs between the two plugins.
        const message =
          kind === 'ConfigMap'
            ? `configmap references non-existent config key: ${key}`
            : `references non-existent secret key: ${key}`;
        return { message, path: [...at, 'items', index, 'key'] };
      }
    }
  }
  return null;
}

/** A container's environment error (makeEnvironmentVariables): envFrom first, then env, the first that fails. */
function environmentError(
  container: Record<string, unknown>,
  path: Path,
  find: Finder,
  namespace: string,
): FieldError | null {
  const envFrom = asArray(container['envFrom']);
  for (let index = 0; index < envFrom.length; index++) {
    const entry = asObject(envFrom[index]);
    for (const [field, kind] of [
      ['configMapRef', 'ConfigMap'],
      ['secretRef', 'Secret'],
    ] as const) {
      if (entry[field] === undefined) {
        continue;
      }
      const ref = asObject(entry[field]);
      const at = [...path, 'envFrom', index, field, 'name'];
      const found = find(kind, readString(ref['name']) ?? '', at, ref['optional'] === true);
      if (found.error !== null) {
        return { message: found.error, path: at };
      }
    }
  }
  const env = asArray(container['env']);
  for (let index = 0; index < env.length; index++) {
    const valueFrom = asObject(asObject(env[index])['valueFrom']);
    for (const [field, kind] of [
      ['configMapKeyRef', 'ConfigMap'],
      ['secretKeyRef', 'Secret'],
    ] as const) {
      if (valueFrom[field] === undefined) {
        continue;
      }
      const ref = asObject(valueFrom[field]);
      const name = readString(ref['name']) ?? '';
      const optional = ref['optional'] === true;
      const at = [...path, 'env', index, 'valueFrom', field];
      const found = find(kind, name, [...at, 'name'], optional);
      if (found.error !== null) {
        return { message: found.error, path: [...at, 'name'] };
      }
      const key = readString(ref['key']) ?? '';
      if (found.keys !== null && !found.keys.has(key) && !optional) {
        return { message: `couldn't find key ${key} in ${kind} ${namespace}/${name}`, path: [...at, 'key'] };
      }
    }
  }
  return null;
}
