/**
 * Pods from templates, as controller.GetPodFromTemplate builds them: the template's labels, annotations and
 * finalizers, a deep copy of its spec, and the controller reference of the owner.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/controller_utils.go
 */
import type { JsonObject } from '../model/json';
import { asArray, asObject, cloneJson, readStringMap } from '../model/json';

/** metav1.NewControllerRef: the owner reference a controller puts on what it creates. */
export interface ControllerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller: true;
  readonly blockOwnerDeletion: true;
}

/** Builds the controller reference to an owner. */
export function controllerReference(
  apiVersion: string,
  kind: string,
  name: string,
  uid: string,
): ControllerReference {
  return { apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true };
}

/** What the controller decides about one pod besides its template. */
interface PodIdentity {
  readonly name: string;
  /** The generateName the controller asked for, when the name was generated. */
  readonly generateName?: string;
  readonly namespace: string;
  readonly ownerReference: ControllerReference;
  /** Labels the controller adds on top of the template's. */
  readonly extraLabels?: Readonly<Record<string, string>>;
  /** Annotations the controller adds on top of the template's. */
  readonly extraAnnotations?: Readonly<Record<string, string>>;
  /** Finalizers the controller adds (a Job's tracking finalizer). */
  readonly extraFinalizers?: readonly string[];
}

/** A pod of a template (PodTemplateSpec JSON). `spec` replaces the template's spec when the caller changed it. */
export function podFromTemplate(template: JsonObject, identity: PodIdentity, spec?: JsonObject): JsonObject {
  const templateMeta = asObject(template['metadata']);
  const labels = { ...readStringMap(templateMeta['labels']), ...identity.extraLabels };
  const annotations = { ...readStringMap(templateMeta['annotations']), ...identity.extraAnnotations };
  const finalizers = asArray(templateMeta['finalizers']).filter((f): f is string => typeof f === 'string');
  for (const finalizer of identity.extraFinalizers ?? []) {
    if (!finalizers.includes(finalizer)) {
      finalizers.push(finalizer);
    }
  }
  const metadata: JsonObject = { name: identity.name };
  if (identity.generateName !== undefined) {
    metadata['generateName'] = identity.generateName;
  }
  metadata['namespace'] = identity.namespace;
  metadata['labels'] = labels;
  if (Object.keys(annotations).length > 0) {
    metadata['annotations'] = annotations;
  }
  metadata['ownerReferences'] = [{ ...identity.ownerReference }];
  if (finalizers.length > 0) {
    metadata['finalizers'] = finalizers;
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: spec ?? cloneJson(asObject(template['spec'])) };
}
