/**
 * `foresight simulate [-R] [--cluster FILE]... [--output text|json|sarif|junit] [--fail-on LEVEL]
 * [--kubernetes-version 1.35] [--until SECONDS] [--drain NODE@T] [--fail-node NODE@T] [--scale [NS/]KIND/NAME=N@T]
 * [--add-node NAME[=LIKE]@T] PATH...`: reads
 * manifests as `kubectl apply -f PATH` does (cli/read-input.ts: files, folders, sub-folders with -R, `-` for
 * standard input; the one manifest reader for objects), predicts where each pod lands on
 * the cluster (the cluster files, or the embedded default cluster), then what happens over time (rollouts,
 * disruption budgets, the scenario's drains and failures), and prints the report (text, JSON, SARIF or JUnit XML).
 * Exit 1 when a finding counts at --fail-on (by default `prediction`: an error of the input, a pod that stays
 * Pending, an object the API server refuses, a predicted failure such as a drain that never finishes), 0 when
 * none does, 2 on usage errors (unknown flag, missing path).
 */
import type {
  CliRun,
  DiagnosticCode,
  InputFile,
  KubernetesMinor,
  LanguageService,
  Finding,
  ScenarioStep,
  SkippedChart,
  SourcedObject,
} from '../language/service';
import {
  DEFAULT_KUBERNETES_VERSION,
  capturedVersion,
  ENGINE_KUBERNETES_VERSIONS,
  isKubernetesMinor,
  severityOf,
} from '../language/service';
import { createDiskLanguageService } from '../files/schema-files';
import { profileCluster } from './profiles';
import type { CliIo } from './io';
import { formatReportText } from './formats/format-text';
import { formatReportJson } from './formats/report-json';
import { COMMON_OPTIONS_HELP, finishRun, formatRun } from './outcome';
import type { CommonOptions, FlagOutcome, FlagValue } from './command-line';
import { commonDefaults, readCommandLine } from './command-line';
import { kustomizeOptionsOf } from '../files/kustomize/kustomization-units';
import { readCliInput } from './read-input';
import { relative } from 'node:path';
import { relateChartTemplates } from '../files/helm-charts';

/** The usage line of the simulate command. */
export const SIMULATE_USAGE =
  'usage: foresight simulate [-R] [-n NAMESPACE] [--cluster FILE]... [--output text|json|sarif|junit] ' +
  '[--profile NAME] [--fail-on error|warning|prediction|never] [--kubernetes-version 1.35] [--until SECONDS] ' +
  '[--drain NODE@SECONDS] [--fail-node NODE@SECONDS] [--scale [NAMESPACE/]KIND/NAME=REPLICAS@SECONDS] ' +
  '[--add-node NAME[=LIKE]@SECONDS] [--load [NAMESPACE/]KIND/NAME=PERCENT%|CPU@SECONDS] [--memory-pressure NODE:SUBJECT=MEMORY,...@SECONDS] [--kustomize PATH] [--kustomize-allow-remote] PATH... (- reads standard input)';

/** The options of simulate (and of plan, which takes the same). */
export interface SimulateOptions extends CommonOptions {
  readonly clusters: string[];
  /** A profile to simulate on (--profile), instead of the cluster files or the embedded default. */
  profile: string | undefined;
  version: KubernetesMinor;
  /** Whether --kubernetes-version was given: else a capture's server version is the default. */
  isVersionGiven: boolean;
  /** Stop the timeline at this time (seconds), or null to run until the cluster settles. */
  until: number | null;
  /** Scenario steps given as flags. */
  readonly steps: ScenarioStep[];
}

/** Runs the simulate command with a service (the process's own by default); resolves to the exit code. */
export function runSimulate(
  args: readonly string[],
  io: CliIo,
  service: LanguageService = createDiskLanguageService(),
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${SIMULATE_USAGE}\n\n${COMMON_OPTIONS_HELP}\n`);
    return Promise.resolve(0);
  }
  const options = parseSimulateArgs(args, io, service);
  if (typeof options === 'string') {
    io.stderr(`foresight simulate: ${options}\n${SIMULATE_USAGE}\n`);
    return Promise.resolve(2);
  }
  const readOptions = {
    recursive: options.recursive,
    kubernetesVersion: options.version,
    maxFileLength: MAX_FILE_LENGTH,
  };
  const clusterInput =
    options.clusters.length > 0
      ? readCliInput(options.clusters, io, { ...readOptions, recursive: false }, service)
      : null;
  // A capture's header names its server's version: the default when --kubernetes-version is not given.
  if (!options.isVersionGiven && clusterInput?.ok === true) {
    options.version = capturedVersion(clusterInput.files.map((file) => file.text)) ?? options.version;
  }
  const manifestInput = readCliInput(
    options.paths,
    io,
    {
      ...readOptions,
      kubernetesVersion: options.version,
      kustomize: kustomizeOptionsOf(options.kustomize, options.allowRemote, io),
    },
    service,
  );
  for (const input of [clusterInput, manifestInput]) {
    if (input?.ok === false) {
      io.stderr(`foresight simulate: ${input.message}\n${input.usage ? `${SIMULATE_USAGE}\n` : ''}`);
      return Promise.resolve(2);
    }
  }
  if (!manifestInput.ok || clusterInput?.ok === false) {
    return Promise.resolve(2);
  }
  // The one reader: documents the API server would refuse are left out (and reported), duplicates resolved.
  const read = service.readObjects(
    manifestInput.files,
    options.namespace === undefined ? {} : { namespace: options.namespace },
  );
  const profile = options.profile === undefined ? null : profileCluster(options.profile);
  const cluster =
    profile !== null && 'objects' in profile
      ? { objects: profile.objects, error: null }
      : clusterInput === null
        ? null
        : readClusterFiles(clusterInput.files, service);
  if (cluster !== null && cluster.error !== null) {
    io.stderr(`foresight simulate: ${cluster.error}\n`);
    return Promise.resolve(2);
  }
  const inputFindings: Finding[] = [
    ...inputFindingsOf(clusterInput?.files ?? [], (code) => code.startsWith('yaml-')),
    ...(clusterInput?.charts ?? []).map(chartFinding),
    ...inputFindingsOf(manifestInput.files, (code) => INPUT_NOTES.has(code) || severityOf(code) === 'error'),
    ...manifestInput.charts.map(chartFinding),
    ...read.findings,
  ];
  const result = service.simulate({
    manifests: read.objects,
    cluster: cluster === null ? null : cluster.objects,
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
  const inputFiles = [...(clusterInput?.files ?? []), ...manifestInput.files];
  // One list of findings, placed, for every output: what the text, JSON, SARIF and JUnit say is the same.
  const placed = service.placeSimulationFindings(
    inputFiles,
    [...(clusterInput?.charts ?? []), ...manifestInput.charts].map((chart) => chart.file),
    [...inputFindings, ...result.report.findings],
    result,
    options.version,
  );
  // helm template output keeps its `# Source:` comments: each finding names the chart template it came from.
  const findings = relateChartTemplates(
    service.nameHelmTemplates(placed, inputFiles),
    io.cwd,
    (path) => relative(io.cwd, path) || path,
  );
  const run: CliRun = { command: 'simulate', files: inputFiles.map(service.inputFileOf), findings };
  io.stdout(
    options.output === 'json'
      ? formatReportJson(result.report, findings)
      : options.output === 'text'
        ? formatReportText(result.report, findings)
        : formatRun(run, options.output),
  );
  return Promise.resolve(finishRun(run, options.output, options.failOn, io));
}

/** Parses the command line, or returns what is wrong with it. */
export function parseSimulateArgs(
  args: readonly string[],
  io: CliIo,
  service: LanguageService,
): SimulateOptions | string {
  const options: SimulateOptions = {
    ...commonDefaults(io, 'prediction'),
    clusters: [],
    profile: undefined,
    version: DEFAULT_KUBERNETES_VERSION,
    isVersionGiven: false,
    until: null,
    steps: [],
  };
  const error = readCommandLine(
    args,
    options,
    (flag, value) => readSimulateFlag(flag, value, options, service),
    'no manifest path given',
  );
  if (error === undefined && options.profile !== undefined && options.clusters.length > 0) {
    return '--profile and --cluster name two clusters: give one';
  }
  return error ?? options;
}

/** Reads one of simulate's own flags. */
function readSimulateFlag(
  flag: string,
  value: FlagValue,
  options: SimulateOptions,
  service: LanguageService,
): FlagOutcome {
  switch (flag) {
    case '--cluster': {
      const file = value();
      if (file === undefined || file === '') {
        return { error: '--cluster needs a file' };
      }
      options.clusters.push(file);
      return 'handled';
    }
    case '--kubernetes-version': {
      const version = value();
      if (!isKubernetesMinor(version)) {
        return { error: `--kubernetes-version must be one of ${ENGINE_KUBERNETES_VERSIONS.join(', ')}` };
      }
      options.version = version;
      options.isVersionGiven = true;
      return 'handled';
    }
    case '--profile': {
      const name = value() ?? '';
      const profile = profileCluster(name);
      if ('error' in profile) {
        return { error: profile.error };
      }
      options.profile = name;
      return 'handled';
    }
    case '--until': {
      const seconds = Number(value());
      if (!Number.isFinite(seconds) || seconds < 0) {
        return { error: '--until needs a number of seconds' };
      }
      options.until = seconds;
      return 'handled';
    }
    case '--drain':
    case '--fail-node':
    case '--scale':
    case '--load':
    case '--memory-pressure':
    case '--add-node': {
      const step = service.parseStepFlag(flag, value() ?? '');
      if (typeof step === 'string') {
        return { error: step };
      }
      options.steps.push(step);
      return 'handled';
    }
    default:
      return 'not-mine';
  }
}

/** Notes of the reading that a simulation prints: what was left out of it. */
export const INPUT_NOTES: ReadonlySet<string> = new Set([
  'helm-template-skipped',
  'document-not-an-object',
  'file-too-large',
  'file-not-text',
  'analysis-incomplete',
]);

/** The most characters of one file read (as the editor's default kubeForesight.maxFileSizeKB). */
export const MAX_FILE_LENGTH = 8192 * 1024;

/**
 * The cluster files' objects: through the one reader, or, for a capture too large for the editing analysis
 * (a real cluster's `kubectl get … -A -o yaml` is one List document of millions of values), as data.
 */
export function readClusterFiles(
  files: readonly InputFile[],
  service: LanguageService,
): { objects: SourcedObject[]; error: string | null } {
  const objects: SourcedObject[] = [];
  for (const file of files) {
    if (!service.isTooLargeForAnalysis(file.analysis)) {
      objects.push(...service.readObjects([file], { keepAll: true }).objects);
      continue;
    }
    const capture = service.readCapture(file.id, file.text);
    if (!capture.ok) {
      return { objects, error: `the cluster file ${file.id} could not be read: ${capture.message}` };
    }
    objects.push(...capture.objects);
  }
  return { objects, error: null };
}

/** The analyses' findings that pass `keep`, with their offsets in the file their place names. */
export function inputFindingsOf(
  files: readonly InputFile[],
  keep: (code: DiagnosticCode) => boolean,
): Finding[] {
  return files.flatMap((file) =>
    file.analysis.findings
      .filter((finding) => keep(finding.code))
      .map((finding) => ({ ...finding, place: { file: file.id } })),
  );
}

/** The note on a folder not read as manifests (a Helm chart), or the error of a kustomization that failed to render. */
export function chartFinding(chart: SkippedChart): Finding {
  const { code, severity, message } = chart.finding;
  return { code, severity, message, place: { file: chart.file } };
}
