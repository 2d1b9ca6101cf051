/**
 * `foresight simulate [-R] [--cluster FILE]... [--output text|json|sarif|junit] [--fail-on LEVEL]
 * [--kubernetes-version 1.35] [--until SECONDS] [--drain NODE@T] [--fail-node NODE@T] [--scale [NS/]KIND/NAME=N@T]
 * [--add-node NAME[=LIKE]@T] PATH...`: reads
 * manifests as `kubectl apply -f PATH` does (cli/read-input.ts: files, folders, sub-folders with -R, `-` for
 * standard input; the one manifest reader for objects), predicts where each pod lands on
 * the cluster (--cluster's files or --profile for every unit; else each apply unit on its nearest
 * `.foresight/cluster.yaml`, units of one cluster file simulated together, or the embedded default:
 * cli/unit-clusters.ts), then what happens over time (rollouts, disruption budgets, the scenario's drains and
 * failures), and prints one report of every simulation (text, JSON, SARIF or JUnit XML).
 * Exit 1 when a finding counts at --fail-on (by default `prediction`: an error of the input, a pod that stays
 * Pending, an object the API server refuses, a predicted failure such as a drain that never finishes), 0 when
 * none does, 2 on usage errors (unknown flag, missing path).
 */
import type { CliRun, KubernetesMinor, LanguageService, ScenarioStep } from '../language/service';
import {
  DEFAULT_KUBERNETES_VERSION,
  ENGINE_KUBERNETES_VERSIONS,
  isKubernetesMinor,
} from '../language/service';
import { createDiskLanguageService } from '../files/schema-files';
import { profileCluster } from './profiles';
import type { CliIo } from './io';
import { formatSimulationsText } from './formats/simulations-text';
import { formatSimulationsJson, writeSimulationsJson } from './formats/report-json';
import { COMMON_OPTIONS_HELP, finishRun, formatRun } from './outcome';
import type { CommonOptions, FlagOutcome, FlagValue } from './command-line';
import { commonDefaults, readCommandLine } from './command-line';
import type { GroupRun } from './simulate-group';
import { readCommandInput, simulateGroup } from './simulate-group';
import { gitopsUnitLines, withGitopsUnits } from '../files/gitops/gitops-texts';
import { kustomizeRendersAhead } from './read-input';

/** The usage line of the simulate command. */
export const SIMULATE_USAGE =
  'usage: foresight simulate [-R] [-n NAMESPACE] [--cluster FILE]... [--output text|json|sarif|junit] ' +
  '[--profile NAME] [--fail-on error|warning|prediction|never] [--kubernetes-version 1.35] [--until SECONDS] ' +
  '[--drain NODE@SECONDS] [--fail-node NODE@SECONDS] [--scale [NAMESPACE/]KIND/NAME=REPLICAS@SECONDS] ' +
  '[--add-node NAME[=LIKE]@SECONDS] [--load [NAMESPACE/]KIND/NAME=PERCENT%|CPU@SECONDS] [--memory-pressure NODE:SUBJECT=MEMORY,...@SECONDS] [--kustomize PATH] [--kustomize-allow-remote] PATH... (- reads standard input)';

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
export async function runSimulate(
  args: readonly string[],
  io: CliIo,
  service: LanguageService = createDiskLanguageService(),
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${SIMULATE_USAGE}\n\n${COMMON_OPTIONS_HELP}\n`);
    return 0;
  }
  const options = parseSimulateArgs(args, io, service);
  if (typeof options === 'string') {
    io.stderr(`foresight simulate: ${options}\n${SIMULATE_USAGE}\n`);
    return 2;
  }
  const kustomize = await kustomizeRendersAhead(options, io);
  const read = readCommandInput('simulate', SIMULATE_USAGE, options, io, service, kustomize);
  if ('exitCode' in read) {
    return read.exitCode;
  }
  const { input, groups } = read;
  const runs: GroupRun[] = [];
  for (const group of groups) {
    const run = simulateGroup(group, options, io, service);
    if ('error' in run) {
      io.stderr(`foresight simulate: ${run.error}\n`);
      return 2;
    }
    runs.push(run);
  }
  const findings = runs.flatMap((run) => run.findings);
  const run: CliRun = {
    command: 'simulate',
    files: runs.flatMap((entry) => entry.files).map(service.inputFileOf),
    findings,
  };
  const counts = {
    filesRead: input.filesRead,
    units: input.units.length,
    objects: runs.reduce((sum, entry) => sum + entry.objects, 0),
  };
  // GitOps units (files/gitops/) are listed: a line each in text, a field in JSON.
  const gitopsUnits = input.units.flatMap((unit) => unit.gitops ?? []);
  if (options.output === 'json' && gitopsUnits.length === 0) {
    // In pieces: a large cluster's report is too large to hold twice as one string.
    writeSimulationsJson(runs, io.cwd, (piece) => io.stdout(piece));
    return finishRun(run, options.output, options.failOn, io);
  }
  io.stdout(
    options.output === 'json'
      ? withGitopsUnits(formatSimulationsJson(runs, io.cwd), gitopsUnits)
      : options.output === 'text'
        ? gitopsUnitLines(gitopsUnits) + formatSimulationsText(runs, counts)
        : formatRun(run, options.output),
  );
  return finishRun(run, options.output, options.failOn, io);
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
