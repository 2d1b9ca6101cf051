/**
 * "Kube Foresight: Select Cluster" (also the status bar item's click): picks the cluster the predictions run on and
 * stores it in the `kubeForesight.cluster` workspace setting. The cluster in use comes first, marked current, with
 * why it was chosen, as the server last reported it with the status bar's text (protocol/messages.ts
 * ClusterChoice): the setting, the nearest `.foresight/cluster.yaml`, a profile, or the embedded default. Then the
 * embedded default, automatic choice, the workspace's cluster files, the profiles (real node shapes, from the
 * server), "Capture Cluster…" (trusted workspaces) and "Browse…".
 */
import * as vscode from 'vscode';
import type { ClusterChoice, ProfilesResult, StatusParams } from '../../../protocol/messages';
import { PROFILE_SETTING_PREFIX, SETTINGS_SECTION } from '../../../protocol/settings';

/** What choosing an item does. */
type PickAction = { readonly setting: string } | 'browse' | 'capture';

interface ClusterItem extends vscode.QuickPickItem {
  readonly action: PickAction;
}

/** What the picker needs from the rest of the extension. */
export interface ClusterPickerSource {
  /** What the server last reported (undefined before its first prediction, or with the server stopped). */
  readonly status: StatusParams | undefined;
  /** The profiles, from the server (undefined with the server stopped: then none are offered). */
  profiles(): Promise<ProfilesResult | undefined>;
  /** Runs "Kube Foresight: Capture Cluster". */
  capture(): Promise<void>;
}

/** The most cluster files listed from the workspace. */
const MAX_LISTED = 50;

/** The setting that names the embedded default whatever cluster files there are: it is the profile `default`. */
const EMBEDDED_SETTING = `${PROFILE_SETTING_PREFIX}default`;

/** Shows the picker and writes the setting; resolves to the chosen value, or undefined when cancelled. */
export async function selectCluster(source: ClusterPickerSource): Promise<string | undefined> {
  const [found, profiles] = await Promise.all([
    vscode.workspace.findFiles('**/.foresight/cluster.{yaml,yml}', '**/node_modules/**', MAX_LISTED),
    source.profiles(),
  ]);
  const setting = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>('cluster') ?? '';
  const current = source.status?.choice ?? choiceFromSetting(setting);
  const currentItem = itemInUse(current);
  const others: ClusterItem[] = [
    {
      label: 'Embedded default cluster',
      detail:
        'A tainted control plane, three 4-cpu, 16Gi workers, and 16-cpu nodes the cluster autoscaler adds (profile default).',
      action: { setting: EMBEDDED_SETTING },
    },
    {
      label: 'Automatic',
      detail:
        'The nearest .foresight/cluster.yaml above the file you edit, else the embedded default (the setting left empty).',
      action: { setting: '' },
    },
    ...found.map((uri) => ({
      label: vscode.workspace.asRelativePath(uri, false),
      action: { setting: vscode.workspace.asRelativePath(uri, false) },
    })),
    ...(profiles ?? [])
      .filter((profile) => profile.name !== 'default')
      .map((profile) => ({
        label: `Profile ${profile.name}`,
        detail: profile.title,
        action: { setting: `${PROFILE_SETTING_PREFIX}${profile.name}` },
      })),
    ...(vscode.workspace.isTrusted
      ? [
          {
            label: 'Capture Cluster…',
            detail: 'Capture the cluster your kubectl reaches into .foresight/cluster.yaml',
            action: 'capture' as const,
          },
        ]
      : []),
    {
      label: 'Browse…',
      detail: 'A capture, or a file of Node objects (kubectl get nodes -o yaml)',
      action: 'browse',
    },
  ];
  const items = [currentItem, ...others.filter((item) => item.label !== currentItem.label)];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Cluster for predictions',
    matchOnDetail: true,
  });
  if (picked === undefined) {
    return undefined;
  }
  if (picked.action === 'capture') {
    await source.capture();
    return undefined;
  }
  let value = picked.action === 'browse' ? undefined : picked.action.setting;
  if (value === undefined) {
    const [file] =
      (await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { 'Kubernetes YAML': ['yaml', 'yml', 'json'] },
        title: 'Cluster file',
      })) ?? [];
    if (file === undefined) {
      return undefined;
    }
    value = file.fsPath;
  }
  await vscode.workspace
    .getConfiguration(SETTINGS_SECTION)
    .update('cluster', value, vscode.ConfigurationTarget.Workspace);
  return value;
}

/** The cluster the setting names, when the server has not said which one it uses. */
function choiceFromSetting(setting: string): ClusterChoice {
  const named = setting.trim();
  if (named.startsWith(PROFILE_SETTING_PREFIX)) {
    return { reason: 'profile', profile: named.slice(PROFILE_SETTING_PREFIX.length) };
  }
  return named === '' ? { reason: 'embedded' } : { reason: 'setting', path: named };
}

/** The item of the cluster in use: marked current, saying why it is the one. */
function itemInUse(choice: ClusterChoice): ClusterItem {
  switch (choice.reason) {
    case 'setting':
    case 'nearest': {
      const label = vscode.workspace.asRelativePath(choice.path, false);
      return {
        label,
        description: 'current',
        detail:
          choice.reason === 'setting'
            ? 'In use: the setting kubeForesight.cluster names it.'
            : choice.appliedBy === undefined
              ? 'In use: the nearest .foresight/cluster.yaml above the file you edit (kubeForesight.cluster is empty).'
              : `In use: the nearest .foresight/cluster.yaml above ${choice.appliedBy}, which applies the file you edit (kubeForesight.cluster is empty).`,
        action: { setting: label },
      };
    }
    case 'profile':
      return {
        label: choice.profile === 'default' ? 'Embedded default cluster' : `Profile ${choice.profile}`,
        description: 'current',
        detail: `In use: the setting kubeForesight.cluster names it (${PROFILE_SETTING_PREFIX}${choice.profile}).`,
        action: { setting: `${PROFILE_SETTING_PREFIX}${choice.profile}` },
      };
    case 'embedded':
      return {
        label: 'Embedded default cluster',
        description: 'current',
        detail:
          choice.unusable === undefined
            ? choice.appliedBy === undefined
              ? 'In use: kubeForesight.cluster is empty and there is no .foresight/cluster.yaml above the file you edit.'
              : `In use: kubeForesight.cluster is empty and there is no .foresight/cluster.yaml above ${choice.appliedBy}, which applies the file you edit.`
            : `In use instead of ${vscode.workspace.asRelativePath(choice.unusable, false)}, which could not be used (see its problems, or the notice).`,
        action: { setting: EMBEDDED_SETTING },
      };
  }
}
