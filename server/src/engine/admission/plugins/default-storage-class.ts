/**
 * DefaultStorageClass: a PersistentVolumeClaim created without spec.storageClassName (nil, not "") gets the
 * default StorageClass's name; with no default class it is left as it is (the PV controller then binds it only to
 * a volume without class). The default is the newest class annotated storageclass.kubernetes.io/is-default-class
 * (or the beta annotation) "true", then the first by name (GetDefaultClass). It applies to claims of the apply
 * and to claims controllers create (a StatefulSet's volumeClaimTemplates, a pod's ephemeral volumes).
 * https://github.com/kubernetes/kubernetes/blob/master/plugin/pkg/admission/storage/storageclass/setdefault/admission.go
 */
import type { SourcedObject } from '../../model/load/cluster-load';
import { StorageObjects } from '../../model/snapshot/storage-objects';
import { asObject, isJsonObject } from '../../model/json';

/** The name of the default StorageClass among these objects (the cluster's and the apply's), or null. */
export function defaultStorageClassName(objects: readonly SourcedObject[]): string | null {
  const storage = new StorageObjects();
  for (const { object, source } of objects) {
    if (isJsonObject(object) && object['kind'] === 'StorageClass') {
      storage.add('StorageClass', object, source, false);
    }
  }
  return storage.defaultClass()?.name ?? null;
}

/**
 * The claim as admitted: with the default class when it names none (the beta class annotation counts as naming
 * one). Returns the same object when nothing changes.
 */
export function withDefaultStorageClass(
  claim: Record<string, unknown>,
  defaultClass: string | null,
): Record<string, unknown> {
  if (defaultClass === null) {
    return claim;
  }
  const spec = asObject(claim['spec']);
  const annotations = asObject(asObject(claim['metadata'])['annotations']);
  if (spec['storageClassName'] !== undefined && spec['storageClassName'] !== null) {
    return claim;
  }
  if (typeof annotations['volume.beta.kubernetes.io/storage-class'] === 'string') {
    return claim;
  }
  return { ...claim, spec: { ...spec, storageClassName: defaultClass } };
}
