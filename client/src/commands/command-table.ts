/**
 * The command table: what each command does with the server running and with it stopped. Every command of
 * the manifest is here, under the category "Kube Foresight".
 */
import { readPanelWorkload } from '../../../protocol/webview-messages';
import * as vscode from 'vscode';
import type { ForesightLanguageClient } from '../language-client';
import type { TimelinePanels } from '../panel/timeline-panels';
import type { PlanPanels } from '../panel/plan-panels';
import { CLUSTER_WRITTEN_NOTIFICATION, PROFILES_REQUEST } from '../../../protocol/messages';
import type { ProfilesResult } from '../../../protocol/messages';
import { captureCluster } from './capture-cluster';
import { selectCluster } from './select-cluster';

/** One command: its id and what it does. */
interface CommandEntry {
  readonly id: string;
  /** Runs the command; `isServerRunning` tells which behaviour applies; `args` come from the caller (a lens). */
  run(isServerRunning: boolean, args: readonly unknown[]): Promise<void> | void;
}

/** A manifest URI passed as a command argument, when it is one. */
function manifestArgument(value: unknown): vscode.Uri | undefined {
  if (typeof value !== 'string' || !value.startsWith('file:')) {
    return undefined;
  }
  try {
    return vscode.Uri.parse(value, true);
  } catch {
    return undefined;
  }
}

/** Builds the command table. */
export function buildCommandTable(
  client: ForesightLanguageClient,
  output: vscode.OutputChannel,
  timeline: Pick<TimelinePanels, 'show'>,
  cliPath: string,
  plans: Pick<PlanPanels, 'show'>,
): CommandEntry[] {
  const capture = (): Promise<void> =>
    captureCluster({
      cliPath,
      output,
      written: () => client.sendNotification(CLUSTER_WRITTEN_NOTIFICATION),
    });
  return [
    {
      id: 'kubeForesight.restartServer',
      // Running: restart it. Stopped: start it.
      run: async (isServerRunning) => {
        if (isServerRunning) {
          await client.restart();
        } else {
          await client.start();
        }
      },
    },
    {
      id: 'kubeForesight.showOutput',
      // The same either way: the output channel outlives the server.
      run: () => output.show(true),
    },
    {
      id: 'kubeForesight.selectCluster',
      // It writes the kubeForesight.cluster setting, which a running server reads. Running: the cluster in use is
      // the one the server reported, and the profiles come from it. Stopped: the setting says which is current,
      // and no profile is offered.
      run: async () => {
        await selectCluster({
          status: client.isRunning ? client.status : undefined,
          profiles: () => client.sendRequest<ProfilesResult>(PROFILES_REQUEST, {}),
          capture,
        });
      },
    },
    {
      id: 'kubeForesight.captureCluster',
      // The same either way: it runs the CLI, not the server; a running server sees the new cluster file on the
      // next analysis. Trusted workspaces only (package.json's enablement, and checked again).
      run: () => capture(),
    },
    {
      id: 'kubeForesight.showTimeline',
      // The same either way: the panel opens (or comes to the front); with the server stopped it says so and
      // offers to simulate again once it runs. The Replay code lens passes the manifest's URI (untrusted: only a
      // file URI string is taken).
      run: (_isServerRunning, args) => timeline.show(manifestArgument(args[0]), readPanelWorkload(args[1])),
    },
    {
      id: 'kubeForesight.previewApply',
      // The same either way: the panel opens (or comes to the front) on the active manifest's folder; with the
      // server stopped it says so, as the timeline does.
      run: () => plans.show(),
    },
  ];
}
