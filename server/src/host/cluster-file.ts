/**
 * Which cluster a simulation uses: the `kubeForesight.cluster` setting (a path, relative to the analysed folder,
 * or `profile:NAME`), else the nearest `.foresight/cluster.yaml` at or above it, else the embedded default
 * cluster. chooseCluster also says why, for the status bar and the cluster picker.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { ClusterChoice, ProfilesResult } from '../../../protocol/messages';
import { CLUSTER_PROFILES } from '../language/service';
import { PROFILE_SETTING_PREFIX } from '../../../protocol/settings';
import { nearestClusterFile } from '../files/cluster-files';

/** The cluster file for a folder, or undefined for the embedded default cluster (or a profile). */
export function findClusterFile(folder: string, setting: string, stopAt?: string): string | undefined {
  const choice = chooseCluster(folder, setting, stopAt);
  return choice.reason === 'setting' || choice.reason === 'nearest' ? choice.path : undefined;
}

/** The cluster for a folder and why: the setting's file or profile, the nearest cluster file, or the default. */
export function chooseCluster(folder: string, setting: string, stopAt?: string): ClusterChoice {
  const named = setting.trim();
  if (named.startsWith(PROFILE_SETTING_PREFIX)) {
    return { reason: 'profile', profile: named.slice(PROFILE_SETTING_PREFIX.length).trim() };
  }
  if (named !== '') {
    const file = isAbsolute(named) ? named : resolve(folder, named);
    return statSync(file, { throwIfNoEntry: false })?.isFile() === true
      ? { reason: 'setting', path: file }
      : { reason: 'embedded', unusable: file };
  }
  const nearest = nearestClusterFile(folder, stopAt);
  return nearest === undefined ? { reason: 'embedded' } : { reason: 'nearest', path: nearest };
}

/**
 * The cluster setting as a path: a relative path is relative to the workspace folder that holds the analysed
 * folder (the Select Cluster command writes it that way), else to the analysed folder. A profile, an absolute
 * path or an empty setting is returned as it is.
 */
export function resolveClusterSetting(
  folder: string,
  setting: string,
  workspaceRoots: readonly string[],
): string {
  if (setting.trim() === '' || isAbsolute(setting) || setting.trim().startsWith(PROFILE_SETTING_PREFIX)) {
    return setting;
  }
  const root = workspaceRoots.find((candidate) => folder === candidate || folder.startsWith(`${candidate}/`));
  return root === undefined ? setting : resolve(root, setting);
}

/** The profiles the cluster picker offers (PROFILES_REQUEST): each name with its one line. */
export function profileSummaries(): ProfilesResult {
  return CLUSTER_PROFILES.map((profile) => ({ name: profile.name, title: profile.title }));
}
