/**
 * What the prediction worker's warm-up (server/src/host/worker-warm-up.ts) buys and costs: a person typing in the
 * bench's 1,000-resource file, one keystroke every `pauseMs`, each a request to a fresh worker
 * (bench/support/worker-keystrokes-run.ts), without warm-up and with the shipped budget, in alternating fresh
 * processes. Reported per keystroke: the median milliseconds from request to answer; and the process's CPU over
 * the whole typing (the warm-up runs included).
 */
import { join } from 'node:path';
import { WARM_UP_RUNS } from '../server/src/host/worker-warm-up';
import { bundleYamlEntry, runNode } from './support/child-run';
import { summarize } from './support/stats';
import type { Summary } from './support/stats';

/** One warm-up budget's results. */
export interface WarmUpResult {
  readonly warmUpRuns: number;
  /** Per keystroke, over the repeats. */
  readonly answerMs: Summary[];
  readonly cpuMs: Summary;
}

/** The report: the typing, and both budgets' results. */
export interface WarmUpReport {
  readonly keystrokes: number;
  readonly pauseMs: number;
  readonly repeats: number;
  readonly results: WarmUpResult[];
}

/** What a run is asked to do. */
export interface WarmUpOptions {
  readonly keystrokes: number;
  readonly pauseMs: number;
  readonly repeats: number;
  readonly log: (line: string) => void;
}

/** Runs the typing `repeats` times per budget, alternating budgets. */
export async function benchWorkerWarmUp(options: WarmUpOptions): Promise<WarmUpReport> {
  const script = await bundleYamlEntry(
    join(__dirname, 'support', 'worker-keystrokes-run.ts'),
    join(__dirname, '..', 'dist'),
  );
  const budgets = [0, WARM_UP_RUNS];
  const runs = new Map<number, { answerMs: number[]; cpuMs: number }[]>(
    budgets.map((budget) => [budget, []]),
  );
  for (let repeat = 0; repeat < options.repeats; repeat++) {
    for (const budget of budgets) {
      const args = [String(budget), String(options.keystrokes), String(options.pauseMs)];
      const run = await runNode(script, args);
      if (run.exitCode !== 0) {
        throw new Error(
          `worker keystrokes (warm-up ${budget}) exited with ${String(run.exitCode)}: ${run.stderr}`,
        );
      }
      runs.get(budget)?.push(JSON.parse(run.stdout.trim()) as { answerMs: number[]; cpuMs: number });
    }
  }
  const results = budgets.map((budget): WarmUpResult => {
    const own = runs.get(budget) ?? [];
    const answerMs = Array.from({ length: options.keystrokes }, (_, keystroke) =>
      summarize(own.map((run) => run.answerMs[keystroke] ?? Number.NaN)),
    );
    return { warmUpRuns: budget, answerMs, cpuMs: summarize(own.map((run) => run.cpuMs)) };
  });
  for (const result of results) {
    options.log(
      `warm-up ${result.warmUpRuns}: answers ${result.answerMs.map((summary) => Math.round(summary.median)).join(' ')} ms; CPU ${Math.round(result.cpuMs.median)} ms`,
    );
  }
  return { keystrokes: options.keystrokes, pauseMs: options.pauseMs, repeats: options.repeats, results };
}
