/**
 * Starts `foresight validate`'s threads and talks to them one request at a time: every thread gets a request,
 * and the pool waits until each has answered. This thread takes a share too (through a message channel, so that
 * it answers like a worker): on 2 cores, 1 worker and this thread analyse at once, and only one more thread loads
 * the bundle, the schemas and its compiled validators. A worker that fails, crashes or exits before answering
 * rejects the request with a message that names it; the caller then ends every worker (no hang, no orphan).
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { runValidateWorker } from './validate-worker';
import type { FromWorker, ToWorker, ValidateWorkerData } from './worker-messages';

/** Running threads. */
export interface WorkerPool {
  readonly size: number;
  /** Sends each thread its request (undefined: none) and resolves to the answers, by thread. */
  ask(requests: readonly (ToWorker | undefined)[]): Promise<(FromWorker | undefined)[]>;
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
export function startWorkerPool(script: string, size: number, data: ValidateWorkerData): WorkerPool {
  const peers = [
    thisThread(data),
    ...Array.from({ length: size - 1 }, (_, index) => workerThread(script, data, index + 1)),
  ];
  return {
    size,
    ask: (requests) =>
      Promise.all(
        peers.map((peer, index) => {
          const request = requests[index];
          return request === undefined ? Promise.resolve(undefined) : askOne(peer, request);
        }),
      ),
    close: async () => {
      await Promise.all(peers.map((peer) => peer.end()));
    },
  };
}

function thisThread(data: ValidateWorkerData): Peer {
  const { port1, port2 } = new MessageChannel();
  runValidateWorker(port2, data);
  return {
    name: 'the main thread',
    send: (request) => port1.postMessage(request),
    listen: (onMessage) => {
      port1.on('message', onMessage);
      return () => port1.off('message', onMessage);
    },
    end: () => {
      port1.close();
      port2.close();
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

function askOne(peer: Peer, request: ToWorker): Promise<FromWorker> {
  return new Promise((resolve, reject) => {
    const stop = peer.listen(
      (message) => {
        stop();
        if (message.type === 'failed') {
          reject(new Error(`${peer.name} failed ${message.message}`));
        } else {
          resolve(message);
        }
      },
      (error) => {
        stop();
        const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
        reject(new Error(`${peer.name} failed: ${reason}`));
      },
      (code) => {
        stop();
        reject(new Error(`${peer.name} exited (code ${code}) before answering its ${request.type} request`));
      },
    );
    peer.send(request);
  });
}
