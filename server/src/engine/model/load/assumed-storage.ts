/**
 * StorageClasses a capture does not show. A cluster file without any StorageClass (`kubectl get nodes -o yaml`,
 * a capture of workloads only) cannot say which classes the cluster has, and almost every cluster has a default
 * one: predicting "no default class, so the claim never binds" would be a failure made of missing knowledge. So
 * such a cluster is given the embedded default cluster's class `standard` as its default, and every class a claim
 * of the apply names that is in neither the cluster file nor the manifests is assumed to exist in the same shape
 * (WaitForFirstConsumer, volumes provisioned in the pod's zone), each with an information finding. A cluster file
 * that lists StorageClasses, or a capture whose header covers them, is taken as it is: a class it lacks does not
 * exist.
 */
import { captureHeaderOf, isCovered } from './capture-header';
import type { SourcedObject } from './cluster-load';
import { DEFAULT_STORAGE_CLASS } from './default-cluster';
import { engineFinding } from '../findings';
import { asArray, asObject, isJsonObject, readString } from '../json';
import type { Finding } from '../../../../../protocol/finding';

const FILE = '<assumed storage classes>';

/** The classes to add to a cluster file that lists none (empty when it lists some, or for the embedded default). */
export function assumedStorageClasses(
  cluster: readonly SourcedObject[] | null,
  manifests: readonly SourcedObject[],
): { readonly objects: SourcedObject[]; readonly findings: Finding[] } {
  const objects: SourcedObject[] = [];
  const findings: Finding[] = [];
  if (
    cluster === null ||
    cluster.some(({ object }) => kindOf(object) === 'StorageClass') ||
    isCovered(captureHeaderOf(cluster), 'storageclasses')
  ) {
    return { objects, findings };
  }
  const known = new Set(
    manifests.filter(({ object }) => kindOf(object) === 'StorageClass').map(({ object }) => nameOf(object)),
  );
  const add = (object: Record<string, unknown>): void => {
    objects.push({ object, source: { file: FILE, documentIndex: objects.length, path: [] } });
  };
  add(DEFAULT_STORAGE_CLASS);
  known.add(DEFAULT_STORAGE_CLASS.metadata.name);
  for (const { object, source, path } of namedClasses(manifests)) {
    if (object === null) {
      const message = `the cluster file lists no StorageClasses: this claim is given an assumed default class "${DEFAULT_STORAGE_CLASS.metadata.name}" (WaitForFirstConsumer, a volume provisioned in the zone of the pod's node)`;
      findings.push(engineFinding('storage-class-assumed', source, path, message));
      continue;
    }
    if (known.has(object)) {
      continue;
    }
    known.add(object);
    add({
      ...DEFAULT_STORAGE_CLASS,
      metadata: { name: object },
    });
    const message = `StorageClass "${object}" is not in the manifests and the cluster file lists no StorageClasses: it is assumed to exist, provisioning a volume in the pod's zone when the pod is scheduled`;
    findings.push(engineFinding('storage-class-assumed', source, path, message));
  }
  return { objects, findings };
}

/** The classes the apply's claims and StatefulSet claim templates name, with where they are named. */
function namedClasses(
  manifests: readonly SourcedObject[],
): { object: string | null; source: SourcedObject['source']; path: (string | number)[] }[] {
  // object: the class named, or null for a claim that names none (the default class applies).
  const result: { object: string | null; source: SourcedObject['source']; path: (string | number)[] }[] = [];
  for (const { object, source } of manifests) {
    const kind = kindOf(object);
    const spec = asObject(isJsonObject(object) ? object['spec'] : undefined);
    if (kind === 'PersistentVolumeClaim') {
      const name = readString(spec['storageClassName']);
      if (name === undefined) {
        result.push({ object: null, source, path: ['spec'] });
      } else if (name !== '') {
        result.push({ object: name, source, path: ['spec', 'storageClassName'] });
      }
    } else if (kind === 'StatefulSet') {
      asArray(spec['volumeClaimTemplates']).forEach((template, index) => {
        const name = readString(asObject(asObject(template)['spec'])['storageClassName']);
        const path = ['spec', 'volumeClaimTemplates', index, 'spec'];
        if (name === undefined) {
          result.push({ object: null, source, path });
        } else if (name !== '') {
          result.push({ object: name, source, path: [...path, 'storageClassName'] });
        }
      });
    }
  }
  return result;
}

function kindOf(object: unknown): string | undefined {
  return isJsonObject(object) ? readString(object['kind']) : undefined;
}

function nameOf(object: unknown): string {
  return isJsonObject(object) ? (readString(asObject(object['metadata'])['name']) ?? '') : '';
}
