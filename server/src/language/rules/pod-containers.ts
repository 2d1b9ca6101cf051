/**
 * The containers of every pod spec of an object, in the order the API server validates them (containers, then
 * initContainers, then ephemeralContainers), each with its path in the object.
 */
import type { ManifestObject } from '../kubernetes/manifest-object';
import { podSpecPaths } from '../kubernetes/pod-spec-paths';
import type { InstancePath } from '../yaml/node-at-path';
import type { PlainRecord } from './rule-support';
import { listAt } from './rule-support';
import { isRecord } from '../../engine/model/objects';

/** The three container lists of a pod spec. */
export const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

/** Which list a container is in. */
type ContainerList = (typeof CONTAINER_LISTS)[number];

/** One container of a pod spec. */
interface ContainerEntry {
  /** The path of the pod spec the container belongs to. */
  readonly specPath: InstancePath;
  readonly list: ContainerList;
  /** The container's path in the object: [...specPath, list, index]. */
  readonly path: InstancePath;
  readonly container: PlainRecord;
}

/** Every container (as a mapping) of every pod spec of an object. */
export function containerEntries(object: ManifestObject): ContainerEntry[] {
  const entries: ContainerEntry[] = [];
  for (const specPath of podSpecPaths(object)) {
    for (const list of CONTAINER_LISTS) {
      listAt(object.value, [...specPath, list]).forEach((container, index) => {
        if (isRecord(container)) {
          entries.push({ specPath, list, path: [...specPath, list, index], container });
        }
      });
    }
  }
  return entries;
}
