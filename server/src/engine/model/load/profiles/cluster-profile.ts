/**
 * A cluster profile: a real cluster's shape for users without a capture. A profile is node groups (the cluster
 * autoscaler's NodeGroup, autoscaler/node-group.ts) whose template is a common machine type with its allocatable
 * computed as the provider computes it (allocatable.ts), with the sizes a small production cluster starts and
 * grows within, plus the provider's default StorageClass. As cluster objects it is: a `kind: Profile` marker
 * (apiVersion foresight/v1, so reports say which cluster was assumed), each group's first `minSize` nodes, a
 * NodeGroup document for each group that may grow, fixed nodes (a control plane) and what runs on them.
 * Left out: the provider's own system pods (kube-proxy, CNI and logging agents take some cpu and memory on every
 * node), and a group's zones: the nodes it adds all join its first zone.
 */
import { NODE_GROUP_KIND, NODE_GROUP_LABEL } from '../node-group-kind';
import type { SourcedObject } from '../cluster-load';
import type { TaintObject } from '../../objects';
import { isRecord } from '../../objects';
import { allocatableOf } from './allocatable';
import type { AllocatableFormula, MachineType } from './allocatable';

/** The kind of the marker that names the profile a cluster's objects come from. */
export const PROFILE_KIND = 'Profile';

/** One node group of a profile. */
export interface ProfileNodeGroup {
  readonly name: string;
  readonly machine: MachineType;
  readonly minSize: number;
  readonly maxSize: number;
  /** Labels the provider gives every node of the group (its pool, the instance type). */
  readonly labels: Readonly<Record<string, string>>;
  readonly taints?: readonly TaintObject[];
  /** Names of the first nodes (default `<group>-1`, `<group>-2`, …). */
  readonly nodeNames?: readonly string[];
}

/** A cluster profile. */
export interface ClusterProfile {
  /** What `--profile` takes ("gke"). */
  readonly name: string;
  /** One line for `foresight profiles` and the editor's picker. */
  readonly title: string;
  /** How allocatable is computed from capacity. */
  readonly formula: AllocatableFormula;
  readonly region: string;
  /** Zones the first nodes of each group are spread over, in turn. */
  readonly zones: readonly string[];
  readonly groups: readonly ProfileNodeGroup[];
  /** The provider's StorageClass (marked default when the provider marks it so). */
  readonly storageClass: Readonly<Record<string, unknown>>;
  /** Objects besides the groups' nodes: a control-plane node and the pods the cluster already runs. */
  readonly extraObjects?: () => readonly unknown[];
  /** The file name findings about its objects name (default `<profile NAME>`). */
  readonly sourceName?: string;
}

/** Whether an object is a profile marker. */
export function isProfileMarker(object: unknown): boolean {
  return isRecord(object) && object['kind'] === PROFILE_KIND && object['apiVersion'] === 'foresight/v1';
}

/** The name of the profile a cluster's objects come from, or null when they are not a profile's. */
export function profileNameOf(objects: readonly SourcedObject[] | null): string | null {
  const marker = objects?.find(({ object }) => isProfileMarker(object))?.object;
  const metadata = isRecord(marker) && isRecord(marker['metadata']) ? marker['metadata'] : {};
  return typeof metadata['name'] === 'string' ? metadata['name'] : null;
}

/** The capacity and allocatable of a group's machine, as Node status fields. */
export function nodeResources(
  group: ProfileNodeGroup,
  formula: AllocatableFormula,
): {
  capacity: Record<string, string>;
  allocatable: Record<string, string>;
} {
  const { machine } = group;
  const allocatable = allocatableOf(machine, formula);
  return {
    capacity: {
      cpu: String(machine.cpu),
      memory: kibText(machine.memoryMiB * 1024),
      pods: String(machine.maxPods),
      'ephemeral-storage': kibText(machine.diskGiB * 1024 * 1024),
    },
    allocatable: {
      cpu:
        allocatable.cpuMilli % 1000 === 0 ? String(allocatable.cpuMilli / 1000) : `${allocatable.cpuMilli}m`,
      memory: kibText(allocatable.memoryKiB),
      pods: String(allocatable.pods),
      'ephemeral-storage': kibText(allocatable.ephemeralKiB),
    },
  };
}

/** A KiB amount in the largest binary unit that holds it whole ("16Gi", "13948518Ki"). */
function kibText(kib: number): string {
  if (kib % (1024 * 1024) === 0) {
    return `${kib / (1024 * 1024)}Gi`;
  }
  return kib % 1024 === 0 ? `${kib / 1024}Mi` : `${kib}Ki`;
}

/** The profile as cluster objects, each with its own source (file `<profile NAME>`). */
export function profileObjects(profile: ClusterProfile): SourcedObject[] {
  const objects: unknown[] = [
    {
      apiVersion: 'foresight/v1',
      kind: PROFILE_KIND,
      metadata: { name: profile.name },
      spec: { title: profile.title },
    },
    ...(profile.extraObjects?.() ?? []),
  ];
  let zoneTurn = 0;
  for (const group of profile.groups) {
    const resources = nodeResources(group, profile.formula);
    const grows = group.maxSize > group.minSize;
    // The label the autoscaler knows its nodes by (autoscaler/node-group.ts); a group that cannot grow has no need.
    const baseLabels = {
      ...group.labels,
      ...(grows ? { [NODE_GROUP_LABEL]: group.name } : {}),
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'topology.kubernetes.io/region': profile.region,
    };
    for (let index = 0; index < group.minSize; index++) {
      const name = group.nodeNames?.[index] ?? `${group.name}-${index + 1}`;
      const zone = profile.zones[zoneTurn++ % profile.zones.length] ?? '';
      objects.push({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name,
          labels: { ...baseLabels, 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone },
        },
        spec: group.taints === undefined ? {} : { taints: group.taints },
        status: resources,
      });
    }
    if (grows) {
      objects.push({
        apiVersion: 'foresight/v1',
        kind: NODE_GROUP_KIND,
        metadata: { name: group.name },
        spec: {
          minSize: group.minSize,
          maxSize: group.maxSize,
          template: {
            metadata: { labels: { ...baseLabels, 'topology.kubernetes.io/zone': profile.zones[0] ?? '' } },
            spec: group.taints === undefined ? {} : { taints: group.taints },
            status: resources,
          },
        },
      });
    }
  }
  objects.push(profile.storageClass);
  const file = profile.sourceName ?? `<profile ${profile.name}>`;
  return objects.map((object, index) => ({ object, source: { file, documentIndex: index, path: [] } }));
}
