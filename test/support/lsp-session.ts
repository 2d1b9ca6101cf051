/**
 * A minimal LSP client for tests: starts `node dist/server.js --stdio` as an editor would and speaks LSP to it
 * through vscode-languageserver-protocol. Waits on notifications, never on sleeps.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import type {
  CodeAction,
  Command,
  Diagnostic,
  ProtocolConnection,
  PublishDiagnosticsParams,
  TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';

/** The bundled server, built by `npm run build`. */
export const SERVER_PATH = join(__dirname, '..', '..', 'dist', 'server.js');

/** A running server and a connection to it. */
export class LspSession {
  private readonly waiters: {
    uri: string;
    version: number | undefined;
    resolve: (d: Diagnostic[]) => void;
  }[] = [];
  private readonly latest = new Map<string, PublishDiagnosticsParams>();
  readonly stderr: string[] = [];
  /** Every publish of diagnostics received, in order. */
  readonly publishes: PublishDiagnosticsParams[] = [];

  private constructor(
    readonly process: ChildProcess,
    readonly connection: ProtocolConnection,
  ) {
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.latest.set(params.uri, params);
      this.publishes.push(params);
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const waiter = this.waiters[i];
        if (
          waiter !== undefined &&
          waiter.uri === params.uri &&
          (waiter.version === undefined || waiter.version === params.version)
        ) {
          this.waiters.splice(i, 1);
          waiter.resolve(params.diagnostics);
        }
      }
    });
  }

  /**
   * Starts the server and completes the initialize handshake; `options` adds initialization options (such as
   * `workspaceTrusted`), workspace folders (paths) and the server's environment.
   */
  static async start(
    initializationCapabilities: Record<string, unknown> = {},
    options: {
      initializationOptions?: Record<string, unknown>;
      workspaceFolders?: readonly string[];
      env?: NodeJS.ProcessEnv;
    } = {},
  ): Promise<LspSession> {
    const child = spawn(process.execPath, [SERVER_PATH, '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    if (!child.stdout || !child.stdin) {
      throw new Error('the server process has no stdio');
    }
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const session = new LspSession(child, connection);
    child.stderr?.on('data', (chunk: Buffer) => session.stderr.push(chunk.toString()));
    connection.listen();
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: {
        textDocument: { publishDiagnostics: { versionSupport: true } },
        ...initializationCapabilities,
      },
      workspaceFolders:
        options.workspaceFolders?.map((folder) => ({ uri: pathToFileURL(folder).href, name: folder })) ??
        null,
      ...(options.initializationOptions === undefined
        ? {}
        : { initializationOptions: options.initializationOptions }),
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return session;
  }

  /** Resolves with the diagnostics published for a document version (or the next publish when no version). */
  diagnostics(uri: string, version?: number, timeoutMs = 20_000): Promise<Diagnostic[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no diagnostics for ${uri} v${String(version)} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        uri,
        version,
        resolve: (diagnostics) => {
          clearTimeout(timer);
          resolve(diagnostics);
        },
      });
    });
  }

  /**
   * Resolves with the first diagnostics published for a document (the last already published included) that
   * satisfy `accept`: for results that arrive in a later publish, such as rendered kustomize overlays.
   */
  async diagnosticsWhere(
    uri: string,
    accept: (diagnostics: readonly Diagnostic[]) => boolean,
    timeoutMs = 20_000,
  ): Promise<Diagnostic[]> {
    const last = this.latest.get(uri)?.diagnostics;
    if (last !== undefined && accept(last)) {
      return last;
    }
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const next = await this.diagnostics(uri, undefined, Math.max(1, deadline - Date.now()));
      if (accept(next)) {
        return next;
      }
    }
  }

  /** The diagnostics last published for a document, if any. */
  lastDiagnostics(uri: string): Diagnostic[] | undefined {
    return this.latest.get(uri)?.diagnostics;
  }

  /** Opens a document and resolves with its first diagnostics. */
  async open(
    uri: string,
    text: string,
    languageId = 'yaml',
    version = 1,
    timeoutMs?: number,
  ): Promise<Diagnostic[]> {
    const published = this.diagnostics(uri, version, timeoutMs);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version, text },
    });
    return published;
  }

  /**
   * Writes a file into a folder (the server simulates the file's folder with it), opens it, and resolves with its
   * URI and first diagnostics.
   */
  async openFile(
    folder: string,
    name: string,
    text: string,
  ): Promise<{ uri: string; diagnostics: Diagnostic[] }> {
    writeFileSync(join(folder, name), text);
    const uri = pathToFileURL(join(folder, name)).href;
    return { uri, diagnostics: await this.open(uri, text) };
  }

  /** Sends incremental (or full) changes and resolves with the diagnostics of the new version. */
  async change(
    uri: string,
    version: number,
    changes: TextDocumentContentChangeEvent[],
  ): Promise<Diagnostic[]> {
    const published = this.diagnostics(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: changes,
    });
    return published;
  }

  /** Sends changes without waiting for diagnostics (to type faster than validation runs). */
  async notifyChange(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): Promise<void> {
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: changes,
    });
  }

  /** Closes a document. */
  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** The code actions the server offers for one of a document's diagnostics, at its range. */
  async codeActionsFor(uri: string, diagnostic: Diagnostic): Promise<(Command | CodeAction)[]> {
    const actions = await this.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    return actions ?? [];
  }

  /** The quick fixes (code actions with an edit) the server offers for one of a document's diagnostics. */
  async fixesFor(uri: string, diagnostic: Diagnostic): Promise<CodeAction[]> {
    return (await this.codeActionsFor(uri, diagnostic)).filter((item): item is CodeAction => 'edit' in item);
  }

  /** Whether the server process is still alive. */
  get isAlive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Shuts the server down politely, then makes sure it is gone. */
  async stop(): Promise<void> {
    if (this.isAlive) {
      try {
        await this.connection.sendRequest(ShutdownRequest.type);
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        // the process is going away; nothing to do
      }
    }
    this.connection.dispose();
    this.process.kill();
  }
}
