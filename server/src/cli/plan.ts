/**
 * `foresight plan [simulate's inputs and flags] [--output text|markdown|json] PATH...`: what `kubectl apply` of the
 * input would change on a captured cluster and what follows, as a reviewer asks it before a merge. Reads the input
 * and the cluster as `foresight simulate` does (cli/simulate.ts), runs the one simulation twice (the cluster
 * without the input: how it runs now; with it: what the apply does), and prints the plan the service builds
 * (engine/plan/): each object created, configured (the fields that change), unchanged, the cluster's objects left
 * alone, the rollouts, what fails, capacity before and after, what the plan cannot know, and a verdict.
 * A cluster is required (--cluster or --profile): the embedded default runs nothing to compare with.
 * Exit codes as simulate's (--fail-on), 2 on usage errors.
 */
import type {
  CliRun,
  Finding,
  LanguageService,
  ObjectSource,
  Plan,
  SourcedObject,
} from '../language/service';
import { capturedVersion, severityOf } from '../language/service';
import { createDiskLanguageService } from '../files/schema-files';
import type { CliIo } from './io';
import { COMMON_OPTIONS_HELP, finishRun } from './outcome';
import { kustomizeOptionsOf } from '../files/kustomize/kustomization-units';
import { readCliInput } from './read-input';
import { profileCluster } from './profiles';
import { parseSimulateArgs } from './simulate';
import {
  chartFinding,
  INPUT_NOTES,
  inputFindingsOf,
  MAX_FILE_LENGTH,
  readClusterFiles,
} from './simulate-group';
import { formatPlanText } from './formats/plan-text';
import { formatPlanMarkdown } from './formats/plan-markdown';
import { objectLine } from './formats/object-lines';
import { failureClassOf } from './formats/finding-places';

/** The usage line of the plan command. */
export const PLAN_USAGE =
  'usage: foresight plan [-R] [-n NAMESPACE] [--cluster FILE]... [--profile NAME] (one is required) ' +
  '[--output text|markdown|json] ' +
  "[--fail-on error|warning|prediction|never] [--kubernetes-version 1.35] [--until SECONDS] [simulate's scenario " +
  'steps] [--kustomize PATH] [--kustomize-allow-remote] PATH... (- reads standard input)';

/** The formats of a plan. */
type PlanOutput = 'text' | 'markdown' | 'json';

/** Why a plan needs a cluster, said when none is given. */
export const PLAN_NEEDS_CLUSTER =
  'a plan compares the input with a cluster: give --cluster FILE (a capture, made by foresight capture) or ' +
  '--profile NAME; the embedded default cluster runs nothing to compare with';

/** Runs the plan command with a service (the process's own by default); resolves to the exit code. */
export function runPlan(
  args: readonly string[],
  io: CliIo,
  service: LanguageService = createDiskLanguageService(),
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${PLAN_USAGE}\n\n${COMMON_OPTIONS_HELP}\n`);
    return Promise.resolve(0);
  }
  const usageError = (message: string): Promise<number> => {
    io.stderr(`foresight plan: ${message}\n${PLAN_USAGE}\n`);
    return Promise.resolve(2);
  };
  const taken = takeOutput(args);
  if (typeof taken === 'string') {
    return usageError(taken);
  }
  const options = parseSimulateArgs(taken.rest, io, service);
  if (typeof options === 'string') {
    return usageError(options);
  }
  if ((options.clusters.length === 0 && options.profile === undefined) || options.profile === 'default') {
    return usageError(PLAN_NEEDS_CLUSTER);
  }
  const readOptions = {
    recursive: false,
    kubernetesVersion: options.version,
    maxFileLength: MAX_FILE_LENGTH,
  };
  const clusterInput =
    options.clusters.length > 0 ? readCliInput(options.clusters, io, readOptions, service) : null;
  if (!options.isVersionGiven && clusterInput?.ok === true) {
    options.version = capturedVersion(clusterInput.files.map((file) => file.text)) ?? options.version;
  }
  const manifestInput = readCliInput(
    options.paths,
    io,
    {
      ...readOptions,
      recursive: options.recursive,
      kubernetesVersion: options.version,
      kustomize: kustomizeOptionsOf(options.kustomize, options.allowRemote, io),
    },
    service,
  );
  if (clusterInput?.ok === false || !manifestInput.ok) {
    const failed = clusterInput?.ok === false ? clusterInput : manifestInput.ok ? null : manifestInput;
    io.stderr(`foresight plan: ${failed?.message ?? 'the input could not be read'}\n`);
    return Promise.resolve(2);
  }
  const read = service.readObjects(
    manifestInput.files,
    options.namespace === undefined ? {} : { namespace: options.namespace },
  );
  const profile = options.profile === undefined ? null : profileCluster(options.profile);
  const cluster =
    profile !== null && 'objects' in profile
      ? { objects: profile.objects, error: null }
      : readClusterFiles(clusterInput?.files ?? [], service);
  if (cluster.error !== null) {
    io.stderr(`foresight plan: ${cluster.error}\n`);
    return Promise.resolve(2);
  }
  const simulate = (manifests: readonly SourcedObject[]): ReturnType<LanguageService['simulate']> =>
    service.simulate({
      manifests: [...manifests],
      cluster: cluster.objects,
      clusterDescription:
        profile !== null && 'objects' in profile
          ? profile.description
          : (clusterInput?.files ?? []).map((file) => file.id).join(', '),
      version: options.version,
      timeline: {
        scenario: { steps: options.steps, until: null, timing: {} },
        ...(options.until === null ? {} : { until: options.until }),
      },
    });
  // The cluster as it runs without the input: what "before" means, and which problems it already has.
  const before = simulate([]);
  const after = simulate(read.objects);
  const inputFiles = [...(clusterInput?.files ?? []), ...manifestInput.files];
  const inputFindings: Finding[] = [
    ...inputFindingsOf(clusterInput?.files ?? [], (code) => code.startsWith('yaml-')),
    ...(clusterInput?.charts ?? []).map(chartFinding),
    ...inputFindingsOf(manifestInput.files, (code) => INPUT_NOTES.has(code) || severityOf(code) === 'error'),
    ...manifestInput.charts.map(chartFinding),
    ...read.findings,
  ];
  const findings = service.placeSimulationFindings(
    inputFiles,
    [...(clusterInput?.charts ?? []), ...manifestInput.charts].map((chart) => chart.file),
    [...inputFindings, ...after.report.findings],
    after,
    options.version,
  );
  const plan = service.plan({
    manifests: read.objects,
    cluster: cluster.objects,
    before: before.report,
    after: after.report,
    findings,
    namespace: options.namespace ?? 'default',
    lineOf: (source: ObjectSource) => objectLine(manifestInput.files, source),
    failureClassOf,
  });
  io.stdout(formatPlan(plan, taken.output));
  const run: CliRun = { command: 'plan', files: inputFiles.map(service.inputFileOf), findings };
  return Promise.resolve(finishRun(run, taken.output === 'text' ? 'text' : 'json', options.failOn, io));
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
