/**
 * `foresight validate PATH...`: the language server's validation, run over files and directories, printed as
 * `file:line:col: severity code message` (or JSON). Exit 1 when there is an error, 0 when clean, 2 on usage.
 */
import { isKubernetesVersion, SUPPORTED_KUBERNETES_VERSIONS } from '../../../protocol/settings';
import { allFindingsOf, crossObjectFindings } from '../language/workspace-findings';
import { severityOf } from '../language/findings';
import type { Finding, Severity } from '../language/findings';
import { LineIndex } from '../language/text/line-index';
import { placeReaderFindings } from '../language/manifests/place-findings';
import { readManifests } from '../language/manifests/read-manifests';
import { describePlaceIn } from '../language/manifests/describe-place';
import type { CliIo } from './io';
import { readCliInput } from './read-input';

/** The usage line of the validate command. */
export const VALIDATE_USAGE =
  'usage: foresight validate [-R] [--kubernetes-version 1.35] [--output text|json] [--max-file-size-kb N] PATH... (- reads standard input)';

interface ValidateOptions {
  kubernetesVersion: string;
  recursive: boolean;
  output: 'text' | 'json';
  maxFileSizeKB: number;
  paths: string[];
}

/** One finding as the CLI reports it (1-based line and column). */
interface ReportedFinding {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Severity;
  code: string;
  message: string;
}

/** Runs the validate command; resolves to the exit code. */
export function runValidate(args: readonly string[], io: CliIo): Promise<number> {
  const options = parseValidateArgs(args);
  if (typeof options === 'string') {
    io.stderr(`foresight validate: ${options}\n${VALIDATE_USAGE}\n`);
    return Promise.resolve(2);
  }
  const input = readCliInput(options.paths, io, {
    recursive: options.recursive,
    kubernetesVersion: options.kubernetesVersion,
    maxFileLength: options.maxFileSizeKB * 1024,
  });
  if (!input.ok) {
    io.stderr(`foresight validate: ${input.message}\n`);
    return Promise.resolve(2);
  }
  const { files } = input;
  const reported: ReportedFinding[] = [];
  const cross = crossObjectFindings(files);
  // The reader's findings: the same object defined twice, generateName refused by kubectl apply.
  const read = placeReaderFindings(
    readManifests(files, { describePlace: describePlaceIn(files) }).findings,
    files,
  );
  for (const { id, analysis, lines } of files) {
    for (const finding of allFindingsOf(analysis, [...(cross.get(id) ?? []), ...(read.get(id) ?? [])])) {
      reported.push(toReported(id, finding, lines));
    }
  }
  for (const chart of input.charts) {
    reported.push(toReported(chart.file, chart.finding, new LineIndex('')));
  }
  const errors = reported.filter((finding) => finding.severity === 'error').length;
  if (options.output === 'json') {
    io.stdout(
      `${JSON.stringify(
        {
          apiVersion: 'foresight/v1',
          kubernetesVersion: options.kubernetesVersion,
          files: files.length,
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
  } else {
    for (const finding of reported) {
      io.stdout(
        `${finding.file}:${finding.line}:${finding.column}: ${finding.severity} ${finding.code} ${finding.message}\n`,
      );
    }
    io.stdout(
      `${files.length} file(s) checked against Kubernetes ${options.kubernetesVersion}: ${errors} error(s), ${reported.length - errors} other finding(s).\n`,
    );
  }
  return Promise.resolve(errors > 0 ? 1 : 0);
}

function toReported(file: string, finding: Finding, lines: LineIndex): ReportedFinding {
  const start = lines.positionAt(finding.start);
  const end = lines.positionAt(finding.end);
  return {
    file,
    line: start.line + 1,
    column: start.character + 1,
    endLine: end.line + 1,
    endColumn: end.character + 1,
    severity: severityOf(finding.code),
    code: finding.code,
    message: finding.message,
  };
}

function parseValidateArgs(args: readonly string[]): ValidateOptions | string {
  const options: ValidateOptions = {
    kubernetesVersion: '1.35',
    recursive: false,
    output: 'text',
    maxFileSizeKB: 8192,
    paths: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [flag, inlineValue] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string | undefined => inlineValue ?? args[++i];
    switch (flag) {
      case '--kubernetes-version': {
        const version = value();
        if (!isKubernetesVersion(version)) {
          return `--kubernetes-version must be one of ${SUPPORTED_KUBERNETES_VERSIONS.join(', ')}`;
        }
        options.kubernetesVersion = version;
        break;
      }
      case '--output':
      case '-o': {
        const output = value();
        if (output !== 'text' && output !== 'json') {
          return '--output must be text or json';
        }
        options.output = output;
        break;
      }
      case '-R':
      case '--recursive':
        options.recursive = true;
        break;
      case '--max-file-size-kb': {
        const size = Number(value());
        if (!Number.isFinite(size) || size <= 0) {
          return '--max-file-size-kb must be a positive number';
        }
        options.maxFileSizeKB = size;
        break;
      }
      default:
        if (arg.startsWith('-') && arg !== '-') {
          return `unknown option ${arg}`;
        }
        options.paths.push(arg);
    }
  }
  if (options.paths.length === 0) {
    return 'no PATH given';
  }
  return options;
}
