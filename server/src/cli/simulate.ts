/**
 * `foresight simulate [--cluster FILE]... [--output text|json] [--kubernetes-version 1.35] [--until SECONDS]
 * [--drain NODE@T] [--fail-node NODE@T] [--scale [NS/]KIND/NAME=N@T] [--add-node NAME[=LIKE]@T] PATH...`: reads
 * manifests (files and directories, recursively, like `kubectl apply -f DIR`), predicts where each pod lands on
 * the cluster (the cluster files, or the embedded default cluster), then what happens over time (rollouts,
 * disruption budgets, the scenario's drains and failures), and prints the report.
 * Exit 0 when every pod is placed and the input is valid, 1 when a pod stays Pending or the input is invalid,
 * 2 on usage errors (unknown flag, missing path).
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { SourcedObject } from '../engine/model/cluster-load';
import { ENGINE_KUBERNETES_VERSIONS, DEFAULT_KUBERNETES_VERSION, isKubernetesMinor } from '../engine/version';
import type { KubernetesMinor } from '../engine/version';
import { formatReportText } from '../engine/simulate/format-text';
import type { ReportFinding, SimulationReport } from '../engine/simulate/report';
import { simulate } from '../engine/simulate/simulate';
import { parseStepFlag } from '../engine/scenario/scenario-spec';
import type { ScenarioStep } from '../engine/scenario/scenario-spec';
import type { CliIo } from './io';
import { collectManifestFiles } from './manifest-files';

/** The usage line of the simulate command. */
export const SIMULATE_USAGE =
  'usage: foresight simulate [--cluster FILE]... [--output text|json] [--kubernetes-version 1.35] [--until SECONDS] ' +
  '[--drain NODE@SECONDS] [--fail-node NODE@SECONDS] [--scale [NAMESPACE/]KIND/NAME=REPLICAS@SECONDS] ' +
  '[--add-node NAME[=LIKE]@SECONDS] PATH...';

interface SimulateOptions {
  readonly clusters: string[];
  output: 'text' | 'json';
  version: KubernetesMinor;
  readonly paths: string[];
  /** Stop the timeline at this time (seconds), or null to run until the cluster settles. */
  until: number | null;
  /** Scenario steps given as flags. */
  readonly steps: ScenarioStep[];
}

/** Runs the simulate command; resolves to the exit code. */
export function runSimulate(args: readonly string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${SIMULATE_USAGE}\n`);
    return Promise.resolve(0);
  }
  const options = parseSimulateArgs(args);
  if (typeof options === 'string') {
    io.stderr(`foresight simulate: ${options}\n${SIMULATE_USAGE}\n`);
    return Promise.resolve(2);
  }
  const manifests = collectManifestFiles(options.paths, io.cwd);
  const clusterFiles = collectManifestFiles(options.clusters, io.cwd);
  const missing = [...clusterFiles.missing, ...manifests.missing];
  if (missing.length > 0) {
    io.stderr(`foresight simulate: no such file or directory: ${missing.join(', ')}\n${SIMULATE_USAGE}\n`);
    return Promise.resolve(2);
  }
  const syntaxFindings: ReportFinding[] = [];
  const display = (file: string): string => relative(io.cwd, file) || file;
  const read = (files: readonly string[]): SourcedObject[] | string => {
    const objects: SourcedObject[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error: unknown) {
        return `cannot read ${display(file)}: ${error instanceof Error ? error.message : String(error)}`;
      }
      objects.push(...parseObjects(text, display(file), syntaxFindings));
    }
    return objects;
  };
  const manifestObjects = read(manifests.files);
  const clusterObjects = options.clusters.length > 0 ? read(clusterFiles.files) : null;
  const readError = [manifestObjects, clusterObjects].find((entry) => typeof entry === 'string');
  if (typeof readError === 'string') {
    io.stderr(`foresight simulate: ${readError}\n`);
    return Promise.resolve(2);
  }
  if (typeof manifestObjects === 'string' || typeof clusterObjects === 'string') {
    return Promise.resolve(2);
  }
  const result = simulate({
    manifests: manifestObjects,
    cluster: clusterObjects,
    clusterDescription: clusterFiles.files.map(display).join(', '),
    version: options.version,
    timeline: {
      scenario: { steps: options.steps, until: null, timing: {} },
      ...(options.until === null ? {} : { until: options.until }),
    },
  });
  const report: SimulationReport = {
    ...result.report,
    findings: [...syntaxFindings, ...result.report.findings],
  };
  io.stdout(options.output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatReportText(report));
  const isPending = report.pods.some((pod) => pod.nodeName === null);
  const hasErrors = report.findings.some((finding) => finding.severity === 'error');
  return Promise.resolve(isPending || hasErrors ? 1 : 0);
}

/** Parses the command line, or returns what is wrong with it. */
export function parseSimulateArgs(args: readonly string[]): SimulateOptions | string {
  const options: SimulateOptions = {
    clusters: [],
    output: 'text',
    version: DEFAULT_KUBERNETES_VERSION,
    paths: [],
    until: null,
    steps: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    switch (flag) {
      case '--cluster': {
        const file = value();
        if (file === undefined || file === '') {
          return '--cluster needs a file';
        }
        options.clusters.push(file);
        break;
      }
      case '--output':
      case '-o': {
        const output = value();
        if (output !== 'text' && output !== 'json') {
          return `--output must be text or json, not ${JSON.stringify(output ?? '')}`;
        }
        options.output = output;
        break;
      }
      case '--kubernetes-version': {
        const version = value();
        if (!isKubernetesMinor(version)) {
          return `--kubernetes-version must be one of ${ENGINE_KUBERNETES_VERSIONS.join(', ')}`;
        }
        options.version = version;
        break;
      }
      case '--until': {
        const seconds = Number(value());
        if (!Number.isFinite(seconds) || seconds < 0) {
          return '--until needs a number of seconds';
        }
        options.until = seconds;
        break;
      }
      case '--drain':
      case '--fail-node':
      case '--scale':
      case '--add-node': {
        const step = parseStepFlag(flag, value() ?? '');
        if (typeof step === 'string') {
          return step;
        }
        options.steps.push(step);
        break;
      }
      default:
        if (flag.startsWith('-') && flag !== '-') {
          return `unknown option ${flag}`;
        }
        options.paths.push(arg);
    }
  }
  if (options.paths.length === 0) {
    return 'no manifest path given';
  }
  return options;
}

function splitOnce(arg: string): [string, string] {
  const index = arg.indexOf('=');
  return [arg.slice(0, index), arg.slice(index + 1)];
}

/** Every non-empty YAML document of a file as a plain object with its source; syntax errors become findings. */
export function parseObjects(text: string, file: string, findings: ReportFinding[]): SourcedObject[] {
  const objects: SourcedObject[] = [];
  parseAllDocuments(text).forEach((document, documentIndex) => {
    if (document.errors.length > 0) {
      for (const error of document.errors) {
        const message = `YAML syntax error: ${error.message.split('\n')[0] ?? error.message}`;
        findings.push({ severity: 'error', code: 'syntax-error', file, documentIndex, path: [], message });
      }
      return;
    }
    const object: unknown = document.toJS({ maxAliasCount: 1000 });
    if (object !== null && object !== undefined) {
      objects.push({ object, source: { file, documentIndex, path: [] } });
    }
  });
  return objects;
}
