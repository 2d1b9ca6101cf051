/**
 * `foresight validate PATH...`: the language server's validation, run over files and directories, printed as
 * `file:line:col: severity code message` (or JSON). Exit 1 when there is an error, 0 when clean, 2 on usage.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { isKubernetesVersion, SUPPORTED_KUBERNETES_VERSIONS } from '../../../protocol/settings';
import { analyzeText } from '../language/analyzer';
import { allFindingsOf, crossObjectFindings } from '../language/workspace-findings';
import { severityOf } from '../language/findings';
import type { Finding, Severity } from '../language/findings';
import { LineIndex } from '../language/text/line-index';
import { customKindsOf, getAnalysisContext } from '../host/analysis-context';
import type { CliIo } from './io';
import { collectManifestFiles } from './manifest-files';

/** The usage line of the validate command. */
export const VALIDATE_USAGE =
  'usage: foresight validate [--kubernetes-version 1.35] [--output text|json] [--max-file-size-kb N] PATH...';

interface ValidateOptions {
  kubernetesVersion: string;
  output: 'text' | 'json';
  maxFileSizeKB: number;
  paths: string[];
}

/** One finding as the CLI reports it (1-based line and column). */
export interface ReportedFinding {
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
  const { files, missing } = collectManifestFiles(options.paths, io.cwd);
  if (missing.length > 0) {
    io.stderr(`foresight validate: no such file or directory: ${missing.join(', ')}\n`);
    return Promise.resolve(2);
  }
  const context = getAnalysisContext(options.kubernetesVersion, options.maxFileSizeKB * 1024);
  const reported: ReportedFinding[] = [];
  const texts: { id: string; text: string }[] = [];
  for (const file of files) {
    const display = relative(io.cwd, file) || file;
    try {
      texts.push({ id: display, text: readFileSync(file, 'utf8') });
    } catch (error: unknown) {
      io.stderr(
        `foresight validate: cannot read ${display}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return Promise.resolve(2);
    }
  }
  let analysed = texts.map(({ id, text }) => ({
    id,
    analysis: analyzeText(text, context),
    lines: new LineIndex(text),
  }));
  // CustomResourceDefinitions among the files define kinds that the other files may use: analyse again with them.
  const customKinds = customKindsOf(analysed.map((file) => file.analysis));
  if (customKinds !== undefined) {
    const withCrds = getAnalysisContext(options.kubernetesVersion, options.maxFileSizeKB * 1024, customKinds);
    analysed = texts.map(({ id, text }, index) => ({
      id,
      analysis: analyzeText(text, withCrds),
      lines: analysed[index]?.lines ?? new LineIndex(text),
    }));
  }
  const cross = crossObjectFindings(analysed);
  for (const { id, analysis, lines } of analysed) {
    for (const finding of allFindingsOf(analysis, cross.get(id))) {
      reported.push(toReported(id, finding, lines));
    }
  }
  const errors = reported.filter((finding) => finding.severity === 'error').length;
  if (options.output === 'json') {
    io.stdout(
      `${JSON.stringify(
        {
          apiVersion: 'foresight/v1',
          kubernetesVersion: options.kubernetesVersion,
          files: files.length,
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
