/**
 * What `foresight validate` and `foresight simulate` share after their analysis: the output formats, `--fail-on`
 * (which findings make the exit code 1), GitHub's annotations, and the last line that says why the exit is 1.
 */
import type { CliRun, Finding } from '../language/service';
import type { FailureClass } from './formats/finding-places';
import { failureClassOf, fileOf, subjectOf } from './formats/finding-places';
import { formatGithubAnnotations } from './formats/github-annotations';
import { formatJunit } from './formats/junit';
import { formatSarif } from './formats/sarif';
import type { CliIo } from './io';

/** The values of --output. */
export const OUTPUT_FORMATS = ['text', 'json', 'sarif', 'junit'] as const;

/** An output format. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The values of --fail-on, from the strictest. */
export const FAIL_ON_VALUES = ['warning', 'prediction', 'error', 'never'] as const;

/** When a run exits 1. */
export type FailOn = (typeof FAIL_ON_VALUES)[number];

/** The finding classes that make a run fail at each --fail-on value. */
const FAILING_CLASSES: Readonly<Record<FailOn, ReadonlySet<FailureClass>>> = {
  warning: new Set(['error', 'unchecked', 'prediction', 'warning']),
  prediction: new Set(['error', 'unchecked', 'prediction']),
  error: new Set(['error', 'unchecked']),
  never: new Set(),
};

/** The options both commands take, and the exit codes, as `foresight --help` shows them. */
export const COMMON_OPTIONS_HELP = `options of both commands:
  -R, --recursive          read sub-folders of folders too
  -n, --namespace NS       as kubectl apply -n NS: namespaced objects without a namespace go to NS; one naming
                           another namespace is refused with kubectl's error (cluster-scoped objects unaffected)
  --kubernetes-version V   the Kubernetes version to check against (1.33, 1.34, 1.35; default 1.35)
  -o, --output FORMAT      text (default), json, sarif (SARIF 2.1.0, for code scanning), or junit (JUnit XML: a
                           testsuite per file, a testcase per object, a failure per error or predicted failure)
  --fail-on LEVEL          when the exit code is 1:
                             error       an error in the input, or input not checked (a file or document
                                         over an analysis limit; the default of validate)
                             prediction  an error, or a predicted failure: a pod that stays Pending, an object
                                         the API server refuses, a drain or rollout that never finishes, a pod
                                         that never starts (the default of simulate; validate predicts nothing,
                                         so for it this is the same as error)
                             warning     an error, a predicted failure or a warning
                             never       never: report only
  -h, --help               this help

exit codes: 0 clean (nothing that --fail-on counts), 1 failed per --fail-on (the last line of text output says
why), 2 usage error (unknown option, missing path), 3 unexpected error.

GitHub Actions: with GITHUB_ACTIONS=true and text output, each finding is also printed as a workflow command
(::error, ::warning, ::notice with file, line and col) so it shows as an annotation on the pull request.`;

/** Whether a string is an output format. */
export function isOutputFormat(value: string | undefined): value is OutputFormat {
  return (OUTPUT_FORMATS as readonly (string | undefined)[]).includes(value);
}

/** Whether a string is a --fail-on value. */
export function isFailOn(value: string | undefined): value is FailOn {
  return (FAIL_ON_VALUES as readonly (string | undefined)[]).includes(value);
}

/** What is wrong with an --output value. */
export function outputFormatError(value: string | undefined): string {
  return `--output must be one of ${OUTPUT_FORMATS.join(', ')}, not ${JSON.stringify(value ?? '')}`;
}

/** What is wrong with a --fail-on value. */
export function failOnError(value: string | undefined): string {
  return `--fail-on must be one of ${FAIL_ON_VALUES.join(', ')}, not ${JSON.stringify(value ?? '')}`;
}

/** The run rendered in a machine format other than json (each command writes its own text and json). */
export function formatRun(run: CliRun, format: 'sarif' | 'junit'): string {
  return format === 'sarif' ? formatSarif(run) : formatJunit(run);
}

/** The findings that fail a run at a --fail-on value. */
export function failingFindings(findings: readonly Finding[], failOn: FailOn): Finding[] {
  const classes = FAILING_CLASSES[failOn];
  return findings.filter((finding) => classes.has(failureClassOf(finding)));
}

/**
 * Writes what follows a command's output and returns the exit code: with text output, GitHub's annotations (when
 * GITHUB_ACTIONS is true) and, on exit 1, a last line that says why; with another format, that line on stderr.
 */
export function finishRun(run: CliRun, output: OutputFormat, failOn: FailOn, io: CliIo): number {
  if (output === 'text' && io.env?.['GITHUB_ACTIONS'] === 'true') {
    io.stdout(formatGithubAnnotations(run.findings));
  }
  const failing = failingFindings(run.findings, failOn);
  if (failing.length === 0) {
    return 0;
  }
  const reason = exitReason(failing, failOn);
  if (output === 'text') {
    io.stdout(`${reason}\n`);
  } else {
    io.stderr(`foresight ${run.command}: ${reason}\n`);
  }
  return 1;
}

/**
 * "exit 1: 2 errors, 1 input not checked [1 file-too-large], 1 predicted failure [1 pod-unschedulable] (--fail-on
 * prediction)". One failure shown on several fields (replicas
 * Pending for want of both cpu and memory: on each request) counts once.
 */
function exitReason(failing: readonly Finding[], failOn: FailOn): string {
  const distinct = new Map(
    failing.map((finding) => [
      JSON.stringify([finding.code, fileOf(finding), subjectOf(finding), finding.message]),
      finding,
    ]),
  );
  const count = (failureClass: FailureClass): number =>
    [...distinct.values()].filter((finding) => failureClassOf(finding) === failureClass).length;
  // Which predictions (and unchecked inputs) fail, by code, so that the count can be matched with what was printed.
  const codesOf = (failureClass: FailureClass): string => {
    const byCode = new Map<string, number>();
    for (const finding of distinct.values()) {
      if (failureClassOf(finding) === failureClass) {
        byCode.set(finding.code, (byCode.get(finding.code) ?? 0) + 1);
      }
    }
    return `[${[...byCode].map(([code, n]) => `${n} ${code}`).join(', ')}]`;
  };
  const withCodes = (failureClass: FailureClass, one: string, many: string): string => {
    const part = counted(count(failureClass), one, many);
    return part === '' ? '' : `${part} ${codesOf(failureClass)}`;
  };
  const parts = [
    counted(count('error'), 'error', 'errors'),
    withCodes('unchecked', 'input not checked', 'inputs not checked'),
    withCodes('prediction', 'predicted failure', 'predicted failures'),
    counted(count('warning'), 'warning', 'warnings'),
  ].filter((part) => part !== '');
  return `exit 1: ${parts.join(', ')} (--fail-on ${failOn})`;
}

function counted(count: number, one: string, many: string): string {
  return count === 0 ? '' : `${count} ${count === 1 ? one : many}`;
}
