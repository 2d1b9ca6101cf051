/**
 * Which cluster each apply unit of `foresight simulate` is simulated on when neither `--cluster` nor `--profile`
 * is given: the nearest `.foresight/cluster.yaml` at or above the unit's folder (files/cluster-files.ts, the
 * editor's "nearest" rule), searched up to the repository's root (else the working directory), else the embedded
 * default. Units that share a cluster file are one simulation, applied in turn as one `kubectl apply` after
 * another; units on different cluster files are separate simulations, so no object of one lands on the other's
 * cluster (docs/cli.md, "Each unit on its cluster").
 */
import { statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { InputText, SkippedChart } from '../language/service';
import { STDIN_NAME } from '../language/service';
import { clusterSearchRoot, nearestClusterFile } from '../files/cluster-files';
import type { ApplyUnit } from './read-input';

/** The units simulated on one cluster, with their texts and notes. */
export interface ClusterGroup {
  /** The cluster file (absolute), or undefined for the embedded default cluster. */
  readonly clusterPath: string | undefined;
  readonly units: ApplyUnit[];
  readonly texts: InputText[];
  readonly charts: SkippedChart[];
}

/** What was read of the command line, as read-input.ts gives it. */
interface ReadTexts {
  readonly texts: readonly InputText[];
  readonly charts: readonly SkippedChart[];
  readonly units: readonly ApplyUnit[];
}

/** Everything read, as one group on one cluster (`--cluster`, `--profile`, or one cluster for every unit). */
export function oneGroup(read: ReadTexts, clusterPath?: string): ClusterGroup {
  return { clusterPath, units: [...read.units], texts: [...read.texts], charts: [...read.charts] };
}

/**
 * The units grouped by their nearest cluster file, in the order their first unit was read. A note of no unit
 * (a Helm chart folder left out) goes with the cluster of its folder when another unit uses it, else with the
 * first group; a text of no known unit goes with the first group too.
 */
export function groupUnitsByCluster(read: ReadTexts, cwd: string): ClusterGroup[] {
  const groups = new Map<string, ClusterGroup>();
  const groupOfUnit = new Map<string, ClusterGroup>();
  const keyOf = (path: string | undefined): string => path ?? '';
  for (const unit of read.units) {
    const clusterPath = clusterOfFolder(unitFolder(lookupPathOf(unit), cwd), cwd);
    const key = keyOf(clusterPath);
    const group = groups.get(key) ?? { clusterPath, units: [], texts: [], charts: [] };
    groups.set(key, group);
    group.units.push(unit);
    groupOfUnit.set(unit.name, group);
  }
  if (groups.size === 0) {
    return [oneGroup(read)];
  }
  const first = [...groups.values()][0] as ClusterGroup;
  for (const text of read.texts) {
    (groupOfUnit.get(text.applyUnit ?? '') ?? first).texts.push(text);
  }
  for (const chart of read.charts) {
    const byUnit = chart.unit === undefined ? undefined : groupOfUnit.get(chart.unit);
    const byFolder = groups.get(keyOf(clusterOfFolder(dirname(resolve(cwd, chart.file)), cwd)));
    (byUnit ?? byFolder ?? first).charts.push(chart);
  }
  return [...groups.values()];
}

/**
 * Where a unit's cluster is looked up from: a GitOps unit's definition file (a Flux Kustomization in
 * clusters/production/ applies apps/production to the production cluster: the cluster is where it is defined),
 * else the unit itself.
 */
function lookupPathOf(unit: ApplyUnit): string {
  const definition = unit.gitops?.[0]?.definition;
  // The definition is displayed as FILE:LINE; standard input's definitions are looked up from cwd.
  return definition === undefined ? unit.name : definition.replace(/:\d+$/, '');
}

/** The folder a unit's cluster is looked up from: its folder, a named file's folder, or (standard input) cwd. */
function unitFolder(name: string, cwd: string): string {
  if (name === STDIN_NAME) {
    return resolve(cwd);
  }
  const path = resolve(cwd, name);
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat === undefined ? resolve(cwd) : stat.isDirectory() ? path : dirname(path);
}

/** The nearest cluster file of a folder, up to where a command line's search stops. */
function clusterOfFolder(folder: string, cwd: string): string | undefined {
  return nearestClusterFile(folder, clusterSearchRoot(folder, cwd));
}

/** A group's cluster as displayed: its file relative to the working directory, or the embedded default. */
export function clusterNameOf(group: ClusterGroup, cwd: string): string {
  return group.clusterPath === undefined
    ? 'embedded default cluster'
    : relative(cwd, group.clusterPath) || group.clusterPath;
}
