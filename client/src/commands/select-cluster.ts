/**
 * "Kube Foresight: Select Cluster": picks the cluster the predictions run on — the embedded default, a
 * `.foresight/cluster.yaml` found in the workspace, or any YAML file (for example the output of
 * `kubectl get nodes -o yaml`) — and stores it in the `kubeForesight.cluster` workspace setting.
 */
import * as vscode from 'vscode';
import { SETTINGS_SECTION } from '../../../protocol/settings';

interface ClusterChoice extends vscode.QuickPickItem {
  /** The setting's new value: '' for the embedded default, a path, or undefined to browse. */
  readonly value: string | undefined;
}

/** The most cluster files listed from the workspace. */
const MAX_LISTED = 50;

/** Shows the picker and writes the setting; resolves to the chosen value, or undefined when cancelled. */
export async function selectCluster(): Promise<string | undefined> {
  const found = await vscode.workspace.findFiles(
    '**/.foresight/cluster.{yaml,yml}',
    '**/node_modules/**',
    MAX_LISTED,
  );
  const current = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>('cluster') ?? '';
  const choices: ClusterChoice[] = [
    {
      label: 'Embedded default cluster',
      description: current === '' ? 'current' : undefined,
      detail: 'One tainted control-plane node and three 4-cpu, 16Gi workers in zone-a, zone-b and zone-c.',
      value: '',
    },
    ...found.map((uri) => {
      const path = vscode.workspace.asRelativePath(uri, false);
      return {
        label: path,
        description: current === path || current === uri.fsPath ? 'current' : undefined,
        value: path,
      };
    }),
    {
      label: 'Browse…',
      detail: 'A file with Node objects, e.g. the output of kubectl get nodes -o yaml',
      value: undefined,
    },
  ];
  const picked = await vscode.window.showQuickPick(choices, {
    title: 'Cluster for predictions',
    matchOnDetail: true,
  });
  if (picked === undefined) {
    return undefined;
  }
  let value = picked.value;
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
