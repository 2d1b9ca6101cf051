/**
 * Starts `foresight validate`'s threads and talks to them: `ask` sends every thread a request and waits until
 * each has answered; `askThread` sends one thread one request, and a thread may hold several at once (it answers
 * them in order), so that it has the next file at hand when it finishes one. This thread takes a share too
 * (through a queue of its own, so that it answers like a worker): on 2 cores, 1 worker and this thread analyse at
 * once, and only one more thread loads the bundle, the schemas and its compiled validators. A worker that fails,
 * crashes or exits before answering rejects its requests with a message that names it; the caller then ends
 * every worker (no hang, no orphan).
 */
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { runValidateWorker } from './validate-worker';
import type { LanguageService } from '../../language/service';
import type { FromWorker, ToWorker, ValidateWorkerData } from './worker-messages';

/** Running threads. */
export interface WorkerPool {
  readonly size: number;
  /** Sends each thread its request (undefined: none) and resolves to the answers, by thread. */
  ask(requests: readonly (ToWorker | undefined)[]): Promise<(FromWorker | undefined)[]>;
  /** Sends thread `index` a request (after any it holds) and resolves to its answer. */
  askThread(index: number, request: ToWorker): Promise<FromWorker>;
  /** Ends every worker. */
  close(): Promise<void>;
}

/** What the pool needs of a thread. */
interface Peer {
  readonly name: string;
  send(request: ToWorker): void;
  /** Listens for the answer, a failure or an exit; returns how to stop listening. */
  listen(
    onMessage: (message: FromWorker) => void,
    onError: (error: unknown) => void,
    onExit: (code: number) => void,
  ): () => void;
  end(): Promise<void>;
}

/**
 * Runs `size` threads: this one and `size - 1` workers running `script` (the CLI bundle, which runs a worker when
 * started as one).
 */
export function startWorkerPool(
  script: string,
  size: number,
  data: ValidateWorkerData,
  service: LanguageService,
): WorkerPool {
  const peers = [
    thisThread(data, service),
    ...Array.from({ length: size - 1 }, (_, index) => workerThread(script, data, index + 1)),
  ].map(asking);
  return {
    size,
    ask: (requests) =>
      Promise.all(
        peers.map((ask, index) => {
          const request = requests[index];
          return request === undefined ? Promise.resolve(undefined) : ask(request);
        }),
      ),
    askThread: (index, request) => {
      const ask = peers[index];
      return ask === undefined ? Promise.reject(new Error(`internal: no thread ${index}`)) : ask(request);
    },
    close: async () => {
      await Promise.all(peers.map((ask) => ask.end()));
    },
  };
}

/**
 * This thread as a peer: each request runs in a task of its own (setImmediate, as a message would arrive), so
 * the workers' answers are read between files, and requests and answers are passed as they are: copying them
 * (a message channel's structured clone) cost this thread, the busiest, a clone and a parse of half the outlines.
 */
function thisThread(data: ValidateWorkerData, service: LanguageService): Peer {
  const requests = new EventEmitter();
  const answers = new EventEmitter();
  let ended = false;
  runValidateWorker(
    {
      on: (event, listener) => requests.on(event, listener),
      postMessage: (message) => answers.emit('message', message),
    },
    data,
    service,
  );
  return {
    name: 'the main thread',
    send: (request) =>
      setImmediate(() => {
        if (!ended) {
          requests.emit('message', request);
        }
      }),
    listen: (onMessage) => {
      answers.on('message', onMessage);
      return () => answers.off('message', onMessage);
    },
    end: () => {
      ended = true;
      requests.removeAllListeners();
      answers.removeAllListeners();
      return Promise.resolve();
    },
  };
}

function workerThread(script: string, data: ValidateWorkerData, number: number): Peer {
  const worker = new Worker(script, { workerData: data });
  return {
    name: `validate worker thread ${number}`,
    send: (request) => worker.postMessage(request),
    listen: (onMessage, onError, onExit) => {
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      return () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
    },
    end: async () => {
      await worker.terminate();
    },
  };
}

/** A thread's requests in flight, answered in the order they were sent (each port keeps its messages' order). */
interface Pending {
  readonly type: ToWorker['type'];
  readonly resolve: (message: FromWorker) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Asks a thread: one listener for the thread's life matches each answer to the oldest request in flight; a
 * failure, error or exit rejects every request in flight.
 */
function asking(peer: Peer): ((request: ToWorker) => Promise<FromWorker>) & { end: () => Promise<void> } {
  const pending: Pending[] = [];
  const failAll = (reason: (request: Pending) => string): void => {
    for (const request of pending.splice(0)) {
      request.reject(new Error(reason(request)));
    }
  };
  let stop: (() => void) | undefined;
  const listen = (): void => {
    stop ??= peer.listen(
      (message) => {
        if (message.type === 'failed') {
          failAll(() => `${peer.name} failed ${message.message}`);
        } else {
          pending.shift()?.resolve(message);
        }
      },
      (error) => {
        const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
        failAll(() => `${peer.name} failed: ${reason}`);
      },
      (code) =>
        failAll(
          (request) => `${peer.name} exited (code ${code}) before answering its ${request.type} request`,
        ),
    );
  };
  const ask = (request: ToWorker): Promise<FromWorker> =>
    new Promise((resolve, reject) => {
      listen();
      pending.push({ type: request.type, resolve, reject });
      peer.send(request);
    });
  return Object.assign(ask, {
    end: async () => {
      stop?.();
      await peer.end();
    },
  });
}
