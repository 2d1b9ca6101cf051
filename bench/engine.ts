/**
 * The engine at cluster scale, through the engine engineers' own benchmark bodies (bench/scheduler-run.ts,
 * bench/scheduler-affinity-run.ts, bench/timeline-run.ts), each bundled and run in a fresh process per repeat:
 * scheduling throughput (pods per CPU second, and per wall second) of plain resource-fit pods and of pods with
 * spreading and anti-affinity, the 200 × 50 rolling timeline on 1,000 nodes, peak memory (VmHWM), and how time
 * grows with nodes and pods (the exponent of a power-law fit).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bundleEntry, runNode } from './support/child-run';
import type { ChildRun } from './support/child-run';
import type { Summary } from './support/stats';
import { fitExponent, round, summarize } from './support/stats';
import { maxOf, minOf } from '../protocol/collections';

/** Scheduling throughput of one workload on one cluster size. */
export interface SchedulingResult {
  readonly workload: 'plain' | 'spread+anti-affinity';
  readonly nodes: number;
  readonly pods: number;
  readonly podsPerCpuSecond: Summary;
  readonly podsPerWallSecond: Summary;
  readonly peakRssMiB: Summary;
  readonly placed: number;
}

/** The rolling timeline's cost. */
export interface TimelineResult {
  readonly nodes: number;
  readonly deployments: number;
  readonly replicas: number;
  readonly cpuMs: Summary;
  readonly wallMs: Summary;
  /** The part of the wall time spent in scheduling cycles, as the timeline body reports it. */
  readonly schedulingMs: Summary;
  readonly peakRssMiB: Summary;
  readonly events: number;
  readonly podsScheduled: number;
  readonly rolloutsComplete: string;
}

/** Growth exponents: CPU time ∝ nodes^k (at the most pods) and ∝ pods^k (on the most nodes). */
export interface Growth {
  readonly workload: SchedulingResult['workload'];
  readonly nodesExponent: number;
  readonly podsExponent: number;
}

/** The engine section of the report. */
export interface EngineReport {
  readonly scheduling: SchedulingResult[];
  readonly growth: Growth[];
  readonly timeline: TimelineResult | undefined;
}

/** Sizes and repeats of a run. */
export interface EngineOptions {
  readonly plain: readonly (readonly [number, number])[];
  readonly affinity: readonly (readonly [number, number])[];
  readonly timeline: readonly [number, number, number];
  readonly repeats: number;
  readonly log: (line: string) => void;
}

function numberAfter(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  return match?.[1] === undefined ? NaN : Number(match[1].replace(/,/g, ''));
}

function failIfBad(run: ChildRun, what: string): void {
  if (run.exitCode !== 0) {
    throw new Error(`${what} exited with ${String(run.exitCode)}: ${run.stderr.slice(-2000)}`);
  }
}

async function benchScheduling(
  script: string,
  workload: SchedulingResult['workload'],
  nodes: number,
  pods: number,
  repeats: number,
): Promise<SchedulingResult> {
  const runs: { cpuRate: number; wallRate: number; peak: number; placed: number }[] = [];
  for (let i = 0; i < repeats; i++) {
    const run = await runNode(script, [`${nodes},${pods}`]);
    failIfBad(run, `${workload} ${nodes},${pods}`);
    runs.push({
      cpuRate: numberAfter(run.stdout, /([\d,]+) pods\/s of CPU/),
      wallRate: numberAfter(run.stdout, /([\d,]+) pods\/s wall/),
      peak: run.peakRssMiB,
      placed: numberAfter(run.stdout, /(\d+) placed/),
    });
  }
  return {
    workload,
    nodes,
    pods,
    podsPerCpuSecond: summarize(runs.map((r) => r.cpuRate)),
    podsPerWallSecond: summarize(runs.map((r) => r.wallRate)),
    peakRssMiB: summarize(runs.map((r) => r.peak)),
    placed: minOf(runs.map((r) => r.placed)),
  };
}

async function benchTimeline(script: string, size: readonly [number, number, number], repeats: number) {
  const [nodes, deployments, replicas] = size;
  const runs: { cpu: number; wall: number; scheduling: number; peak: number; stdout: string }[] = [];
  for (let i = 0; i < repeats; i++) {
    const run = await runNode(script, [size.join(',')]);
    failIfBad(run, `timeline ${size.join(',')}`);
    runs.push({
      cpu: numberAfter(run.stdout, /(\d+) ms CPU/),
      wall: numberAfter(run.stdout, /\((\d+) ms wall/),
      scheduling: numberAfter(run.stdout, /of which (\d+) ms in scheduling cycles/),
      peak: run.peakRssMiB,
      stdout: run.stdout,
    });
  }
  const last = runs[runs.length - 1]?.stdout ?? '';
  const result: TimelineResult = {
    nodes,
    deployments,
    replicas,
    cpuMs: summarize(runs.map((r) => r.cpu)),
    wallMs: summarize(runs.map((r) => r.wall)),
    schedulingMs: summarize(runs.map((r) => r.scheduling)),
    peakRssMiB: summarize(runs.map((r) => r.peak)),
    events: numberAfter(last, /(\d+) events/),
    podsScheduled: numberAfter(last, /(\d+) pods scheduled/),
    rolloutsComplete: /(\d+\/\d+) rollouts complete/.exec(last)?.[1] ?? '?',
  };
  return result;
}

/** CPU seconds of a run: pods over the median pods per CPU second. */
const cpuSeconds = (result: SchedulingResult): number => result.pods / result.podsPerCpuSecond.median;

function growthOf(results: readonly SchedulingResult[], workload: Growth['workload']): Growth {
  const mine = results.filter((result) => result.workload === workload);
  const mostPods = maxOf(mine.map((result) => result.pods));
  const mostNodes = maxOf(mine.map((result) => result.nodes));
  return {
    workload,
    nodesExponent: round(
      fitExponent(
        mine.filter((r) => r.pods === mostPods).map((r) => ({ size: r.nodes, cost: cpuSeconds(r) })),
      ),
      2,
    ),
    podsExponent: round(
      fitExponent(
        mine.filter((r) => r.nodes === mostNodes).map((r) => ({ size: r.pods, cost: cpuSeconds(r) })),
      ),
      2,
    ),
  };
}

/** Runs the engine benchmarks. */
export async function benchEngine(options: EngineOptions): Promise<EngineReport> {
  const plainScript = bundleEntry(join(__dirname, 'scheduler-run.ts'));
  const affinityScript = bundleEntry(join(__dirname, 'scheduler-affinity-run.ts'));
  const scheduling: SchedulingResult[] = [];
  const sets = [
    { script: plainScript, workload: 'plain' as const, sizes: options.plain },
    { script: affinityScript, workload: 'spread+anti-affinity' as const, sizes: options.affinity },
  ];
  for (const { script, workload, sizes } of sets) {
    for (const [nodes, pods] of sizes) {
      const result = await benchScheduling(script, workload, nodes, pods, options.repeats);
      scheduling.push(result);
      options.log(
        `${workload} ${nodes} nodes ${pods} pods: ${Math.round(result.podsPerCpuSecond.median)} pods/s of CPU, ` +
          `${Math.round(result.podsPerWallSecond.median)} pods/s wall, peak RSS ${result.peakRssMiB.median} MiB`,
      );
    }
  }
  let timeline: TimelineResult | undefined;
  const timelineEntry = join(__dirname, 'timeline-run.ts');
  if (existsSync(timelineEntry)) {
    timeline = await benchTimeline(bundleEntry(timelineEntry), options.timeline, options.repeats);
    options.log(
      `timeline ${options.timeline.join(',')}: ${timeline.cpuMs.median} ms CPU, ${timeline.wallMs.median} ms wall`,
    );
  }
  return {
    scheduling,
    growth: [growthOf(scheduling, 'plain'), growthOf(scheduling, 'spread+anti-affinity')],
    timeline,
  };
}
