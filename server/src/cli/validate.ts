/**
 * `foresight validate PATH...`: the language server's validation, run over files and directories, printed as
 * `file:line:col: severity code message`, or as JSON, SARIF or JUnit XML (--output). Exit 1 when a finding counts
 * at --fail-on (by default: an error), 0 when clean, 2 on usage.
 */
import { isKubernetesVersion, SUPPORTED_KUBERNETES_VERSIONS } from '../../../protocol/settings';
import type { CliRun, Finding, LanguageService } from '../language/service';
import { helmTemplateOf, regionOf } from './formats/finding-places';
import { relative } from 'node:path';
import { relateChartTemplates } from '../files/helm-charts';
import { createDiskLanguageService } from '../files/schema-files';
import type { CliIo } from './io';
import { finishRun, formatRun } from './outcome';
import type { CommonOptions } from './command-line';
import { commonDefaults, readCommandLine } from './command-line';
import { kustomizeRendersAhead, readCliTexts } from './read-input';
import { startValidatePool, validateInNewPool, validateInThreads } from './parallel/validate-in-threads';
import { likelyThreadsFor, validatesInPool, validateThreadsFor } from './parallel/thread-count';
import type { WorkerPool } from './parallel/worker-pool';
import type { ReportedEntry } from './formats/validate-text';
import { formatValidateText } from './formats/validate-text';

/** The usage line of the validate command. */
export const VALIDATE_USAGE =
  'usage: foresight validate [-R] [--kubernetes-version 1.35] [--output text|json|sarif|junit] ' +
  '[-n NAMESPACE] [--fail-on error|warning|prediction|never] [--max-file-size-kb N] [--kustomize PATH] [--kustomize-allow-remote] ' +
  'PATH... (- reads standard input)';

interface ValidateOptions extends CommonOptions {
  kubernetesVersion: string;
  maxFileSizeKB: number;
}

/** Runs the validate command with a service (the process's own by default); resolves to the exit code. */
export async function runValidate(
  args: readonly string[],
  io: CliIo,
  service: LanguageService = createDiskLanguageService(),
): Promise<number> {
  const options = parseValidateArgs(args, io);
  if (typeof options === 'string') {
    io.stderr(`foresight validate: ${options}\n${VALIDATE_USAGE}\n`);
    return 2;
  }
  const analyze = {
    kubernetesVersion: options.kubernetesVersion,
    maxFileLength: options.maxFileSizeKB * 1024,
  };
  // The workers load the bundle, the schemas and the validators while this thread reads the input.
  const likely = io.workerScript === undefined ? 1 : likelyThreadsFor(options.paths, io);
  const pool =
    likely > 1 && io.workerScript !== undefined
      ? startValidatePool(analyze, io.workerScript, likely, service)
      : undefined;
  try {
    return await validateWith(options, analyze, io, service, pool);
  } finally {
    await pool?.close();
  }
}

async function validateWith(
  options: ValidateOptions,
  analyze: { readonly kubernetesVersion: string; readonly maxFileLength: number },
  io: CliIo,
  service: LanguageService,
  pool: WorkerPool | undefined,
): Promise<number> {
  const kustomize = await kustomizeRendersAhead(options, io);
  const input = readCliTexts(
    options.paths,
    io,
    { ...analyze, recursive: options.recursive, kustomize },
    service,
  );
  if (!input.ok) {
    io.stderr(`foresight validate: ${input.message}\n`);
    return 2;
  }
  const threads = validateThreadsFor(input.texts, io);
  const namespaced = options.namespace === undefined ? {} : { namespace: options.namespace };
  if (threads <= 1) {
    // The input read is small, or one thread is best: the workers started early are not needed.
    await pool?.close();
  }
  // Workers not started early (the paths did not look like many files) are started now; a large input in one
  // thread goes through a pool of this thread alone, which keeps less of each file (validatesInPool).
  const validated =
    !validatesInPool(input.texts, threads) || io.workerScript === undefined
      ? service.validateFiles(service.analyzeInputs(input.texts, analyze), namespaced)
      : pool === undefined || threads <= 1
        ? await validateInNewPool(input.texts, analyze, io.workerScript, threads, service, namespaced)
        : await validateInThreads(input.texts, pool, service, namespaced);
  const files = validated.map((entry) => entry.file);
  let findings: Finding[] = [];
  // Two kustomizations that render one source file give two inputs of one name: a finding at the same place of
  // that file is said once.
  const said = new Set<string>();
  // The apply unit of each finding, for the text output's groups.
  const units = new Map<Finding, string>();
  for (const { file, findings: own } of validated) {
    for (const finding of own) {
      const placed = service.placeFindingAt(file, finding.start, finding.end, finding);
      const key = JSON.stringify([placed.place?.file, regionOf(placed), placed.code, placed.message]);
      if (!said.has(key)) {
        said.add(key);
        findings.push(placed);
        if (file.applyUnit !== undefined) {
          units.set(placed, file.applyUnit);
        }
      }
    }
  }
  // helm template output keeps its `# Source:` comments: each finding names the chart template it came from.
  findings = relateChartTemplates(
    service.nameHelmTemplates(findings, files),
    io.cwd,
    (path) => relative(io.cwd, path) || path,
  );
  for (const chart of input.charts) {
    const { code, severity, message } = chart.finding;
    const placed: Finding = { code, severity, message, place: chart.finding.place ?? { file: chart.file } };
    findings.push(placed);
    if (chart.unit !== undefined) {
      units.set(placed, chart.unit);
    }
  }
  const run: CliRun = { command: 'validate', files: files.map(service.inputFileOf), findings };
  const reported = findings.map(toReported);
  const unitOfReported = new Map(
    reported.map((entry, index) => [entry, units.get(findings[index] as Finding)]),
  );
  const objects = files.reduce(
    (count, file) =>
      file.analysis.kustomizeFragment === true
        ? count
        : count + file.analysis.documents.reduce((sum, document) => sum + document.objects.length, 0),
    0,
  );
  const errors = reported.filter((finding) => finding.severity === 'error').length;
  if (options.output === 'json') {
    io.stdout(
      `${JSON.stringify(
        {
          apiVersion: 'foresight/v1',
          kubernetesVersion: options.kubernetesVersion,
          files: input.filesRead,
          units: input.units,
          gitopsUnits: input.units.flatMap((unit) => unit.gitops ?? []),
          objects,
          charts: input.charts.length,
          summary: {
            errors,
            warnings: reported.filter((finding) => finding.severity === 'warning').length,
            information: reported.filter((finding) => finding.severity === 'information').length,
          },
          findings: reported,
        },
        null,
        2,
      )}\n`,
    );
  } else if (options.output === 'text') {
    io.stdout(
      formatValidateText(reported, (entry) => unitOfReported.get(entry), {
        filesRead: input.filesRead,
        units: input.units,
        objects,
        kubernetesVersion: options.kubernetesVersion,
      }),
    );
  } else {
    io.stdout(formatRun(run, options.output));
  }
  return finishRun(run, options.output, options.failOn, io);
}

/** A finding as text and JSON report it; a file not read as text (a Helm chart's) is at 1:1. */
function toReported(finding: Finding): ReportedEntry {
  const region = regionOf(finding) ?? { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 };
  return {
    file: finding.place?.file ?? '',
    line: region.startLine,
    column: region.startColumn,
    endLine: region.endLine,
    endColumn: region.endColumn,
    severity: finding.severity,
    code: finding.code,
    message: finding.message,
    ...(helmTemplateOf(finding) === undefined ? {} : { source: helmTemplateOf(finding) }),
    ...(finding.related === undefined || finding.related.length === 0
      ? {}
      : {
          related: finding.related.flatMap((entry) =>
            entry.place === undefined ? [] : [{ file: entry.place.file, message: entry.message }],
          ),
        }),
  };
}

function parseValidateArgs(args: readonly string[], io: CliIo): ValidateOptions | string {
  const options: ValidateOptions = {
    ...commonDefaults(io, 'error'),
    kubernetesVersion: '1.35',
    maxFileSizeKB: 8192,
  };
  const error = readCommandLine(
    args,
    options,
    (flag, value) => {
      switch (flag) {
        case '--kubernetes-version': {
          const version = value();
          if (!isKubernetesVersion(version)) {
            return {
              error: `--kubernetes-version must be one of ${SUPPORTED_KUBERNETES_VERSIONS.join(', ')}`,
            };
          }
          options.kubernetesVersion = version;
          return 'handled';
        }
        case '--max-file-size-kb': {
          const size = Number(value());
          if (!Number.isFinite(size) || size <= 0) {
            return { error: '--max-file-size-kb must be a positive number' };
          }
          options.maxFileSizeKB = size;
          return 'handled';
        }
        default:
          return 'not-mine';
      }
    },
    'no PATH given',
  );
  return error ?? options;
}
