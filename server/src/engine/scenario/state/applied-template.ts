/**
 * Whether `kubectl apply` of a manifest changes a running workload's pod template, and which revision a template
 * is. A captured object carries everything the API server defaulted (dnsPolicy, terminationMessagePath,
 * imagePullPolicy, protocol…) that the manifest does not write, so the two are never equal as written: what counts
 * is what the apply would change. A field the manifest sets must hold the same value live (quantities compared by
 * value: "0.5" is "500m"); a field it omits is kept, unless the last applied configuration
 * (kubectl.kubernetes.io/last-applied-configuration) had it, in which case the apply removes it. Lists of named
 * items (containers, volumes, env, ports) are matched by name, as a strategic merge patch matches them.
 *
 * Revisions of StatefulSets and DaemonSets are ControllerRevisions in the cluster: the controller reuses the
 * newest one whose data equals the applied template (FindEqualRevisions), so an unchanged template keeps its
 * revision and a template equal to an older revision rolls back to that revision's name.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/history/controller_history.go
 */
import { parseQuantity } from '../../model/quantity';
import type { SourcedObject } from '../../model/load/cluster-load';
import type { JsonObject } from '../../model/json';
import { asArray, asObject, isJsonObject, readString } from '../../model/json';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Whether applying `manifest` over `live` leaves `live` as it is (see the module comment). */
export function isUnchangedByApply(
  live: unknown,
  manifest: unknown,
  lastApplied: unknown = undefined,
): boolean {
  return sameAfterApply(live, manifest) && !removesFields(lastApplied, manifest);
}

function sameAfterApply(live: unknown, manifest: unknown): boolean {
  if (manifest === undefined) {
    return true;
  }
  if (manifest === null) {
    return live === undefined || live === null;
  }
  if (Array.isArray(manifest)) {
    if (!Array.isArray(live) || live.length !== manifest.length) {
      return false;
    }
    if (manifest.every((item) => isJsonObject(item) && typeof item['name'] === 'string')) {
      return manifest.every((item) => {
        const name = (item as JsonObject)['name'];
        const match: unknown = (live as unknown[]).find(
          (candidate) => isJsonObject(candidate) && candidate['name'] === name,
        );
        return match !== undefined && sameAfterApply(match, item);
      });
    }
    return manifest.every((item, index) => sameAfterApply(live[index], item));
  }
  if (isJsonObject(manifest)) {
    if (!isJsonObject(live)) {
      return Object.keys(manifest).length === 0 && (live === undefined || live === null);
    }
    return Object.entries(manifest).every(([key, value]) => sameAfterApply(live[key], value));
  }
  return sameScalar(live, manifest);
}

/** Equal scalars; quantities ("1Gi", "0.5", 2) compared by value (also the plan's field comparison). */
export function sameScalar(live: unknown, manifest: unknown): boolean {
  if (live === manifest) {
    return true;
  }
  const isQuantityLike = (value: unknown): value is string | number =>
    typeof value === 'string' || typeof value === 'number';
  if (!isQuantityLike(live) || !isQuantityLike(manifest)) {
    return false;
  }
  if (typeof live === 'number' && typeof manifest === 'number') {
    return false;
  }
  const a = parseQuantity(live);
  const b = parseQuantity(manifest);
  return a.ok && b.ok && a.quantity.milli === b.quantity.milli;
}

/** Whether the manifest drops a field the last applied configuration set (the apply deletes it). */
function removesFields(lastApplied: unknown, manifest: unknown): boolean {
  if (lastApplied === undefined || lastApplied === null) {
    return false;
  }
  if (manifest === undefined) {
    return true;
  }
  if (isJsonObject(lastApplied) && isJsonObject(manifest)) {
    return Object.entries(lastApplied).some(([key, value]) => removesFields(value, manifest[key]));
  }
  if (Array.isArray(lastApplied) && Array.isArray(manifest)) {
    return lastApplied.some((item) => {
      if (isJsonObject(item) && typeof item['name'] === 'string') {
        const match: unknown = (manifest as unknown[]).find(
          (candidate) => isJsonObject(candidate) && candidate['name'] === item['name'],
        );
        return removesFields(item, match);
      }
      return false;
    });
  }
  return false;
}

/** spec.template of a workload object. */
export function templateOf(object: JsonObject): JsonObject {
  return asObject(asObject(object['spec'])['template']);
}

/** The pod template of the last configuration `kubectl apply` recorded on a live object, if any. */
export function lastAppliedTemplate(live: JsonObject): unknown {
  const text = asObject(asObject(live['metadata'])['annotations'])[LAST_APPLIED];
  if (typeof text !== 'string') {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return asObject(asObject(parsed)['spec'])['template'];
  } catch {
    return undefined;
  }
}

/** A ControllerRevision of the cluster file: its owner, its name and number, and the template it records. */
export interface ControllerRevision {
  readonly namespace: string;
  readonly name: string;
  readonly ownerKind: string;
  readonly ownerName: string;
  readonly revision: number;
  /** The controller-revision-hash label (the DaemonSet pods' label value), or the name's suffix. */
  readonly hash: string;
  readonly template: JsonObject;
}

/** The ControllerRevisions among the cluster file's objects. */
export function readControllerRevisions(objects: readonly SourcedObject[]): ControllerRevision[] {
  const revisions: ControllerRevision[] = [];
  for (const { object } of objects) {
    if (!isJsonObject(object) || object['kind'] !== 'ControllerRevision') {
      continue;
    }
    const metadata = asObject(object['metadata']);
    const name = readString(metadata['name']);
    const owner = asArray(metadata['ownerReferences'])
      .map((reference) => asObject(reference))
      .find((reference) => reference['controller'] === true);
    const ownerKind = readString(owner?.['kind']);
    const ownerName = readString(owner?.['name']);
    if (name === undefined || ownerKind === undefined || ownerName === undefined) {
      continue;
    }
    const labels = asObject(metadata['labels']);
    const template = { ...asObject(asObject(asObject(object['data'])['spec'])['template']) };
    delete template['$patch'];
    revisions.push({
      namespace: readString(metadata['namespace']) ?? 'default',
      name,
      ownerKind,
      ownerName,
      revision: typeof object['revision'] === 'number' ? object['revision'] : 0,
      hash:
        readString(labels['controller-revision-hash']) ??
        readString(labels['controller.kubernetes.io/hash']) ??
        name.slice(ownerName.length + 1),
      template,
    });
  }
  return revisions;
}

/**
 * FindEqualRevisions, then the newest: the revision of this workload whose template the applied one equals (in
 * apply semantics, the revision being the live, defaulted form), or undefined.
 */
export function equalRevision(
  revisions: readonly ControllerRevision[],
  kind: string,
  namespace: string,
  name: string,
  template: unknown,
  lastApplied: unknown = undefined,
): ControllerRevision | undefined {
  return revisions
    .filter(
      (revision) =>
        revision.ownerKind === kind &&
        revision.namespace === namespace &&
        revision.ownerName === name &&
        isUnchangedByApply(revision.template, template, lastApplied),
    )
    .sort((a, b) => b.revision - a.revision)[0];
}
