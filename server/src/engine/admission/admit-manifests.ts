/**
 * The objects of `kubectl apply` on their way in: each must first be served (api-discovery.ts), else kubectl
 * refuses it and it is never simulated. What passes is admitted for the cluster; pods are admitted again, one by
 * one, as their controllers create them (admit-pod.ts through controllers/pod-factory.ts).
 */
import type { SourcedObject } from '../model/cluster-load';
import { isJsonObject, readString, asObject } from '../workloads/json';
import type { ApiServing } from './api-discovery';
import { discoveryRefusal } from './api-discovery';
import type { RejectedObject } from './rejected';
import { rejectedObject } from './rejected';

/** The objects admitted, in order, and those refused. */
interface ManifestAdmission {
  readonly admitted: readonly SourcedObject[];
  readonly rejected: readonly RejectedObject[];
}

/** Admits the apply's objects (lists already unwrapped). */
export function admitManifests(
  manifests: readonly SourcedObject[],
  serving: ApiServing | undefined,
): ManifestAdmission {
  const admitted: SourcedObject[] = [];
  const rejected: RejectedObject[] = [];
  for (const entry of manifests) {
    const { object, source } = entry;
    if (!isJsonObject(object)) {
      admitted.push(entry);
      continue;
    }
    const metadata = asObject(object['metadata']);
    const identity = {
      apiVersion: readString(object['apiVersion']) ?? '',
      kind: readString(object['kind']) ?? '',
      name: readString(metadata['name']) ?? '',
      namespace: readString(metadata['namespace']),
    };
    const refusal = discoveryRefusal(serving, identity, source.file);
    if (refusal === null) {
      admitted.push(entry);
    } else {
      rejected.push(rejectedObject(identity, refusal, source));
    }
  }
  return { admitted, rejected };
}
