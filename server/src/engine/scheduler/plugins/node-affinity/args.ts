/**
 * NodeAffinityArgs (kubescheduler.config.k8s.io/v1): addedAffinity, node affinity the scheduler enforces on every
 * pod of the profile on top of the pod's own.
 * https://kubernetes.io/docs/reference/config-api/kube-scheduler-config.v1/#kubescheduler-config-k8s-io-v1-NodeAffinityArgs
 */
import { isRecord } from '../../../model/objects';
import type { NodeSelectorObject, PreferredSchedulingTermObject } from '../../../model/objects';

/** The arguments the engine reads. */
export interface NodeAffinityArgs {
  readonly addedAffinity?: {
    readonly requiredDuringSchedulingIgnoredDuringExecution?: NodeSelectorObject;
    readonly preferredDuringSchedulingIgnoredDuringExecution?: readonly PreferredSchedulingTermObject[];
  };
}

/** Reads NodeAffinityArgs from plain JSON; anything malformed is reported and ignored. */
export function readNodeAffinityArgs(raw: unknown, report: (message: string) => void): NodeAffinityArgs {
  if (raw === undefined || raw === null) {
    return {};
  }
  if (!isRecord(raw)) {
    report('args must be an object');
    return {};
  }
  const added = raw['addedAffinity'];
  if (added === undefined || added === null) {
    return {};
  }
  if (!isRecord(added)) {
    report('addedAffinity must be an object');
    return {};
  }
  const required = added['requiredDuringSchedulingIgnoredDuringExecution'];
  const preferred = added['preferredDuringSchedulingIgnoredDuringExecution'];
  if (required !== undefined && !isRecord(required)) {
    report('addedAffinity.requiredDuringSchedulingIgnoredDuringExecution must be a node selector');
  }
  if (preferred !== undefined && !Array.isArray(preferred)) {
    report('addedAffinity.preferredDuringSchedulingIgnoredDuringExecution must be a list');
  }
  return {
    addedAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: isRecord(required) ? required : undefined,
      preferredDuringSchedulingIgnoredDuringExecution: Array.isArray(preferred)
        ? (preferred as PreferredSchedulingTermObject[])
        : undefined,
    },
  };
}
