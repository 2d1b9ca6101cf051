/**
 * A benchmark LSP client that can drive any language server over stdio, as an editor does: it answers the
 * server's requests (workspace/configuration and any custom ones the server's editor integration answers),
 * timestamps every diagnostics notification when it arrives, and reads the server's peak resident memory.
 * Waits on notifications, never on sleeps.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import type {
  ClientCapabilities,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Position,
  ProtocolConnection,
  PublishDiagnosticsParams,
  SymbolInformation,
  TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { readCpuMs, readPeakResidentBytes } from './process-stats';

/** How long a server may take to exit after the exit notification before it is killed. */
const EXIT_GRACE_MS = 5_000;

/** Requests from a server that an editor answers with an empty result, as far as a benchmark is concerned. */
const ACKNOWLEDGED_REQUESTS = [
  'client/registerCapability',
  'client/unregisterCapability',
  'window/workDoneProgress/create',
  'window/showMessageRequest',
  'workspace/codeLens/refresh',
  'workspace/diagnostic/refresh',
];

/** How to start a server and what its editor integration answers. */
export interface ServerLaunch {
  /** The program and its arguments (the program is usually `process.execPath`). */
  readonly command: string;
  readonly args: readonly string[];
  /** Capabilities declared in initialize, beyond publishDiagnostics. */
  readonly capabilities: ClientCapabilities;
  /** initializationOptions sent with initialize. */
  readonly initializationOptions?: unknown;
  /** The answer to one workspace/configuration item (a section, optionally scoped to a document). */
  readonly configuration: (section: string | undefined, scopeUri: string | undefined) => unknown;
  /** Answers to other requests the server sends, by method. */
  readonly requests?: Readonly<Record<string, (params: unknown) => unknown>>;
  /** Notifications sent right after `initialized`, as the editor integration sends them. */
  readonly notificationsAfterInitialized?: readonly string[];
}

/** Diagnostics as received, with the moment they arrived. */
export interface ReceivedDiagnostics {
  readonly params: PublishDiagnosticsParams;
  readonly receivedAt: number;
}

interface DiagnosticsWaiter {
  readonly uri: string;
  readonly accepts: (diagnostics: readonly Diagnostic[]) => boolean;
  readonly resolve: (received: ReceivedDiagnostics) => void;
}

/** One running server and the connection to it. */
export class BenchLspClient {
  private readonly waiters: DiagnosticsWaiter[] = [];
  /** When diagnostics were last published, per document. */
  private readonly lastPublishAt = new Map<string, number>();
  /** How many times diagnostics were published, per document and version ("uri#version"). */
  private readonly publishCounts = new Map<string, number>();
  /** Requests the server sent, counted by method. */
  readonly serverRequests = new Map<string, number>();
  /** The server's stderr and window/logMessage output, for the report when something goes wrong. */
  readonly log: string[] = [];

  private constructor(
    readonly child: ChildProcess,
    readonly connection: ProtocolConnection,
  ) {
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const receivedAt = performance.now();
      this.lastPublishAt.set(params.uri, receivedAt);
      const counted = `${params.uri}#${String(params.version)}`;
      this.publishCounts.set(counted, (this.publishCounts.get(counted) ?? 0) + 1);
      for (let i = 0; i < this.waiters.length; i++) {
        const waiter = this.waiters[i];
        if (waiter !== undefined && waiter.uri === params.uri && waiter.accepts(params.diagnostics)) {
          this.waiters.splice(i, 1);
          waiter.resolve({ params, receivedAt });
          return;
        }
      }
    });
    connection.onNotification('window/logMessage', (params: { message?: unknown }) => {
      this.log.push(String(params.message));
    });
  }

  /** Starts the server and completes the handshake; resolves with the client and the initialize round trip. */
  static async start(
    launch: ServerLaunch,
    rootPath: string,
  ): Promise<{ client: BenchLspClient; spawnToInitializedMs: number }> {
    const started = performance.now();
    const child = spawn(launch.command, [...launch.args], { stdio: ['pipe', 'pipe', 'pipe'] });
    if (child.stdout === null || child.stdin === null) {
      throw new Error('the server process has no stdio');
    }
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const client = new BenchLspClient(child, connection);
    child.stderr?.on('data', (chunk: Buffer) => client.log.push(chunk.toString()));
    client.answerRequests(launch);
    connection.listen();
    const rootUri = `file://${rootPath}`;
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      capabilities: {
        ...launch.capabilities,
        textDocument: {
          ...launch.capabilities.textDocument,
          publishDiagnostics: { versionSupport: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        },
      },
      initializationOptions: launch.initializationOptions,
      workspaceFolders: [{ uri: rootUri, name: 'bench' }],
    });
    await connection.sendNotification(InitializedNotification.type, {});
    for (const method of launch.notificationsAfterInitialized ?? []) {
      await connection.sendNotification(method);
    }
    return { client, spawnToInitializedMs: performance.now() - started };
  }

  private answerRequests(launch: ServerLaunch): void {
    const count = (method: string): void => {
      this.serverRequests.set(method, (this.serverRequests.get(method) ?? 0) + 1);
    };
    this.connection.onRequest('workspace/configuration', (params: { items?: unknown }) => {
      count('workspace/configuration');
      const items = Array.isArray(params.items)
        ? (params.items as { section?: string; scopeUri?: string }[])
        : [];
      return items.map((item) => launch.configuration(item.section, item.scopeUri));
    });
    for (const [method, answer] of Object.entries(launch.requests ?? {})) {
      this.connection.onRequest(method, (params: unknown) => {
        count(method);
        return answer(params);
      });
    }
    for (const method of ACKNOWLEDGED_REQUESTS) {
      this.connection.onRequest(method, () => {
        count(method);
        return null;
      });
    }
  }

  /**
   * Resolves, once no diagnostics have been published for `uri` for `quietMs`, with when the last one arrived:
   * the time a server's diagnostics settle (ours publishes validation first and predictions after it).
   */
  async settled(uri: string, quietMs: number, since: number): Promise<number> {
    return this.settledAfter(uri, quietMs, since, null);
  }

  /**
   * settled, once at least `publishes.count` publishes of `publishes.version` have arrived (within `timeoutMs`):
   * a server that publishes a version twice (ours: validation, then predictions) settles on the second even when
   * the simulation takes longer than `quietMs` after the first, as on a busy machine.
   */
  async settledAfter(
    uri: string,
    quietMs: number,
    since: number,
    publishes: { readonly version: number; readonly count: number; readonly timeoutMs: number } | null,
  ): Promise<number> {
    // A count of one is the publish the caller already awaited (yaml-language-server's carry no version).
    if (publishes !== null && publishes.count > 1) {
      const key = `${uri}#${String(publishes.version)}`;
      const deadline = performance.now() + publishes.timeoutMs;
      while ((this.publishCounts.get(key) ?? 0) < publishes.count) {
        if (performance.now() > deadline) {
          throw new Error(
            `${uri} version ${String(publishes.version)}: ${String(this.publishCounts.get(key) ?? 0)} of ${String(publishes.count)} publishes within ${String(publishes.timeoutMs)} ms`,
          );
        }
        // Polling costs no accuracy: the answer is when the last publish arrived, not when this loop saw it.
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    return this.quietAfter(uri, quietMs, since);
  }

  private async quietAfter(uri: string, quietMs: number, since: number): Promise<number> {
    for (;;) {
      const last = this.lastPublishAt.get(uri) ?? since;
      const wait = last + quietMs - performance.now();
      if (wait <= 0) {
        return Math.max(last, since);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Resolves with the next diagnostics published for `uri` that `accepts` takes. */
  diagnostics(
    uri: string,
    accepts: (diagnostics: readonly Diagnostic[]) => boolean,
    timeoutMs: number,
  ): Promise<ReceivedDiagnostics> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) {
          this.waiters.splice(index, 1);
        }
        reject(new Error(`no matching diagnostics for ${uri} within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: DiagnosticsWaiter = {
        uri,
        accepts,
        resolve: (received) => {
          clearTimeout(timer);
          resolve(received);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Sends didOpen. */
  async open(uri: string, text: string, version: number): Promise<void> {
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'yaml', version, text },
    });
  }

  /** Sends one incremental didChange. */
  async change(uri: string, version: number, change: TextDocumentContentChangeEvent): Promise<void> {
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [change],
    });
  }

  /** Sends didClose. */
  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** Asks for the hover at a position. */
  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  /** Asks for the document's symbols. */
  documentSymbols(uri: string): Promise<DocumentSymbol[] | SymbolInformation[] | null> {
    return this.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
  }

  /** The server's peak resident memory so far (VmHWM), in bytes. */
  peakResidentBytes(): number {
    return this.child.pid === undefined ? NaN : readPeakResidentBytes(this.child.pid);
  }

  /** The CPU time the server has used so far, in ms (to 10 ms). */
  cpuMs(): number {
    return this.child.pid === undefined ? NaN : readCpuMs(this.child.pid);
  }

  /** Shuts the server down politely, then makes sure it is gone. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      try {
        await this.connection.sendRequest(ShutdownRequest.type);
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        // the process is going away; nothing to do
      }
    }
    const exited = new Promise<void>((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        resolve();
        return;
      }
      const timer = setTimeout(resolve, EXIT_GRACE_MS);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await exited;
    this.connection.dispose();
    this.child.kill();
  }
}
