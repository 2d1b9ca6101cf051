/**
 * The ConfigMaps and Secrets a pod may reference, with their keys: from the cluster file and the apply. Whether a
 * missing one is certain depends on the cluster file: a capture whose header covers ConfigMaps (or Secrets) shows
 * which exist in every namespace, a file without a header only in the namespaces where it lists some; the embedded
 * default cluster, or a capture without them, cannot say, and a reference is then assumed to exist. Every namespace has the ConfigMap kube-root-ca.crt (the root CA publisher writes it).
 */
import { captureHeaderOf, isCovered } from './capture-header';
import type { SourcedObject } from './cluster-load';
import { asObject, isJsonObject, readString } from '../json';

/** The two kinds a container's env and volumes read. */
export type ConfigKind = 'ConfigMap' | 'Secret';

/** What is known of ConfigMaps and Secrets. */
export interface ConfigObjects {
  /** The keys of each object, by "Kind/namespace/name". */
  readonly keys: ReadonlyMap<string, ReadonlySet<string>>;
  /** "Kind/namespace" for each namespace whose objects of that kind the cluster file lists. */
  readonly listed: ReadonlySet<string>;
  /** The kinds a capture's header covers: listed in every namespace, even one without any. */
  readonly covered: ReadonlySet<ConfigKind>;
}

/** What a lookup finds: the object (its keys), its absence for certain, or nothing known. */
export type ConfigLookup =
  | { readonly found: true; readonly keys: ReadonlySet<string> }
  | { readonly found: false; readonly certain: boolean };

const ROOT_CA = 'kube-root-ca.crt';

/** The ConfigMaps and Secrets of the cluster file (null: the embedded default cluster) and the apply. */
export function readConfigObjects(
  cluster: readonly SourcedObject[] | null,
  manifests: readonly SourcedObject[],
): ConfigObjects {
  const keys = new Map<string, Set<string>>();
  const listed = new Set<string>();
  const read = (objects: readonly SourcedObject[], fromCluster: boolean): void => {
    for (const { object } of objects) {
      if (!isJsonObject(object) || readString(object['apiVersion']) !== 'v1') {
        continue;
      }
      const kind = readString(object['kind']);
      if (kind !== 'ConfigMap' && kind !== 'Secret') {
        continue;
      }
      const metadata = asObject(object['metadata']);
      const name = readString(metadata['name']);
      const namespace = readString(metadata['namespace']) ?? 'default';
      if (name === undefined) {
        continue;
      }
      const fields = kind === 'ConfigMap' ? ['data', 'binaryData'] : ['data', 'stringData'];
      keys.set(
        `${kind}/${namespace}/${name}`,
        new Set(fields.flatMap((field) => Object.keys(asObject(object[field])))),
      );
      if (fromCluster) {
        listed.add(`${kind}/${namespace}`);
      }
    }
  };
  read(cluster ?? [], true);
  read(manifests, false);
  const header = captureHeaderOf(cluster);
  const covered = new Set<ConfigKind>();
  if (isCovered(header, 'configmaps')) {
    covered.add('ConfigMap');
  }
  if (isCovered(header, 'secrets')) {
    covered.add('Secret');
  }
  return { keys, listed, covered };
}

/** Looks a ConfigMap or Secret up. */
export function lookUpConfig(
  objects: ConfigObjects,
  kind: ConfigKind,
  namespace: string,
  name: string,
): ConfigLookup {
  const keys = objects.keys.get(`${kind}/${namespace}/${name}`);
  if (keys !== undefined) {
    return { found: true, keys };
  }
  if (kind === 'ConfigMap' && name === ROOT_CA) {
    return { found: true, keys: new Set(['ca.crt']) };
  }
  return { found: false, certain: objects.covered.has(kind) || objects.listed.has(`${kind}/${namespace}`) };
}
