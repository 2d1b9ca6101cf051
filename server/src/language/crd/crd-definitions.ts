/**
 * Reads CustomResourceDefinition objects (apiextensions.k8s.io/v1) into what validation needs: the group and
 * kind they define, and each version's served flag and schema. v1beta1 CRDs (removed in 1.22) are not read.
 * https://kubernetes.io/docs/reference/kubernetes-api/extend-resources/custom-resource-definition-v1/
 */
import type { ManifestObject } from '../kubernetes/manifest-object';
import { listAt, recordAt } from '../rules/rule-support';
import { isRecord } from '../../engine/model/objects';

/** One version of a CRD. */
export interface CrdVersion {
  readonly name: string;
  readonly served: boolean;
  /** spec.versions[].schema.openAPIV3Schema, when there is one. */
  readonly schema: unknown;
}

/** What a CRD defines. */
export interface CrdDefinition {
  /** metadata.name, or plural.group when it has none. */
  readonly crdName: string;
  readonly group: string;
  readonly kind: string;
  readonly versions: readonly CrdVersion[];
  /** The CRD as JSON text: the key its compiled schemas are cached by. */
  readonly text: string;
}

/** The apiVersion of the CRDs we read. */
const CRD_API_VERSION = 'apiextensions.k8s.io/v1';

/** Whether an object is a CustomResourceDefinition we can read. */
export function isCrdObject(object: ManifestObject): boolean {
  return object.apiVersion === CRD_API_VERSION && object.kind === 'CustomResourceDefinition';
}

/** The definition of a CRD object, or undefined when it lacks a group or kind. */
export function readCrdDefinition(object: ManifestObject): CrdDefinition | undefined {
  if (!isCrdObject(object)) {
    return undefined;
  }
  const spec = recordAt(object.value, ['spec']);
  const group = spec?.['group'];
  const names = recordAt(spec, ['names']);
  const kind = names?.['kind'];
  if (typeof group !== 'string' || group === '' || typeof kind !== 'string' || kind === '') {
    return undefined;
  }
  const versions: CrdVersion[] = [];
  for (const version of listAt(spec, ['versions'])) {
    if (isRecord(version) && typeof version['name'] === 'string') {
      versions.push({
        name: version['name'],
        served: version['served'] === true,
        schema: recordAt(version, ['schema'])?.['openAPIV3Schema'],
      });
    }
  }
  const plural = names?.['plural'];
  return {
    crdName: object.name ?? (typeof plural === 'string' ? `${plural}.${group}` : `${kind}.${group}`),
    group,
    kind,
    versions,
    text: JSON.stringify(object.value),
  };
}
