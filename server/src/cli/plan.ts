/**
 * `foresight plan [simulate's inputs and flags] [--output text|markdown|json] PATH...`: what `kubectl apply` of the
 * input would change on a captured cluster and what follows, as a reviewer asks it before a merge. Reads the input
 * and the cluster as `foresight simulate` does (cli/simulate.ts), runs the one simulation twice (the cluster
 * without the input: how it runs now; with it: what the apply does), and prints the plan the service builds
 * (engine/plan/): each object created, configured (the fields that change), unchanged, the cluster's objects left
 * alone, the rollouts, what fails, capacity before and after, what the plan cannot know, and a verdict.
 * Each unit is planned on its cluster as simulate groups them (cli/unit-clusters.ts): --cluster or --profile for
 * every unit, else each unit's nearest `.foresight/cluster.yaml`, one plan per cluster file. A unit with no cluster
 * file would be planned on the embedded default, which runs nothing to compare with: when no unit has a cluster
 * the plan is refused (exit 2), else those units are listed as not planned (docs/cli.md, "foresight plan").
 * Exit codes as simulate's (--fail-on), 2 on usage errors.
 */
import type { CliRun, Finding, InputFile, LanguageService, Plan } from '../language/service';
import { createDiskLanguageService } from '../files/schema-files';
import { appendAll } from '../../../protocol/collections';
import type { CliIo } from './io';
import { COMMON_OPTIONS_HELP, finishRun } from './outcome';
import { parseSimulateArgs } from './simulate';
import { namedTemplates, readCommandInput, readGroup } from './simulate-group';
import { formatPlanText } from './formats/plan-text';
import { formatPlanMarkdown } from './formats/plan-markdown';
import type { ClusterPlan, NotPlannedUnit } from './formats/plan-list';
import { kustomizeRendersAhead } from './read-input';
import {
  formatPlanListMarkdown,
  formatPlanListText,
  NOT_PLANNED_REASON,
  planList,
} from './formats/plan-list';

/** The usage line of the plan command. */
export const PLAN_USAGE =
  'usage: foresight plan [-R] [-n NAMESPACE] [--cluster FILE]... [--profile NAME] ' +
  '[--output text|markdown|json] ' +
  "[--fail-on error|warning|prediction|never] [--kubernetes-version 1.35] [--until SECONDS] [simulate's scenario " +
  'steps] [--kustomize PATH] [--kustomize-allow-remote] PATH... (- reads standard input)';

/** The formats of a plan. */
type PlanOutput = 'text' | 'markdown' | 'json';

/** Why a plan needs a cluster, said when none is given. */
export const PLAN_NEEDS_CLUSTER =
  'a plan compares the input with a cluster: give --cluster FILE (a capture, made by foresight capture) or ' +
  '--profile NAME, or put a .foresight/cluster.yaml at or above the units; the embedded default cluster runs ' +
  'nothing to compare with';

/** Runs the plan command with a service (the process's own by default); resolves to the exit code. */
export async function runPlan(
  args: readonly string[],
  io: CliIo,
  service: LanguageService = createDiskLanguageService(),
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${PLAN_USAGE}\n\n${COMMON_OPTIONS_HELP}\n`);
    return 0;
  }
  const usageError = (message: string): number => {
    io.stderr(`foresight plan: ${message}\n${PLAN_USAGE}\n`);
    return 2;
  };
  const taken = takeOutput(args);
  if (typeof taken === 'string') {
    return usageError(taken);
  }
  const options = parseSimulateArgs(taken.rest, io, service);
  if (typeof options === 'string') {
    return usageError(options);
  }
  if (options.profile === 'default') {
    return usageError(PLAN_NEEDS_CLUSTER);
  }
  const kustomize = await kustomizeRendersAhead(options, io);
  const read = readCommandInput('plan', PLAN_USAGE, options, io, service, kustomize);
  if ('exitCode' in read) {
    return read.exitCode;
  }
  // As simulate: --cluster and --profile name the one cluster of every unit; else each unit is planned on its
  // nearest cluster file, and a unit without one (the embedded default: nothing to compare with) is not planned.
  const { groups, isClusterGiven } = read;
  const planned = groups.filter((group) => isClusterGiven || group.clusterPath !== undefined);
  if (planned.length === 0) {
    return usageError(PLAN_NEEDS_CLUSTER);
  }
  const plans: ClusterPlan[] = [];
  const findings: Finding[] = [];
  const files: InputFile[] = [];
  for (const group of planned) {
    const read = readGroup(group, options, io, service);
    if ('error' in read) {
      io.stderr(`foresight plan: ${read.error}\n`);
      return 2;
    }
    const result = service.planApply({
      manifestFiles: read.manifests,
      clusterFiles: read.clusterFiles,
      chartFiles: read.chartFiles,
      inputFindings: read.inputFindings,
      manifests: read.objects,
      cluster: read.cluster ?? [],
      clusterDescription: read.clusterDescription,
      version: read.version,
      namespace: options.namespace,
      steps: options.steps,
      until: options.until,
    });
    const groupFiles = [...read.clusterFiles, ...read.manifests];
    appendAll(findings, namedTemplates(result.findings, groupFiles, io, service));
    appendAll(files, groupFiles);
    plans.push({ cluster: read.clusterName, units: group.units.map((unit) => unit.name), plan: result.plan });
  }
  const notPlanned: NotPlannedUnit[] = groups
    .filter((group) => !planned.includes(group))
    .flatMap((group) => group.units.map((unit) => ({ unit: unit.name, reason: NOT_PLANNED_REASON })));
  io.stdout(formatPlans(plans, notPlanned, taken.output));
  const run: CliRun = { command: 'plan', files: files.map(service.inputFileOf), findings };
  return finishRun(run, taken.output === 'text' ? 'text' : 'json', options.failOn, io);
}

/** The plans as the output asks: one plan alone is a plan, as before units had clusters; else a list. */
function formatPlans(
  plans: readonly ClusterPlan[],
  notPlanned: readonly NotPlannedUnit[],
  output: PlanOutput,
): string {
  const [only] = plans;
  if (plans.length === 1 && only !== undefined && notPlanned.length === 0) {
    return formatPlan(only.plan, output);
  }
  switch (output) {
    case 'text':
      return formatPlanListText(plans, notPlanned);
    case 'markdown':
      return formatPlanListMarkdown(plans, notPlanned);
    case 'json':
      return `${JSON.stringify(planList(plans, notPlanned), null, 2)}\n`;
  }
}

function formatPlan(plan: Plan, output: PlanOutput): string {
  switch (output) {
    case 'text':
      return formatPlanText(plan);
    case 'markdown':
      return formatPlanMarkdown(plan);
    case 'json':
      return `${JSON.stringify(plan, null, 2)}\n`;
  }
}

/** Takes `--output`/`-o` out of the arguments (plan's formats are not simulate's), or says what is wrong. */
function takeOutput(args: readonly string[]): { output: PlanOutput; rest: string[] } | string {
  let output: PlanOutput = 'text';
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const isOutput = arg === '--output' || arg === '-o';
    const inline = arg.startsWith('--output=') ? arg.slice('--output='.length) : undefined;
    if (!isOutput && inline === undefined) {
      rest.push(arg);
      continue;
    }
    const value = inline ?? args[++i];
    if (value !== 'text' && value !== 'markdown' && value !== 'json') {
      return `--output must be text, markdown or json (got ${value === undefined ? 'nothing' : `"${value}"`})`;
    }
    output = value;
  }
  return { output, rest };
}
