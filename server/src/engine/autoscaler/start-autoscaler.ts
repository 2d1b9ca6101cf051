/**
 * The wiring of the cluster autoscaler into the timeline (scenario/run-timeline.ts): the cluster file's NodeGroups
 * are read (bad ones reported and left out, a repeated name too), the scenarios' `autoscaler` settings merged over
 * cluster-autoscaler's defaults (the priority expander's from its ConfigMap, priority-config-map.ts, when no
 * Scenario sets them), and the autoscaler started when at least one group is left.
 */
import type { SourcedObject } from '../model/load/cluster-load';
import type { BudgetIndex } from '../apiserver/budget-index';
import type { ClusterState } from '../apiserver/cluster-state';
import { isJsonObject } from '../model/json';
import type { AutoscalerSettings } from './autoscaler-settings';
import { DEFAULT_AUTOSCALER_SETTINGS } from './autoscaler-settings';
import { ClusterAutoscaler } from './cluster-autoscaler';
import type { NodeGroupSpec } from './node-group';
import { readPriorityConfigMap } from './priority-config-map';
import { isNodeGroupObject, readNodeGroup } from './node-group';
import type { SnapshotSetup } from './scheduling-snapshot';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';
import { assignAll } from '../../../../protocol/collections';

/** Reads the NodeGroup documents of the cluster file. */
export function readNodeGroups(objects: readonly SourcedObject[], findings: Finding[]): NodeGroupSpec[] {
  const groups: NodeGroupSpec[] = [];
  for (const { object, source } of objects) {
    if (!isNodeGroupObject(object) || !isJsonObject(object)) {
      continue;
    }
    const group = readNodeGroup(object, source, findings);
    if (group === null) {
      continue;
    }
    if (groups.some((other) => other.name === group.name)) {
      const message = `NodeGroup "${group.name}" is defined twice: the second is left out`;
      findings.push(engineFinding('node-group-invalid', source, ['metadata', 'name'], message));
      continue;
    }
    groups.push(group);
  }
  return groups;
}

/**
 * Creates and starts the autoscaler over the groups, or returns null when there is none. The priority expander
 * reads its ConfigMap among `objects` (the cluster file's and the apply's), unless a Scenario sets `priorities`.
 */
export function startAutoscaler(
  state: ClusterState,
  index: BudgetIndex,
  groups: readonly NodeGroupSpec[],
  overrides: readonly Partial<AutoscalerSettings>[],
  setup: SnapshotSetup,
  objects: readonly SourcedObject[],
  findings: Finding[],
): ClusterAutoscaler | null {
  if (groups.length === 0) {
    return null;
  }
  let settings: AutoscalerSettings = assignAll<AutoscalerSettings>(
    { ...DEFAULT_AUTOSCALER_SETTINGS },
    overrides,
  );
  if (settings.expander === 'priority' && overrides.every((override) => override.priorities === undefined)) {
    const priorities = readPriorityConfigMap(objects, findings);
    if (priorities !== undefined) {
      settings = { ...settings, priorities };
    }
  }
  const autoscaler = new ClusterAutoscaler(state, index, settings, groups, setup);
  autoscaler.start();
  return autoscaler;
}
