/**
 * Activation and deactivation only: wires the output channel, the language client and the command table.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { buildCommandTable } from './commands/command-table';
import { ForesightLanguageClient } from './language-client';
import { TimelinePanels } from './panel/timeline-panels';
import { PlanPanels } from './panel/plan-panels';
import type { PlanParams, PlanResult, SimulationParams, SimulationResult } from '../../protocol/messages';
import { PLAN_REQUEST, SIMULATION_REQUEST } from '../../protocol/messages';

let client: ForesightLanguageClient | undefined;

/** Starts the language server and registers the commands. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Kube Foresight');
  context.subscriptions.push(output);
  try {
    const languageClient = new ForesightLanguageClient(context, output);
    client = languageClient;
    context.subscriptions.push(languageClient);
    const timeline = new TimelinePanels({
      extensionUri: context.extensionUri,
      output,
      source: {
        simulate: (uri) =>
          languageClient.sendRequest<SimulationResult>(SIMULATION_REQUEST, {
            uri,
          } satisfies SimulationParams),
      },
    });
    context.subscriptions.push(timeline, timeline.register());
    const plans = new PlanPanels({
      extensionUri: context.extensionUri,
      output,
      plan: (uri) => languageClient.sendRequest<PlanResult>(PLAN_REQUEST, { uri } satisfies PlanParams),
      openTimeline: (folder) => timeline.showFolder(folder),
    });
    context.subscriptions.push(plans, plans.register());
    const cliPath = context.asAbsolutePath(join('dist', 'cli.js'));
    for (const command of buildCommandTable(languageClient, output, timeline, cliPath, plans)) {
      context.subscriptions.push(
        vscode.commands.registerCommand(command.id, async (...args: unknown[]) => {
          try {
            await command.run(languageClient.isRunning, args);
          } catch (error: unknown) {
            output.appendLine(
              `Command ${command.id} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
            );
            void vscode.window.showErrorMessage(
              `Kube Foresight: ${command.id} failed; see the output for details.`,
            );
          }
        }),
      );
    }
    await languageClient.start();
    // Trust granted: restart so the server may read the folder's other manifests and the cluster file.
    context.subscriptions.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        languageClient.restart().catch((error: unknown) => {
          output.appendLine(
            `Restart after trust failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
        });
      }),
    );
  } catch (error: unknown) {
    output.appendLine(
      `Activation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    void vscode.window.showErrorMessage(
      'Kube Foresight could not start; see the "Kube Foresight" output for details.',
    );
    throw error;
  }
}

/** Stops the language server. */
export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
