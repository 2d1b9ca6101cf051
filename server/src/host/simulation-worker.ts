/**
 * Runs scope simulations in the prediction worker (prediction-worker.ts, a worker_threads Worker), so the
 * language server's main thread keeps answering keystrokes and requests while the engine runs; without the
 * worker's bundle, or after it failed again and again, in this thread.
 *
 * One request runs at a time. A request waiting for its turn is superseded by a newer one of the same scope (it
 * resolves to undefined: its document changed, its result would be dropped anyway); when a document changes, the
 * requests no longer wanted are dropped, the running one abandoned by the engine between two tasks. A worker that stops (a crash,
 * running out of memory) or does not answer within the time limit (it is then terminated) fails the request it
 * was running (the caller reports it, and publishes without predictions) and is started afresh for the next one;
 * after MAX_FAILURES failures in a row the simulations run in this thread from then on.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type {
  LanguageService,
  ScopeSimulation,
  ScopeSimulationInput,
  SourcedObject,
} from '../language/service';
import { createDiskLanguageService } from '../files/schema-files';
import { AnswerDecoder } from './answer-transfer';
import { SimulationEncoder } from './simulation-transfer';
import { WARM_UP_RUNS } from './worker-warm-up';
import type { SimulationAnswerMessage, SimulationWorkerData } from './simulation-transfer';

/** Failures in a row after which the simulations run in the main thread. */
const MAX_FAILURES = 3;

/**
 * How long a simulation may take in the worker. The limits of predicting as you type (prediction-types.ts: 2,000
 * objects, 5,000 pods) keep a run to a few seconds; a run past this is hung.
 */
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The worker's young generation. A run at 1,000 objects allocates a few hundred MB of short-lived objects; with a
 * worker's default young generation, scavenges took about as much CPU as the run itself (a profile of 13
 * keystrokes: 1.6 s of garbage collection in the worker). A larger one lowered the process's CPU per keystroke
 * by about 10% in back-to-back runs; it costs memory only while the run's garbage is young.
 */
const YOUNG_GENERATION_MB = 64;

/** Where the worker is and what to tell. */
export interface SimulationWorkerOptions {
  /** The worker's script (dist/prediction-worker.js); when missing, simulations run in the main thread. */
  readonly script: string;
  readonly timeoutMs?: number;
  /** Tells the output channel about a restart or the fallback to the main thread. */
  readonly log: (message: string) => void;
  /** How many warm-up runs a worker may spend in its life (worker-warm-up.ts); WARM_UP_RUNS by default. */
  readonly warmUpRuns?: number;
  /** Runs a simulation in this thread when there is no worker (the server's service; a disk one by default). */
  readonly service?: Pick<LanguageService, 'simulateScope'>;
}

interface Waiting {
  readonly scope: string;
  readonly input: ScopeSimulationInput;
  readonly clusterText: string;
  /** Whether its result is still wanted (its document did not change); asked when a document changes. */
  readonly isWanted: () => boolean;
  readonly resolve: (result: ScopeSimulation | undefined) => void;
  readonly reject: (error: unknown) => void;
}

interface Running extends Waiting {
  readonly id: number;
  readonly timer: NodeJS.Timeout;
}

/** The prediction worker, seen from the main thread. */
export class SimulationWorker {
  private worker: Worker | undefined;
  private readonly encoder = new SimulationEncoder();
  /** The answers of the running worker, each relative to its last (a new worker starts afresh). */
  private answers = new AnswerDecoder();
  private running: Running | undefined;
  /** The next request per scope, waiting for the running one. */
  private readonly waiting = new Map<string, Waiting>();
  private failures = 0;
  private inThread: boolean;
  /** Shared with the worker: the number of the running request the server abandons. */
  private readonly abandoned = new Int32Array(new SharedArrayBuffer(4));
  /** Shared with the worker: how many requests were posted to it (a warm-up run stops for one). */
  private readonly posted = new Int32Array(new SharedArrayBuffer(4));

  private readonly service: Pick<LanguageService, 'simulateScope'>;

  constructor(private readonly options: SimulationWorkerOptions) {
    this.inThread = !existsSync(options.script);
    this.service = options.service ?? createDiskLanguageService();
  }

  /** Whether simulations run in the main thread (no worker bundle, or it failed too often). */
  get isInThread(): boolean {
    return this.inThread;
  }

  /**
   * The simulation of a scope's input (`clusterText`: the text its cluster objects were read from), or
   * undefined when a newer request of the same scope superseded it before it ran.
   */
  simulate(
    scope: string,
    input: ScopeSimulationInput,
    clusterText: string,
    isWanted: () => boolean = () => true,
  ): Promise<ScopeSimulation | undefined> {
    if (this.inThread) {
      return Promise.resolve(this.service.simulateScope(input));
    }
    return new Promise((resolve, reject) => {
      this.waiting.get(scope)?.resolve(undefined);
      this.waiting.delete(scope);
      this.waiting.set(scope, { scope, input, clusterText, isWanted, resolve, reject });
      this.next();
    });
  }

  /** Recognises the objects the worker holds among new copies, ahead of their request (simulation-transfer.ts). */
  recognize(manifests: readonly SourcedObject[]): void {
    if (!this.inThread) {
      this.encoder.recognize(manifests);
    }
  }

  /**
   * Drops the requests no longer wanted (a document changed): those waiting resolve to undefined, and the running
   * one is abandoned by the engine at its next check (within a few milliseconds), resolving to undefined too.
   */
  abandonUnwanted(): void {
    for (const [scope, waiting] of this.waiting) {
      if (!waiting.isWanted()) {
        this.waiting.delete(scope);
        waiting.resolve(undefined);
      }
    }
    const running = this.running;
    if (running !== undefined && !running.isWanted()) {
      Atomics.store(this.abandoned, 0, running.id);
    }
  }

  /** Stops the worker (the server shuts down); waiting requests resolve to undefined. */
  dispose(): void {
    for (const waiting of this.waiting.values()) {
      waiting.resolve(undefined);
    }
    this.waiting.clear();
    this.stop();
  }

  /** Sends the next waiting request when none is running. */
  private next(): void {
    if (this.running !== undefined) {
      return;
    }
    const first = this.waiting.values().next();
    if (first.done === true) {
      return;
    }
    const request = first.value;
    this.waiting.delete(request.scope);
    if (!request.isWanted()) {
      request.resolve(undefined);
      this.next();
      return;
    }
    if (this.inThread) {
      try {
        request.resolve(this.service.simulateScope(request.input));
      } catch (error: unknown) {
        request.reject(error);
      }
      this.next();
      return;
    }
    let worker: Worker;
    try {
      worker = this.worker ?? this.start();
    } catch (error: unknown) {
      this.fail(request, error);
      return;
    }
    const message = this.encoder.encode(request.input, request.clusterText);
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      this.stop();
      this.fail(request, new Error(`The prediction worker did not answer within ${timeoutMs / 1000} s.`));
    }, timeoutMs);
    this.running = { ...request, id: message.id, timer };
    Atomics.add(this.posted, 0, 1);
    worker.postMessage(message);
  }

  private start(): Worker {
    // A new worker has received nothing, and answered nothing: the count starts again, and so do the answers.
    Atomics.store(this.posted, 0, 0);
    this.answers = new AnswerDecoder();
    const workerData: SimulationWorkerData = {
      abandoned: this.abandoned.buffer,
      posted: this.posted.buffer,
      warmUpRuns: this.options.warmUpRuns ?? WARM_UP_RUNS,
    };
    const worker = new Worker(this.options.script, {
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    // A worker does not keep the server's process alive after the connection ends.
    worker.unref();
    worker.on('message', (answer: SimulationAnswerMessage) => this.answered(worker, answer));
    worker.on('error', (error: unknown) => this.stopped(worker, error));
    worker.on('exit', (code: number) =>
      this.stopped(worker, new Error(`The prediction worker stopped (exit code ${code}).`)),
    );
    this.worker = worker;
    return worker;
  }

  private answered(worker: Worker, answer: SimulationAnswerMessage): void {
    if (worker !== this.worker) {
      return;
    }
    let result: ScopeSimulation | undefined;
    if (answer.ok) {
      // Decoded even when no longer awaited: the worker's next answer is relative to this one.
      try {
        result = this.answers.decode(answer.id, answer.result) as ScopeSimulation;
      } catch (error: unknown) {
        this.stop();
        if (this.running !== undefined) {
          this.fail(this.running, error);
        }
        return;
      }
    }
    const running = this.running;
    if (running?.id !== answer.id) {
      return;
    }
    clearTimeout(running.timer);
    this.running = undefined;
    if (answer.ok) {
      this.failures = 0;
      running.resolve(result);
    } else if (answer.abandoned) {
      running.resolve(undefined);
    } else {
      // The engine threw: an error of the run, not of the worker, which stays up (and does not count as its
      // failure). Whether it kept this request's objects is unsure: the next request sends them all.
      this.encoder.reset();
      running.reject(new Error(answer.message));
    }
    this.next();
  }

  /** The worker crashed or exited: the request it ran fails. */
  private stopped(worker: Worker, error: unknown): void {
    if (worker !== this.worker) {
      return;
    }
    this.worker = undefined;
    this.encoder.reset();
    const running = this.running;
    if (running !== undefined) {
      this.fail(running, error);
    }
  }

  /** Fails a request; after too many failures in a row, the next ones run in this thread. */
  private fail(request: Waiting, error: unknown): void {
    if (this.running !== undefined) {
      clearTimeout(this.running.timer);
      this.running = undefined;
    }
    this.failures++;
    if (this.failures >= MAX_FAILURES && !this.inThread) {
      this.inThread = true;
      this.options.log(
        `The prediction worker failed ${this.failures} times in a row; predictions now run in the language server's thread.`,
      );
    } else {
      this.options.log('The prediction worker failed; it is started again for the next prediction.');
    }
    request.reject(error);
    this.next();
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.encoder.reset();
    if (worker !== undefined) {
      void worker.terminate();
    }
  }
}
