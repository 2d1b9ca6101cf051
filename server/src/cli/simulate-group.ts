/**
 * One simulation of `foresight simulate`: the units of one cluster group (cli/unit-clusters.ts) analysed with the
 * Kubernetes version of their cluster (a capture's, unless --kubernetes-version is given), read by the one
 * manifest reader, applied to that cluster, and the findings placed on the files. A command line with units on
 * several cluster files runs one of these per cluster file, each on its own: no object of one reaches another.
 */
import type {
  DiagnosticCode,
  Finding,
  InputFile,
  KubernetesMinor,
  LanguageService,
  ScenarioStep,
  SimulationReport,
  SkippedChart,
  SourcedObject,
} from '../language/service';
import { capturedVersion, chosenVersion, severityOf, UNCHECKED_CODES } from '../language/service';
import { relative } from 'node:path';
import { relateChartTemplates } from '../files/helm-charts';
import type { CliIo } from './io';
import { profileCluster } from './profiles';
import type { CliTexts } from './read-input';
import { readCliInput, readCliTexts } from './read-input';
import type { ClusterGroup } from './unit-clusters';
import { clusterNameOf, groupUnitsByCluster, oneGroup } from './unit-clusters';
import type { KustomizeOptions } from '../files/kustomize/kustomization-units';
import { appendAll } from '../../../protocol/collections';

/** What every simulation of a command line shares: its flags. */
export interface GroupSettings {
  /** The cluster files given with --cluster (then there is one group). */
  readonly clusters: readonly string[];
  readonly profile: string | undefined;
  readonly version: KubernetesMinor;
  readonly isVersionGiven: boolean;
  readonly until: number | null;
  readonly steps: readonly ScenarioStep[];
  readonly namespace: string | undefined;
}

/** One simulation's outcome: its report, its placed findings and what it read. */
export interface GroupRun {
  readonly group: ClusterGroup;
  /** The cluster as the text header names it. */
  readonly clusterName: string;
  readonly report: SimulationReport;
  readonly findings: Finding[];
  /** The cluster files, then the manifests. */
  readonly files: InputFile[];
  /** The objects applied (after the reader left out what the API server would refuse). */
  readonly objects: number;
}

/** The flags that say what a command line reads. */
interface InputFlags {
  readonly paths: readonly string[];
  readonly recursive: boolean;
  readonly version: KubernetesMinor;
  readonly kustomize: string | undefined;
  readonly allowRemote: boolean;
  readonly clusters: readonly string[];
  readonly profile: string | undefined;
}

/** A command line's input read and grouped by cluster, or the usage error already written (exit code 2). */
type CommandInput =
  | {
      readonly input: Extract<CliTexts, { ok: true }>;
      readonly groups: ClusterGroup[];
      /** --cluster or --profile named the one cluster of every unit. */
      readonly isClusterGiven: boolean;
    }
  | { readonly exitCode: 2 };

/**
 * Reads the paths of `foresight simulate` or `foresight plan` the one way both read them (kustomizations rendered,
 * Helm charts, GitOps units) and groups the units by cluster: one group when --cluster or --profile names it,
 * else each unit on its nearest cluster file. A path that cannot be read is written to stderr with the usage.
 */
export function readCommandInput(
  command: 'simulate' | 'plan',
  usage: string,
  flags: InputFlags,
  io: CliIo,
  service: LanguageService,
  /** The command line's kustomize options, its renders made ahead (read-input.ts kustomizeRendersAhead). */
  kustomize: KustomizeOptions,
): CommandInput {
  const input = readCliTexts(
    flags.paths,
    io,
    {
      recursive: flags.recursive,
      kubernetesVersion: flags.version,
      maxFileLength: MAX_FILE_LENGTH,
      kustomize,
    },
    service,
  );
  if (!input.ok) {
    io.stderr(`foresight ${command}: ${input.message}\n${input.usage ? `${usage}\n` : ''}`);
    return { exitCode: 2 };
  }
  const isClusterGiven = flags.clusters.length > 0 || flags.profile !== undefined;
  const groups = isClusterGiven ? [oneGroup(input)] : groupUnitsByCluster(input, io.cwd);
  return { input, groups, isClusterGiven };
}

/** One group read: its cluster and its manifests, analysed with the cluster's version, before any simulation. */
export interface GroupInput {
  readonly version: KubernetesMinor;
  /** The cluster files read (none for a profile). */
  readonly clusterFiles: InputFile[];
  /** The cluster's objects, or null for the embedded default cluster. */
  readonly cluster: SourcedObject[] | null;
  readonly clusterDescription: string;
  /** The cluster as the text header names it. */
  readonly clusterName: string;
  /** The manifests' files, analysed. */
  readonly manifests: InputFile[];
  /** The objects applied (the one reader's: what the API server would refuse is left out). */
  readonly objects: SourcedObject[];
  /** The reading's findings (left-out documents, charts, the reader's), not placed yet. */
  readonly inputFindings: Finding[];
  /** The files of notes that are no input file (a chart's Chart.yaml, a kustomization not rendered). */
  readonly chartFiles: string[];
}

/**
 * Reads one group: its cluster (--cluster's files, the profile, else the group's cluster file) and its manifests,
 * or says why it cannot be (a cluster file that cannot be read: a usage error). `foresight plan` reads its groups
 * with it too.
 */
export function readGroup(
  group: ClusterGroup,
  settings: GroupSettings,
  io: CliIo,
  service: LanguageService,
): GroupInput | { readonly error: string } {
  const clusterPaths =
    settings.clusters.length > 0
      ? settings.clusters
      : group.clusterPath === undefined
        ? []
        : [group.clusterPath];
  const readOptions = {
    recursive: false,
    kubernetesVersion: settings.version,
    maxFileLength: MAX_FILE_LENGTH,
  };
  const clusterInput = clusterPaths.length > 0 ? readCliInput(clusterPaths, io, readOptions, service) : null;
  if (clusterInput?.ok === false) {
    return { error: clusterInput.message };
  }
  // A capture's header names its server's version: the default when --kubernetes-version is not given.
  const version = chosenVersion(settings.version, settings.isVersionGiven || clusterInput === null, () =>
    capturedVersion(clusterInput?.files.map((file) => file.text) ?? []),
  );
  const manifests = service.analyzeInputs(group.texts, {
    kubernetesVersion: version,
    maxFileLength: MAX_FILE_LENGTH,
  });
  // The one reader: documents the API server would refuse are left out (and reported), duplicates resolved.
  const read = service.readObjects(
    manifests,
    settings.namespace === undefined ? {} : { namespace: settings.namespace },
  );
  const profile = settings.profile === undefined ? null : profileCluster(settings.profile);
  const cluster =
    profile !== null && 'objects' in profile
      ? { objects: profile.objects, error: null }
      : clusterInput === null
        ? null
        : readClusterFiles(clusterInput.files, service);
  if (cluster !== null && cluster.error !== null) {
    return { error: cluster.error };
  }
  const clusterCharts = clusterInput?.charts ?? [];
  const inputFindings: Finding[] = [
    ...inputFindingsOf(clusterInput?.files ?? [], (code) => code.startsWith('yaml-')),
    ...clusterCharts.map(chartFinding),
    ...inputFindingsOf(manifests, (code) => INPUT_NOTES.has(code) || severityOf(code) === 'error'),
    ...group.charts.map(chartFinding),
    ...read.findings,
  ];
  const clusterFileNames = (clusterInput?.files ?? []).map((file) => file.id).join(', ');
  return {
    version,
    clusterFiles: [...(clusterInput?.files ?? [])],
    cluster: cluster === null ? null : [...cluster.objects],
    clusterDescription: profile !== null && 'objects' in profile ? profile.description : clusterFileNames,
    clusterName:
      profile !== null && 'objects' in profile
        ? profile.description
        : settings.clusters.length > 0
          ? clusterFileNames
          : clusterNameOf(group, io.cwd),
    manifests,
    objects: [...read.objects],
    inputFindings,
    chartFiles: [...clusterCharts, ...group.charts].map((chart) => chart.file),
  };
}

/** Simulates one group, or says why it cannot be (a cluster file that cannot be read: a usage error). */
export function simulateGroup(
  group: ClusterGroup,
  settings: GroupSettings,
  io: CliIo,
  service: LanguageService,
): GroupRun | { readonly error: string } {
  const input = readGroup(group, settings, io, service);
  if ('error' in input) {
    return input;
  }
  const result = service.simulate({
    manifests: input.objects,
    cluster: input.cluster,
    clusterDescription: input.clusterDescription,
    version: input.version,
    timeline: {
      scenario: { steps: [...settings.steps], until: null, timing: {} },
      ...(settings.until === null ? {} : { until: settings.until }),
    },
  });
  const files = [...input.clusterFiles, ...input.manifests];
  // One list of findings, placed, for every output: what the text, JSON, SARIF and JUnit say is the same.
  const placed = service.placeSimulationFindings(
    files,
    input.chartFiles,
    [...input.inputFindings, ...result.report.findings],
    result,
    input.version,
  );
  return {
    group,
    clusterName: input.clusterName,
    report: result.report,
    findings: namedTemplates(placed, files, io, service),
    files,
    objects: input.objects.length,
  };
}

/** helm template output keeps its `# Source:` comments: each finding names the chart template it came from. */
export function namedTemplates(
  findings: Finding[],
  files: readonly InputFile[],
  io: CliIo,
  service: LanguageService,
): Finding[] {
  return relateChartTemplates(
    service.nameHelmTemplates(findings, files),
    io.cwd,
    (path) => relative(io.cwd, path) || path,
  );
}

/** Notes of the reading that a simulation prints: what was left out of it (input not checked among them). */
export const INPUT_NOTES: ReadonlySet<string> = new Set([
  'helm-template-skipped',
  'document-not-an-object',
  'file-not-text',
  ...UNCHECKED_CODES,
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
      appendAll(objects, service.readObjects([file], { keepAll: true }).objects);
      continue;
    }
    const capture = service.readCapture(file.id, file.text);
    if (!capture.ok) {
      return { objects, error: `the cluster file ${file.id} could not be read: ${capture.message}` };
    }
    appendAll(objects, capture.objects);
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
  return { code, severity, message, place: chart.finding.place ?? { file: chart.file } };
}
