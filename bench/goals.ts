/**
 * The performance goals, checked against a run's results: each with its target, the measured median and whether
 * it was met (undefined when this run did not measure it, e.g. a --quick run without the sizes it names). The
 * targets are issue #18's (performance, round two), and issue #8's where #18 sets none (cold start, memory,
 * validation after a keystroke) or sets a lower one (issue #8's stays listed beside it, so the page says both).
 */
import type { CaptureResult } from './captured-cluster';
import { SIMULATED_AS_YOU_TYPE } from './captured-cluster';
import type { CliReport } from './cli-validate';
import type { CrdFolderReport } from './crd-folder';
import type { EngineReport } from './engine';
import type { LanguageServerReport, SizeResult } from './language-servers';
import { OURS, OURS_WITHOUT_PREDICTIONS, THEIRS } from './language-servers';
import type { PhaseResult } from './server-phases';

/** One goal and how this run did against it. */
export interface GoalResult {
  readonly goal: string;
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | undefined;
  /** What limits a missed goal, from this run's figures (only when met is false). */
  readonly limitedBy?: string;
}

/** The results the goals read. */
export interface GoalInputs {
  readonly languageServers?: LanguageServerReport;
  readonly engine?: EngineReport;
  readonly cli?: CliReport;
  readonly crd?: CrdFolderReport;
  readonly capture?: readonly CaptureResult[];
  readonly phases?: readonly PhaseResult[];
}

/**
 * The ten-CRD folder's CPU before a custom kind's schemas were compiled lazily: bench/crd-folder.ts, 5 runs after
 * a warm-up, at commit ffb67d5 (the figure of commit 5c99239's message). Issue #18 item 3 asks for 4× less.
 */
export const CRD_FOLDER_CPU_MS_BEFORE = 5965;
/** Its wall time in the same runs (judged on CPU: the machine is shared; wall is shown beside it). */
export const CRD_FOLDER_WALL_MS_BEFORE = 9100;

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
  return ratioOf(ours?.[metric].median, theirs?.[metric].median, times);
}

/** How many times less `ours` is than `theirs` (milliseconds), against a target ratio. */
function ratioOf(ours: number | undefined, theirs: number | undefined, times: number) {
  if (ours === undefined || theirs === undefined) {
    return NOT_MEASURED;
  }
  const ratio = theirs / ours;
  return {
    measured: `${ratio.toFixed(2)}× (ours ${ours.toFixed(0)} ms, yaml-language-server ${theirs.toFixed(0)} ms)`,
    met: ratio >= times,
  };
}

/** Our server's CPU per keystroke against yaml-language-server's, in the same run. */
function cpuBelow(ours: SizeResult | undefined, theirs: SizeResult | undefined) {
  if (ours === undefined || theirs === undefined) {
    return NOT_MEASURED;
  }
  const [mine, other] = [ours.changeCpuMs.median, theirs.changeCpuMs.median];
  return {
    measured: `ours ${mine.toFixed(0)} ms, yaml-language-server ${other.toFixed(0)} ms`,
    met: mine < other,
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

/**
 * #31.4: `foresight simulate --cluster` on a capture of the largest cluster Kubernetes supports, as a user runs it:
 * under 5 s wall on two cores and under 1.5 GB peak. Wall time also counts the machine's other tenants; the CPU is
 * shown beside it.
 */
function largestCluster(capture: readonly CaptureResult[] | undefined): GoalResult {
  const cli = capture?.find((row) => row.nodes === 5_000 && row.pods === 150_000)?.cli;
  const goal = '#31.4 `foresight simulate --cluster`, 5,000 nodes and 150,000 pods';
  const target = '< 5 s wall and < 1.5 GB peak';
  if (cli === undefined) {
    return { goal, target, ...NOT_MEASURED };
  }
  const wall = cli.wallMs.median;
  const peak = cli.peakMB.median;
  return {
    goal,
    target,
    measured: `${(wall / 1000).toFixed(1)} s wall (${(cli.cpuMs.median / 1000).toFixed(1)} s CPU), ${(peak / 1000).toFixed(2)} GB peak`,
    met: wall < 5000 && peak < 1500,
  };
}

/**
 * #31.4's editor half: predictions against that capture, the first within 5 s of opening a manifest and later ones
 * within 1 s of a keystroke (the bundled server over LSP, capture-editor.ts). Missed while the editor does not take
 * the capture at all (it then predicts on the embedded cluster, which the notice says).
 */
function largestClusterInEditor(capture: readonly CaptureResult[] | undefined): GoalResult {
  const row = capture?.find((entry) => entry.nodes === 5_000 && entry.pods === 150_000);
  const goal = '#31.4 The editor predicting against that capture';
  const target = 'first prediction ≤ 5 s after opening, later ones ≤ 1 s after a keystroke';
  if (row === undefined) {
    return { goal, target, ...NOT_MEASURED };
  }
  if (row.asYouType !== SIMULATED_AS_YOU_TYPE) {
    return {
      goal,
      target,
      measured: `not predicted against it (${row.asYouType})`,
      met: false,
      limitedBy: `the editor's limits (prediction-types.ts) leave the capture out`,
    };
  }
  const editor = row.editor;
  if (editor === undefined) {
    return { goal, target, ...NOT_MEASURED };
  }
  const keystroke = editor.keystrokeMs.median;
  const met = editor.openMs <= 5_000 && keystroke <= 1_000;
  return {
    goal,
    target,
    measured: `first ${(editor.openMs / 1000).toFixed(1)} s, keystrokes ${(keystroke / 1000).toFixed(2)} s (median of ${editor.keystrokeMs.runs}; ${ms(editor.keystrokeCpuMs.median)} CPU each), ${(editor.peakMB / 1000).toFixed(2)} GB peak`,
    met,
    ...(met
      ? {}
      : {
          limitedBy:
            `one simulation on the capture takes ${ms(row.simulateMs.median)} in process when first read; ` +
            "the worker's later runs reuse what the engine derived from the cluster (engine/simulate/kept-cluster.ts) " +
            'but still build the initial state of every running pod, and collect it, on each keystroke',
        }),
  };
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

/** A goal's result, with what limits it when it was missed. */
function judged(
  goal: string,
  target: string,
  result: { readonly measured: string; readonly met: boolean | undefined },
  limit: string | undefined,
): GoalResult {
  return result.met === false && limit !== undefined
    ? { goal, target, ...result, limitedBy: limit }
    : { goal, target, ...result };
}

const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;

/** Issue #31's goals (round three), judged with its targets; a missed one names what limits it. */
function roundThreeGoals(inputs: GoalInputs): GoalResult[] {
  const lsp = inputs.languageServers;
  const ours1000 = sizeOf(lsp, OURS, 1000);
  const theirs1000 = sizeOf(lsp, THEIRS, 1000);
  const phase = inputs.phases?.find((row) => row.resources === 1000);
  const analysis =
    phase === undefined
      ? undefined
      : `the analysis (parse, schema validation, rules) ${ms(phase.analysisMs)}`;
  // A keystroke is not a whole analysis: the edited document is analysed again in part (the server with predictions
  // off shows what that costs), then the scope is simulated once.
  const keystrokeValidation = sizeOf(lsp, OURS_WITHOUT_PREDICTIONS, 1000)?.changeCpuMs.median;
  const simulation =
    phase?.simulateDefaultClusterMs === null || phase === undefined
      ? undefined
      : `per keystroke: the validation (${keystrokeValidation === undefined ? 'not measured' : `${ms(keystrokeValidation)} of server CPU with predictions off`}), then one simulation of the scope, ${ms(phase.simulateDefaultClusterMs)} in process on the default cluster (${String(phase.pendingOnDefaultCluster ?? 0)} pods Pending, the nodes the cluster autoscaler adds included)`;
  const coldStart = (server: string) => lsp?.servers.find((s) => s.name === server)?.coldStartMs.median;
  const plain = inputs.engine?.scheduling.find(
    (row) => row.workload === 'plain' && row.nodes === 5000 && row.pods === 50_000,
  )?.podsPerCpuSecond.median;
  const timeline = inputs.engine?.timeline;
  const isTimelineSize = timeline?.nodes === 1000 && timeline.deployments === 200 && timeline.replicas === 50;
  const cli = inputs.cli?.resources === 10_000 ? inputs.cli : undefined;
  return [
    judged(
      '#31.1 didChange → the publish with predictions, 1,000 resources, vs yaml-language-server',
      '≥ 3× faster (then 5×)',
      speedup(ours1000, theirs1000, 'changeSettledMs', 3),
      simulation,
    ),
    judged(
      '#31.2 didOpen → diagnostics, 1,000 resources, warm, vs yaml-language-server',
      '≥ 3× faster',
      speedup(ours1000, theirs1000, 'openMs', 3),
      analysis,
    ),
    judged(
      '#31.2 Cold start → first diagnostics (1,000 resources), vs yaml-language-server',
      '≥ 3× faster',
      ratioOf(coldStart(OURS), coldStart(THEIRS), 3),
      analysis,
    ),
    judged(
      '#31.3 50k plain pods on 5,000 nodes',
      '≥ 30,000 pods/s',
      atLeast(plain, 30_000, 'pods/s of CPU'),
      plain === undefined
        ? undefined
        : `the scheduling cycles alone: ${(1e6 / plain).toFixed(1)} µs of CPU per pod`,
    ),
    judged(
      '#31.3 Rolling timeline, 200 Deployments × 50 replicas on 1,000 nodes',
      '< 2 s of CPU',
      isTimelineSize ? atMost(timeline.cpuMs.median, 2000, 'ms of CPU') : NOT_MEASURED,
      isTimelineSize
        ? `scheduling ${ms(timeline.schedulingMs.median)} of it; the rest the controllers, kubelets and timeline`
        : undefined,
    ),
    judged(
      '#31.3 `foresight validate`, 10,000-resource tree, 2 cores',
      '≥ 6,000 resources/s',
      cli === undefined ? NOT_MEASURED : atLeast(cli.resourcesPerSecond.median, 6_000, 'resources/s'),
      cli === undefined ? undefined : `${ms(cli.cpuMs.median)} of CPU over ${ms(cli.wallMs.median)} wall`,
    ),
    largestCluster(inputs.capture),
    largestClusterInEditor(inputs.capture),
    judged(
      '#31.5 Peak memory of our server, 5,000 resources',
      '< 200 MB',
      peakMemory(sizeOf(lsp, OURS, 5000)),
      undefined,
    ),
    judged(
      '#31.5 Server CPU per keystroke, 1,000 resources (ours: predictions included)',
      "below yaml-language-server's",
      cpuBelow(ours1000, theirs1000),
      simulation,
    ),
  ];
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
  const coldStart = (server: string) => lsp?.servers.find((s) => s.name === server)?.coldStartMs.median;
  // Like with like: the figure before was one thread's; the threads' own CPU is shown on the page beside it.
  const crdCpu = inputs.crd?.crds === 10 ? (inputs.crd.oneThreadCpuMs ?? inputs.crd.cpuMs).median : undefined;
  return [
    ...roundThreeGoals(inputs),
    {
      goal: '#18.1 didChange → last publish (ours: predictions included), 1,000 resources, vs yaml-language-server',
      target: '≥ 5× faster',
      ...speedup(ours1000, theirs1000, 'changeSettledMs', 5),
    },
    {
      goal: '#18.1 Server CPU per keystroke, 1,000 resources (ours: predictions included)',
      target: "below yaml-language-server's",
      ...cpuBelow(ours1000, theirs1000),
    },
    {
      goal: '#18.2 didOpen → diagnostics, 1,000 resources, warm, vs yaml-language-server',
      target: '≥ 3× faster',
      ...speedup(ours1000, theirs1000, 'openMs', 3),
    },
    {
      goal: '#18.2 Cold start → first diagnostics (1,000 resources), vs yaml-language-server',
      target: '≥ 3× faster',
      ...ratioOf(coldStart(OURS), coldStart(THEIRS), 3),
    },
    {
      goal: '#18.3 `foresight validate`, ten-CRD folder (4 MiB), CPU in one thread',
      target: `≥ 4× less than before (${CRD_FOLDER_CPU_MS_BEFORE.toLocaleString('en-US')} ms)`,
      ...(crdCpu === undefined
        ? NOT_MEASURED
        : {
            measured: `${Math.round(crdCpu).toLocaleString('en-US')} ms of CPU (${(CRD_FOLDER_CPU_MS_BEFORE / crdCpu).toFixed(2)}×); wall ${Math.round(inputs.crd?.wallMs.median ?? 0).toLocaleString('en-US')} ms (before: ${CRD_FOLDER_WALL_MS_BEFORE.toLocaleString('en-US')})`,
            met: CRD_FOLDER_CPU_MS_BEFORE / crdCpu >= 4,
          }),
    },
    {
      goal: '#18.4 50k plain pods on 5,000 nodes',
      target: '≥ 30,000 pods/s (#8: 50,000)',
      ...atLeast(scheduling('plain', 5000, 50_000), 30_000, 'pods/s of CPU'),
    },
    {
      goal: '#18.4 50k pods with spread and anti-affinity on 5,000 nodes',
      target: '≥ 5,000 pods/s',
      ...atLeast(scheduling('spread+anti-affinity', 5000, 50_000), 5_000, 'pods/s of CPU'),
    },
    {
      goal: '#18.4 Rolling timeline, 200 Deployments × 50 replicas on 1,000 nodes',
      target: '< 2 s',
      ...(isTimelineSize ? atMost(timeline.cpuMs.median, 2000, 'ms of CPU') : NOT_MEASURED),
    },
    {
      goal: '#18.5 `foresight validate`, 10,000-resource tree, 2 cores',
      target: '≥ 6,000 resources/s (#8: 10,000)',
      ...(inputs.cli?.resources === 10_000
        ? atLeast(inputs.cli.resourcesPerSecond.median, 6_000, 'resources/s')
        : NOT_MEASURED),
    },
    {
      goal: '#8 didOpen → diagnostics, 1,000 resources, vs yaml-language-server',
      target: '≥ 5× faster',
      ...speedup(ours1000, theirs1000, 'openMs', 5),
    },
    {
      goal: '#8 didChange → diagnostics, 1,000 resources, vs yaml-language-server',
      target: '≥ 5× faster',
      ...speedup(ours1000, theirs1000, 'changeMs', 5),
    },
    {
      goal: '#8 Cold start to first diagnostics',
      target: '< 500 ms',
      ...atMost(coldStart(OURS), 500, 'ms'),
    },
    {
      goal: '#8 Peak memory of our server, 5,000 resources',
      target: '< 200 MB',
      ...peakMemory(sizeOf(lsp, OURS, 5000)),
    },
  ];
}
