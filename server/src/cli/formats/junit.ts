/**
 * A run as JUnit XML, for CI systems that show test reports: one <testsuite> per input file (name: the file's
 * path), one <testcase> per object (name "Kind namespace/name", classname the file), and for each finding of the
 * object that fails a run at --fail-on prediction (an error, or a predicted failure of simulate: a pod that stays
 * Pending, an object the API server refuses, a drain or rollout that never finishes) a
 * <failure message="…" type="CODE">. Warnings and notes are lines of the test case's <system-out>. A finding on no
 * object is a test case named after its document ("document 2"), or after the file when the file was not read as
 * YAML; a finding on no file (the cluster as a whole) is in a test suite "cluster". `failures` counts the test
 * cases with a failure, `tests` the test cases. The layout follows the schema most consumers read (Jenkins
 * xunit-plugin junit-10.xsd); characters XML 1.0 cannot carry (control characters) are written as \uXXXX.
 */
import type { CliRun, Finding } from '../../language/service';
import { failureClassOf, fileOf, fromTemplate, regionOf, subjectOf } from './finding-places';

/** The test suite of findings on no file. */
const CLUSTER_SUITE = 'cluster';

interface TestCase {
  readonly name: string;
  readonly findings: Finding[];
}

interface TestSuite {
  readonly name: string;
  readonly cases: Map<string, TestCase>;
}

/** The report as XML text. */
export function formatJunit(run: CliRun): string {
  const suites = new Map<string, TestSuite>();
  const suiteOf = (name: string): TestSuite => {
    const existing = suites.get(name);
    if (existing !== undefined) {
      return existing;
    }
    const suite = { name, cases: new Map<string, TestCase>() };
    suites.set(name, suite);
    return suite;
  };
  const caseOf = (suite: TestSuite, name: string): TestCase => {
    const existing = suite.cases.get(name);
    if (existing !== undefined) {
      return existing;
    }
    const testCase = { name, findings: [] };
    suite.cases.set(name, testCase);
    return testCase;
  };
  for (const file of run.files) {
    const suite = suiteOf(file.file);
    for (const subject of file.subjects) {
      caseOf(suite, subject);
    }
  }
  for (const finding of run.findings) {
    const file = fileOf(finding);
    const suite = suiteOf(file ?? CLUSTER_SUITE);
    caseOf(suite, subjectOf(finding) ?? file ?? CLUSTER_SUITE).findings.push(finding);
  }
  const rendered = [...suites.values()].map(renderSuite);
  const tests = rendered.reduce((sum, suite) => sum + suite.tests, 0);
  const failures = rendered.reduce((sum, suite) => sum + suite.failures, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attribute(`foresight ${run.command}`)}" tests="${tests}" failures="${failures}" errors="0" skipped="0">`,
    ...rendered.flatMap((suite) => suite.lines),
    '</testsuites>',
    '',
  ].join('\n');
}

function renderSuite(suite: TestSuite): { lines: string[]; tests: number; failures: number } {
  const cases = [...suite.cases.values()];
  const failed = cases.filter((testCase) => testCase.findings.some(isFailure)).length;
  const lines = [
    `  <testsuite name="${attribute(suite.name)}" tests="${cases.length}" failures="${failed}" errors="0" skipped="0">`,
  ];
  for (const testCase of cases) {
    const open = `    <testcase name="${attribute(testCase.name)}" classname="${attribute(suite.name)}"`;
    if (testCase.findings.length === 0) {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    for (const finding of testCase.findings.filter(isFailure)) {
      lines.push(
        `      <failure message="${attribute(`${finding.message}${fromTemplate(finding)}`)}" type="${attribute(finding.code)}">${text(describe(finding))}</failure>`,
      );
    }
    const others = testCase.findings.filter((finding) => !isFailure(finding));
    if (others.length > 0) {
      lines.push(
        `      <system-out>${text(others.map((finding) => `${describe(finding)}\n`).join(''))}</system-out>`,
      );
    }
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>');
  return { lines, tests: cases.length, failures: failed };
}

/** Whether a finding is a failure of its test case. */
function isFailure(finding: Finding): boolean {
  const failureClass = failureClassOf(finding);
  return failureClass === 'error' || failureClass === 'unchecked' || failureClass === 'prediction';
}

/**
 * `k8s/web.yaml:6:13: error schema-type message`, as the text output writes a finding, with ` (from
 * CHART/templates/FILE)` when its document is a chart template's render (helm template's `# Source:`).
 */
function describe(finding: Finding): string {
  const at = regionOf(finding);
  const region = at === undefined ? '' : `:${at.startLine}:${at.startColumn}`;
  const file = fileOf(finding);
  const where = file === undefined ? '' : `${file}${region}: `;
  return `${where}${finding.severity} ${finding.code} ${finding.message}${fromTemplate(finding)}`;
}

/** Characters XML 1.0 does not allow, even as references: C0 controls but tab, LF and CR; lone surrogates; FFFE, FFFF. */
const NOT_XML =
  // Matching control characters is the point here.
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces what XML cannot carry with a visible \uXXXX. */
function xmlCharacters(value: string): string {
  return value.replace(
    NOT_XML,
    (character) => `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

/** Escapes text content (CR as a reference, since parsers turn a literal CR into LF). */
function text(value: string): string {
  return xmlCharacters(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Escapes an attribute value in double quotes (tab, LF and CR as references, which attribute normalisation keeps). */
function attribute(value: string): string {
  return text(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;');
}
