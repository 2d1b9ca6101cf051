/**
 * How the timeline splits the cluster file's objects (run-timeline.ts): NodeGroups, Scenarios, running workloads
 * (the initial state's, and the timeline-only kinds among them), and the rest, which the scheduler's cluster
 * loads.
 *
 * The split is a function of the objects alone, kept for the (flattened, frozen) array given: a capture of 150,000
 * pods is walked once, not on every prediction, and the same `rest` array lets the cluster loader find what it
 * derived from it before (cluster-load.ts). NodeGroups and Scenarios are kept as entries and read per call, where
 * their findings belong.
 */
import type { SourcedObject } from '../model/load/cluster-load';
import { isJsonObject } from '../model/json';
import { isNodeGroupObject } from '../autoscaler/node-group';
import { isScenarioObject } from './scenario-spec';

/** The cluster file's objects, split for the timeline; each list in the input's order. */
export interface ClusterSplit {
  /** NodeGroup objects (read per call: readNodeGroups). */
  readonly nodeGroups: readonly SourcedObject[];
  /** Scenario objects (read per call: readScenario). */
  readonly scenarios: readonly SourcedObject[];
  /** Objects of the running workload kinds. */
  readonly workloads: readonly SourcedObject[];
  /** What the scheduler's cluster loads: all but NodeGroups, Scenarios and the timeline-only kinds. */
  readonly rest: readonly SourcedObject[];
}

/** Splits kept, by the array split. */
const SPLITS = new WeakMap<readonly SourcedObject[], ClusterSplit>();

/**
 * Splits `objects` (already flattened): `workloadKinds` are the running workload kinds, `timelineOnlyKinds` those
 * of them the scheduler's cluster does not load. Both sets must be the same on every call (module constants).
 */
export function splitClusterObjects(
  objects: readonly SourcedObject[],
  workloadKinds: ReadonlySet<string>,
  timelineOnlyKinds: ReadonlySet<string>,
): ClusterSplit {
  const known = SPLITS.get(objects);
  if (known !== undefined) {
    return known;
  }
  const nodeGroups: SourcedObject[] = [];
  const scenarios: SourcedObject[] = [];
  const workloads: SourcedObject[] = [];
  const rest: SourcedObject[] = [];
  for (const entry of objects) {
    if (isNodeGroupObject(entry.object)) {
      nodeGroups.push(entry);
    } else if (isScenarioObject(entry.object) && isJsonObject(entry.object)) {
      scenarios.push(entry);
    } else if (isJsonObject(entry.object) && workloadKinds.has(String(entry.object['kind']))) {
      workloads.push(entry);
      if (!timelineOnlyKinds.has(String(entry.object['kind']))) {
        rest.push(entry); // scheduler plugins list them too (model/snapshot/cluster-objects.ts)
      }
    } else {
      rest.push(entry);
    }
  }
  const split: ClusterSplit = {
    nodeGroups: Object.freeze(nodeGroups),
    scenarios: Object.freeze(scenarios),
    workloads: Object.freeze(workloads),
    rest: Object.freeze(rest),
  };
  SPLITS.set(objects, split);
  return split;
}
