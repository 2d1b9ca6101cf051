/**
 * Starts `foresight validate`'s worker threads and talks to them one request at a time: every worker gets a
 * request, and the pool waits until each has answered. A worker that fails, crashes or exits before answering
 * rejects the request with a message that names it; the caller then ends every worker (no hang, no orphan).
 */
import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker, ValidateWorkerData } from './worker-messages';

/** Running workers. */
export interface WorkerPool {
  readonly size: number;
  /** Sends each worker its request (undefined: none) and resolves to the answers, by worker. */
  ask(requests: readonly (ToWorker | undefined)[]): Promise<(FromWorker | undefined)[]>;
  /** Ends every worker. */
  close(): Promise<void>;
}

/** Starts `size` workers running `script` (the CLI bundle, which runs a worker when started as one). */
export function startWorkerPool(script: string, size: number, data: ValidateWorkerData): WorkerPool {
  const workers = Array.from({ length: size }, () => new Worker(script, { workerData: data }));
  return {
    size,
    ask: (requests) =>
      Promise.all(
        workers.map((worker, index) => {
          const request = requests[index];
          return request === undefined ? Promise.resolve(undefined) : askOne(worker, index, request);
        }),
      ),
    close: async () => {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

function askOne(worker: Worker, index: number, request: ToWorker): Promise<FromWorker> {
  return new Promise((resolve, reject) => {
    const name = `validate worker thread ${index + 1}`;
    const done = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (message: FromWorker): void => {
      done();
      if (message.type === 'failed') {
        reject(new Error(`${name} failed ${message.message}`));
      } else {
        resolve(message);
      }
    };
    const onError = (error: unknown): void => {
      done();
      const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
      reject(new Error(`${name} failed: ${reason}`));
    };
    const onExit = (code: number): void => {
      done();
      reject(new Error(`${name} exited (code ${code}) before answering its ${request.type} request`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(request);
  });
}
