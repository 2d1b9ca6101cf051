/**
 * Drives a cooperative analysis (FileAnalyzer.analyzeInBatches) on the event loop. Between batches it lets
 * other requests and notifications in, drops the run when its result is no longer wanted (a newer version of
 * the document arrived), and stops it at the time budget, keeping what is done. The analyzer stays pure: the
 * clock and the event loop are here.
 */
import { performance } from 'node:perf_hooks';
import type { AnalysisRun, FileAnalysis } from '../language/service';
import { ANALYSIS_TIME_BUDGET_MS } from '../language/service';

/** How a run is driven; everything but isStale has a default, overridden by tests. */
interface RunControl {
  /** Whether the result is no longer wanted; checked between batches. */
  readonly isStale: () => boolean;
  /** Milliseconds the run may take before it stops with what it has. */
  readonly budgetMs?: number;
  /** The clock, in milliseconds. */
  readonly now?: () => number;
  /** Lets other work run between batches. */
  readonly pause?: () => Promise<void>;
}

/** Lets the event loop handle pending I/O (LSP messages) before the next batch. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Runs an analysis to its end; undefined when it was dropped as stale. */
export async function driveAnalysis(
  run: AnalysisRun,
  control: RunControl,
): Promise<FileAnalysis | undefined> {
  const now = control.now ?? (() => performance.now());
  const pause = control.pause ?? yieldToEventLoop;
  const budgetMs = control.budgetMs ?? ANALYSIS_TIME_BUDGET_MS;
  const started = now();
  let step = run.next();
  while (step.done !== true) {
    await pause();
    if (control.isStale()) {
      // Stopping (rather than abandoning) lets the analyzer cache the documents it has done.
      run.next('stop');
      return undefined;
    }
    step = run.next(now() - started > budgetMs ? 'stop' : 'continue');
  }
  return step.value;
}
