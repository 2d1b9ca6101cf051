/**
 * The goals of issue 8, checked against a run's results: each with its target, the measured median and whether
 * it was met (undefined when this run did not measure it, e.g. a --quick run without the sizes it names).
 */
import type { CliReport } from './cli-validate';
import type { EngineReport } from './engine';
import type { LanguageServerReport, SizeResult } from './language-servers';
import { OURS, THEIRS } from './language-servers';

/** One goal and how this run did against it. */
export interface GoalResult {
  readonly goal: string;
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | undefined;
}

/** The results the goals read. */
export interface GoalInputs {
  readonly languageServers?: LanguageServerReport;
  readonly engine?: EngineReport;
  readonly cli?: CliReport;
}

const NOT_MEASURED = { measured: 'not measured in this run', met: undefined };

function sizeOf(report: LanguageServerReport | undefined, server: string, resources: number) {
  return report?.servers.find((s) => s.name === server)?.sizes.find((s) => s.resources === resources);
}

function speedup(
  ours: SizeResult | undefined,
  theirs: SizeResult | undefined,
  metric: 'openMs' | 'changeMs' | 'changeSettledMs',
  times: number,
) {
  if (ours === undefined || theirs === undefined) {
    return NOT_MEASURED;
  }
  const ratio = theirs[metric].median / ours[metric].median;
  return {
    measured: `${ratio.toFixed(2)}× (ours ${ours[metric].median.toFixed(0)} ms, yaml-language-server ${theirs[metric].median.toFixed(0)} ms)`,
    met: ratio >= times,
  };
}

function atLeast(value: number | undefined, target: number, unit: string) {
  return value === undefined || Number.isNaN(value)
    ? NOT_MEASURED
    : { measured: `${Math.round(value).toLocaleString('en-US')} ${unit}`, met: value >= target };
}

function atMost(value: number | undefined, target: number, unit: string) {
  return value === undefined || Number.isNaN(value)
    ? NOT_MEASURED
    : { measured: `${Math.round(value).toLocaleString('en-US')} ${unit}`, met: value < target };
}

/** MiB as MB (10^6 bytes), as the goal is stated. */
const toMB = (mib: number): number => Math.round((mib * 2 ** 20) / 1e6);

/** Judged on the whole session's peak (a warm-up and five rounds); the peak after one round is shown beside it. */
function peakMemory(size: SizeResult | undefined) {
  if (size === undefined) {
    return NOT_MEASURED;
  }
  return {
    measured: `${toMB(size.peakRssMiB)} MB over the session, ${toMB(size.peakRssAfterFirstRoundMiB)} MB after one round`,
    met: toMB(size.peakRssMiB) < 200,
  };
}

/** Checks every goal. Throughput goals use pods per CPU second (wall time also counts the other tenants). */
export function checkGoals(inputs: GoalInputs): GoalResult[] {
  const lsp = inputs.languageServers;
  const ours1000 = sizeOf(lsp, OURS, 1000);
  const theirs1000 = sizeOf(lsp, THEIRS, 1000);
  const scheduling = (workload: string, nodes: number, pods: number) =>
    inputs.engine?.scheduling.find((r) => r.workload === workload && r.nodes === nodes && r.pods === pods)
      ?.podsPerCpuSecond.median;
  const timeline = inputs.engine?.timeline;
  const isTimelineSize =
    timeline !== undefined &&
    timeline.nodes === 1000 &&
    timeline.deployments === 200 &&
    timeline.replicas === 50;
  return [
    {
      goal: 'didOpen → diagnostics, 1,000 resources, vs yaml-language-server',
      target: '≥ 5× faster',
      ...speedup(ours1000, theirs1000, 'openMs', 5),
    },
    {
      goal: 'didChange → diagnostics, 1,000 resources, vs yaml-language-server',
      target: '≥ 5× faster',
      ...speedup(ours1000, theirs1000, 'changeMs', 5),
    },
    {
      goal: 'didChange → last publish (ours: predictions included), 1,000 resources, vs yaml-language-server',
      target: '≥ 5× faster',
      ...speedup(ours1000, theirs1000, 'changeSettledMs', 5),
    },
    {
      goal: 'Cold start to first diagnostics',
      target: '< 500 ms',
      ...atMost(lsp?.servers.find((s) => s.name === OURS)?.coldStartMs.median, 500, 'ms'),
    },
    {
      goal: 'Peak memory of our server, 5,000 resources',
      target: '< 200 MB',
      ...peakMemory(sizeOf(lsp, OURS, 5000)),
    },
    {
      goal: '50k plain pods on 5,000 nodes',
      target: '≥ 50,000 pods/s',
      ...atLeast(scheduling('plain', 5000, 50_000), 50_000, 'pods/s of CPU'),
    },
    {
      goal: '50k pods with spread and anti-affinity on 5,000 nodes',
      target: '≥ 5,000 pods/s',
      ...atLeast(scheduling('spread+anti-affinity', 5000, 50_000), 5_000, 'pods/s of CPU'),
    },
    {
      goal: 'Rolling timeline, 200 Deployments × 50 replicas on 1,000 nodes',
      target: '< 2 s',
      ...(isTimelineSize ? atMost(timeline.cpuMs.median, 2000, 'ms of CPU') : NOT_MEASURED),
    },
    {
      goal: '`foresight validate`, 10,000-resource tree',
      target: '≥ 10,000 resources/s',
      ...(inputs.cli?.resources === 10_000
        ? atLeast(inputs.cli.resourcesPerSecond.median, 10_000, 'resources/s')
        : NOT_MEASURED),
    },
  ];
}
