/**
 * Activation and deactivation only: wires the output channel, the language client and the command table.
 */
import * as vscode from 'vscode';
import { buildCommandTable } from './commands/command-table';
import { ForesightLanguageClient } from './language-client';

let client: ForesightLanguageClient | undefined;

/** Starts the language server and registers the commands. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Kube Foresight');
  context.subscriptions.push(output);
  try {
    const languageClient = new ForesightLanguageClient(context, output);
    client = languageClient;
    context.subscriptions.push(languageClient);
    for (const command of buildCommandTable(languageClient, output)) {
      context.subscriptions.push(
        vscode.commands.registerCommand(command.id, async () => {
          try {
            await command.run(languageClient.isRunning);
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
