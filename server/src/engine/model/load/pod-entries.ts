/**
 * The cluster file's Pods set apart from its other objects, for the cluster loader (cluster-load.ts).
 */
import type { SourcedObject } from './cluster-load';
import { isRecord } from '../objects';

/** A cluster file's Pods, those of them that finished, and its other objects, each in the file's order. */
export interface PodEntries {
  readonly pods: readonly SourcedObject[];
  readonly finishedPods: readonly SourcedObject[];
  readonly others: readonly SourcedObject[];
}

/** Pod entries kept, by the (flattened) array they were taken from. */
const POD_ENTRIES = new WeakMap<readonly SourcedObject[], PodEntries>();

/**
 * Sets the cluster file's Pods apart from its other objects (which are classified in order, for their findings),
 * once per array: a capture's 150,000 pods are walked and filtered again by no later load of the same objects. A
 * Pod makes no finding when classified, so taking it out of the sequence changes no finding's place.
 */
export function podEntries(entries: readonly SourcedObject[]): PodEntries {
  const known = POD_ENTRIES.get(entries);
  if (known !== undefined) {
    return known;
  }
  const pods: SourcedObject[] = [];
  const others: SourcedObject[] = [];
  for (const entry of entries) {
    if (isRecord(entry.object) && entry.object['kind'] === 'Pod') {
      pods.push(entry);
    } else {
      others.push(entry);
    }
  }
  const finishedPods = pods.filter(({ object }) => {
    const status = isRecord(object) && isRecord(object['status']) ? object['status'] : {};
    return status['phase'] === 'Succeeded' || status['phase'] === 'Failed';
  });
  const result: PodEntries = {
    pods: Object.freeze(pods),
    finishedPods: Object.freeze(finishedPods),
    others: Object.freeze(others),
  };
  POD_ENTRIES.set(entries, result);
  return result;
}
