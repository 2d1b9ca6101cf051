/**
 * Argo CD creates an object that has a `generateName` and no name (its hooks' usual form; kubectl apply refuses
 * it, read-manifests.ts), and the API server names it: the prefix, cut to 58 characters, and five random
 * characters (apiserver pkg/storage/names/generate.go). The engine finds objects by name, so such an object is
 * given that name before it reaches the engine; its five characters come from a seed of its place in the
 * manifests, as the engine's own generated names do (engine/workloads/names.ts).
 */
import type { ObjectSource } from '../../engine/model/source';
import { seededSuffix } from '../../engine/workloads/hash';
import { MAX_GENERATED_NAME_LENGTH } from '../../engine/workloads/names';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { recordAt } from '../rules/rule-support';

/**
 * The `generateName` of an object that has no name (kubectl apply refuses it; Argo CD creates it), else
 * undefined.
 */
export function onlyGenerateNameOf(object: ManifestObject): string | undefined {
  const generateName = recordAt(object.value, ['metadata'])?.['generateName'];
  return object.name === undefined && typeof generateName === 'string' && generateName !== ''
    ? generateName
    : undefined;
}

/** The object named as the API server names one with only a `generateName`; any other object as it is. */
export function withGeneratedName(object: ManifestObject, source: ObjectSource): ManifestObject {
  const generateName = onlyGenerateNameOf(object);
  const metadata = recordAt(object.value, ['metadata']);
  if (generateName === undefined || metadata === undefined) {
    return object;
  }
  const name =
    generateName.slice(0, MAX_GENERATED_NAME_LENGTH) +
    seededSuffix(
      `${object.kind}/${generateName}/${source.file}#${source.documentIndex}/${source.path.join('/')}`,
    );
  return { ...object, name, value: { ...object.value, metadata: { ...metadata, name } } };
}
