/**
 * Starts, stops and restarts the language server (dist/server.js over IPC), and keeps the status-bar item
 * naming the Kubernetes version and the cluster in use.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import { LanguageClient, TransportKind } from 'vscode-languageclient/node';
import type { StatusParams } from '../../protocol/messages';
import { STATUS_NOTIFICATION } from '../../protocol/messages';
import { SETTINGS_SECTION, withVersionSetFlags } from '../../protocol/settings';
import { SERVER_NODE_FLAGS } from '../../protocol/server-process';
import { readSettings } from './config';

/** The language client and the status-bar item, started together. */
export class ForesightLanguageClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly statusItem: vscode.StatusBarItem;
  private lastStatus: StatusParams | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.OutputChannel,
  ) {
    this.statusItem = vscode.window.createStatusBarItem(
      'kubeForesight.status',
      vscode.StatusBarAlignment.Right,
      100,
    );
    this.statusItem.name = 'Kube Foresight';
    this.statusItem.command = 'kubeForesight.selectCluster';
    this.showStatus(
      { kubernetesVersion: readSettings().kubernetesVersion, cluster: 'embedded default' },
      false,
    );
  }

  /** What the server last said of the version and the cluster in use (undefined before it said anything). */
  get status(): StatusParams | undefined {
    return this.lastStatus;
  }

  /** Whether the server is running. */
  get isRunning(): boolean {
    return this.client?.isRunning() ?? false;
  }

  /** Starts the server. */
  async start(): Promise<void> {
    const serverModule = this.context.asAbsolutePath(path.join('dist', 'server.js'));
    const serverOptions: ServerOptions = {
      run: {
        module: serverModule,
        transport: TransportKind.ipc,
        options: { execArgv: [...SERVER_NODE_FLAGS] },
      },
      debug: {
        module: serverModule,
        transport: TransportKind.ipc,
        options: { execArgv: [...SERVER_NODE_FLAGS, '--nolazy', '--inspect=6009'] },
      },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'yaml' },
        { scheme: 'untitled', language: 'yaml' },
        { scheme: 'file', language: 'json', pattern: '**/*.json' },
      ],
      synchronize: { configurationSection: SETTINGS_SECTION },
      // Untrusted workspaces: the server reads no file beyond the open documents (no folder scan, no cluster file).
      initializationOptions: { workspaceTrusted: vscode.workspace.isTrusted },
      outputChannel: this.output,
      middleware: {
        workspace: {
          // The server follows the CLI: a capture's own Kubernetes version applies unless the user set one, which
          // only the client can tell from a default (protocol/settings.ts withVersionSetFlags).
          configuration: async (params, token, next) =>
            withVersionSetFlags(params.items, await next(params, token), isKubernetesVersionSet) as Awaited<
              ReturnType<typeof next>
            >,
        },
      },
    };
    const client = new LanguageClient('kubeForesight', 'Kube Foresight', serverOptions, clientOptions);
    this.client = client;
    await client.start();
    this.context.subscriptions.push(
      client.onNotification(STATUS_NOTIFICATION, (params: StatusParams) => this.showStatus(params)),
    );
  }

  /** Sends a custom request (declared in protocol/messages.ts); undefined when the server is not running. */
  async sendRequest<R>(method: string, params: unknown): Promise<R | undefined> {
    const client = this.client;
    if (client === undefined || !client.isRunning()) {
      return undefined;
    }
    return client.sendRequest<R>(method, params);
  }

  /** Sends a custom notification (declared in protocol/messages.ts); nothing when the server is not running. */
  async sendNotification(method: string): Promise<void> {
    const client = this.client;
    if (client !== undefined && client.isRunning()) {
      await client.sendNotification(method);
    }
  }

  /** Stops the server if it runs. */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client?.isRunning()) {
      await client.stop();
    }
  }

  /** Stops and starts the server. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Disposes the status-bar item (the client is stopped in deactivate). */
  dispose(): void {
    this.statusItem.dispose();
  }

  private showStatus(status: StatusParams, fromServer = true): void {
    if (fromServer) {
      this.lastStatus = status;
    }
    this.statusItem.text = `$(pulse) K8s ${status.kubernetesVersion} · ${status.cluster}`;
    this.statusItem.tooltip = `Kube Foresight: Kubernetes ${status.kubernetesVersion} schemas, cluster: ${status.cluster}`;
    this.statusItem.show();
  }
}

/** Whether the user set kubeForesight.kubernetesVersion anywhere that applies to a scope (not its default). */
function isKubernetesVersionSet(scopeUri: string | undefined): boolean {
  const scope = scopeUri === undefined ? undefined : vscode.Uri.parse(scopeUri);
  const inspected = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope).inspect('kubernetesVersion');
  return [
    inspected?.globalValue,
    inspected?.workspaceValue,
    inspected?.workspaceFolderValue,
    inspected?.globalLanguageValue,
    inspected?.workspaceLanguageValue,
    inspected?.workspaceFolderLanguageValue,
  ].some((value) => value !== undefined);
}
