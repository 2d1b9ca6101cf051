/**
 * Finishes compiling the engine while the prediction worker is idle. V8 compiles the engine's functions with its
 * optimizing compiler only once they have run often: in a fresh worker, the simulation of a 1,000-resource file
 * took 211, 207, 172, 146, 104, 106, 102, 71 ms in its first eight runs, then stayed near 65 ms (one process,
 * the bench's generated file on the embedded cluster). A person typing in such a file waits for the slow runs at
 * the first keystrokes. So after the worker answers a large scope, and while no request waits, it runs that
 * scope's input again, a few times in the worker's life, and drops the results: the engine is deterministic, so
 * the next request gets the answer it would have had, only sooner. A request that arrives stops the run within
 * one engine task (the same check that abandons a superseded request). Small scopes are not worth it: they are
 * fast even cold.
 */
import type { ScopeSimulationInput } from '../language/service';

/** A scope of fewer objects is not run again (the size at which validation is published before predictions). */
export const WARM_UP_MIN_OBJECTS = 300;

/** How many runs the worker spends on warming in its life: with the first request's, the eighth is warm. */
export const WARM_UP_RUNS = 6;

/** What the warm-up needs of the worker. */
export interface WarmUpHost {
  /** Runs the engine on an input; throws when `shouldStop` turns true (the run is abandoned). */
  readonly run: (input: ScopeSimulationInput, shouldStop: () => boolean) => void;
  /** Whether the server has sent a request the worker has not started yet. */
  readonly isRequestWaiting: () => boolean;
  /** Calls `step` on a later turn of the event loop, after the messages that arrived meanwhile. */
  readonly later: (step: () => void) => void;
}

/** The worker's warm-up: runs left, and the input of the last large scope answered. */
export class WorkerWarmUp {
  private input: ScopeSimulationInput | undefined;
  private isScheduled = false;

  constructor(
    private readonly host: WarmUpHost,
    private runsLeft: number = WARM_UP_RUNS,
  ) {}

  /** How many warm-up runs the worker may still spend. */
  get remaining(): number {
    return this.runsLeft;
  }

  /** A request was answered: warm on its input next, if it was large and runs are left. */
  answered(input: ScopeSimulationInput): void {
    this.input = this.runsLeft > 0 && input.manifests.length >= WARM_UP_MIN_OBJECTS ? input : undefined;
    this.schedule();
  }

  /** A request arrived: nothing more is run on the previous input (the answer brings the next one). */
  requested(): void {
    this.input = undefined;
  }

  private schedule(): void {
    if (this.input === undefined || this.isScheduled) {
      return;
    }
    this.isScheduled = true;
    this.host.later(() => {
      this.isScheduled = false;
      this.step();
    });
  }

  private step(): void {
    const input = this.input;
    if (input === undefined || this.runsLeft <= 0 || this.host.isRequestWaiting()) {
      return;
    }
    this.runsLeft--;
    try {
      this.host.run(input, this.host.isRequestWaiting);
    } catch {
      // Abandoned for a request (or failed: the request's own run reports an engine error).
      this.input = undefined;
      return;
    }
    this.schedule();
  }
}
