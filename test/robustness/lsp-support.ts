/**
 * Helpers for driving the bundled server in robustness tests: open without waiting, time an answer, read the
 * server's peak memory, and request hover, completion and the outline with a hang bound.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  CompletionRequest,
  ConfigurationRequest,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  HoverRequest,
  LogMessageNotification,
  MessageType,
  ShowMessageNotification,
  ShowMessageRequest,
} from 'vscode-languageserver-protocol/node';
import type { ConfigurationItem, Diagnostic, Position } from 'vscode-languageserver-protocol/node';
import { LspSession } from '../support/lsp-session';

/** The longest any single answer may take before it counts as a hang (far above real times). */
export const ANSWER_BOUND_MS = 20_000;

/** Sends didOpen without waiting for diagnostics. */
export async function sendOpen(session: LspSession, uri: string, text: string, version = 1): Promise<void> {
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'yaml', version, text },
  });
}

/** Rejects when a promise does not settle within the bound. */
export function withinBound<T>(what: string, promise: Promise<T>, boundMs = ANSWER_BOUND_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${boundMs} ms`)), boundMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Keeps the slowest answer seen, for the report. */
export class SlowestAnswer {
  ms = 0;
  what = '';

  /** Awaits a promise within the bound, recording how long it took. */
  async time<T>(what: string, promise: Promise<T>, boundMs = ANSWER_BOUND_MS): Promise<T> {
    const started = performance.now();
    const value = await withinBound(what, promise, boundMs);
    const elapsed = performance.now() - started;
    if (elapsed > this.ms) {
      this.ms = elapsed;
      this.what = what;
    }
    return value;
  }
}

/** Hover, completion and outline at a position, each answered within the bound. */
export async function askEverything(
  session: LspSession,
  uri: string,
  position: Position,
  slowest: SlowestAnswer,
): Promise<void> {
  const textDocument = { uri };
  await slowest.time('hover', session.connection.sendRequest(HoverRequest.type, { textDocument, position }));
  await slowest.time(
    'completion',
    session.connection.sendRequest(CompletionRequest.type, { textDocument, position }),
  );
  await slowest.time(
    'documentSymbol',
    session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }),
  );
}

/** The server process's peak resident memory (VmHWM) in MiB. */
export function peakMemoryMiB(session: LspSession): number {
  const status = readFileSync(`/proc/${String(session.process.pid)}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match === null ? Number.NaN : Number(match[1]) / 1024;
}

/**
 * Starts the server as a client that answers workspace/configuration: every item of every request gets
 * `answer(item)` (the raw value, garbage included, as an editor could send it).
 */
export async function startConfiguredSession(
  answer: (item: ConfigurationItem) => unknown,
): Promise<LspSession> {
  const session = await LspSession.start({ workspace: { configuration: true } });
  session.connection.onRequest(ConfigurationRequest.type, (params) =>
    params.items.map((item) => answer(item)),
  );
  return session;
}

/** Settings that turn predictions off, so that a test pins the diagnostics of validation alone. */
export const VALIDATION_ONLY_SETTINGS = { predictions: { enable: false } };

/**
 * The diagnostics of validation only: without those of predictions (placement on the simulated cluster),
 * which another part of the server adds and which these tests do not pin.
 */
export function validationOnly(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((diagnostic) => !String(diagnostic.code).startsWith('predictions-'));
}

/**
 * Collects the errors the server reports about itself (logged, or shown to the user): an unexpected error
 * caught at a handler's boundary keeps the server alive but is still a bug.
 */
export function collectServerErrors(session: LspSession): string[] {
  const errors: string[] = [];
  session.connection.onNotification(LogMessageNotification.type, (params) => {
    if (params.type === MessageType.Error) {
      errors.push(params.message);
    }
  });
  session.connection.onNotification(ShowMessageNotification.type, (params) => {
    if (params.type === MessageType.Error) {
      errors.push(params.message);
    }
  });
  session.connection.onRequest(ShowMessageRequest.type, (params) => {
    if (params.type === MessageType.Error) {
      errors.push(params.message);
    }
    return null;
  });
  return errors;
}

/** The position of an offset in a text (UTF-16 units, as LSP counts). */
export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split(/\r\n|\r|\n/).length - 1;
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return { line, character: offset - lineStart };
}

/**
 * Stops a session, killing the server if it does not answer the shutdown request in time: a server stuck in
 * a loop (the bug a failing test has just shown) must not hang the test run as well.
 */
export async function stopWithin(session: LspSession, boundMs = 5_000): Promise<void> {
  try {
    await withinBound('shutdown', session.stop(), boundMs);
  } catch {
    session.connection.dispose();
    session.process.kill('SIGKILL');
  }
}
