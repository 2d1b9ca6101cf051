/**
 * What the API server refused, as the report lists it (`rejected[]`, schemas/report.schema.json): the object, the
 * stage that refused it, the admission plugin's registered name for the admission stage, and the API server's (or
 * kubectl's) error text. A pod a controller tried to create names its owner; the controller's FailedCreate event
 * carries the same message.
 */
import type { ObjectSource } from '../model/source';

/** Where on its way in an object was refused. */
type RejectionStage =
  /** kubectl found no REST mapping: the apiVersion/kind is not served (removed, or a CRD not installed). */
  | 'discovery'
  /** The API server's validation of the object (schema, field rules). */
  | 'validation'
  /** An admission plugin (`plugin` names it). */
  | 'admission';

/** One refusal. */
export interface RejectedObject {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  /** For a pod a controller tried to create: the controller's object. */
  readonly owner?: { readonly kind: string; readonly name: string };
  /**
   * For pods of a Deployment, ReplicaSet or StatefulSet, on the workload's last refusal: its desired replicas and
   * the pods that exist at the end; the others were never created.
   */
  readonly replicas?: RefusedReplicas;
  readonly stage: RejectionStage;
  /** The admission plugin's registered name ('' before admission). */
  readonly plugin: string;
  readonly message: string;
  readonly file: string;
  readonly documentIndex: number;
  /** Path in the document to the field that causes the refusal (the object's, or its pod template's field). */
  readonly path: readonly (string | number)[];
  /** For a quota's "must specify" refusal: the quota's room left then. */
  readonly quotaRoom?: QuotaRoom;
}

/** A workload's desired replicas against the pods that exist: "3 desired · 1 created · 2 refused". */
export interface RefusedReplicas {
  readonly workload: { readonly kind: string; readonly name: string };
  readonly desired: number;
  readonly created: number;
}

/** A refusal of an object before it is created: what refused it and the error text. */
export interface Refusal {
  readonly stage: RejectionStage;
  readonly plugin: string;
  readonly message: string;
  readonly quotaRoom?: QuotaRoom;
}

/**
 * What a ResourceQuota had left when it refused a pod for a resource its containers do not state ("must
 * specify"): hard minus the usage of the namespace's pods it covers, per tracked resource, as the API server
 * prints quantities. A fix that adds the resources reads it to say whether the pods then fit the quota.
 */
export interface QuotaRoom {
  readonly quota: string;
  readonly room: Readonly<Record<string, string>>;
}

/** The report entry for a refused object. */
export function rejectedObject(
  object: { readonly kind: string; readonly namespace?: string; readonly name: string },
  refusal: Refusal,
  source: ObjectSource,
  owner?: { readonly kind: string; readonly name: string },
  field: readonly (string | number)[] = [],
): RejectedObject {
  return {
    kind: object.kind,
    ...(object.namespace === undefined ? {} : { namespace: object.namespace }),
    name: object.name,
    ...(owner === undefined ? {} : { owner }),
    stage: refusal.stage,
    plugin: refusal.plugin,
    message: refusal.message,
    file: source.file,
    documentIndex: source.documentIndex,
    path: [...source.path, ...field],
    ...(refusal.quotaRoom === undefined ? {} : { quotaRoom: refusal.quotaRoom }),
  };
}

/**
 * The API server's Forbidden error for an admission plugin's refusal: `pods "web-7d4b9-" is forbidden: …`. The
 * name is the object's, or its generateName while the name is not generated yet (apiserver's admission errors).
 */
export function forbiddenMessage(resource: string, name: string, reason: string): string {
  return `${resource} "${name}" is forbidden: ${reason}`;
}
