import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonReport } from '../../server/src/cli/formats/report-json';
import { parseXml, runForesight } from './cli-harness';
import type { XmlElement } from './cli-harness';
import { appendAll } from '../../protocol/collections';

// Issue #27 item 5 (and #26's one finding): one input through every output gives the same findings. The runs
// below simulate the examples on their cluster file; each output is read back into a set of "code file:line"
// (line '-' when a finding has no line), and every set must equal the JSON output's. The same comparison is run
// on validate, whose findings are the reader's and the analyzer's only.

const SIMULATE = ['simulate', '-R', '--cluster', 'examples/.foresight/cluster.yaml', 'examples/'];
// Without --cluster, examples/captured is simulated on its own capture: two simulations, one list of findings.
const SIMULATE_PER_UNIT = ['simulate', '-R', 'examples/'];
const VALIDATE = ['validate', '-R', 'test/fixtures/cli/mixed'];

type Entry = string;

function entry(code: string, file: string | undefined, line: number | string | undefined): Entry {
  return `${code} ${file ?? ''}:${line ?? '-'}`;
}

/** The JSON output's findings: one report's, or those of several simulations (the same top-level `findings`). */
function fromJson(stdout: string): Entry[] {
  const report = JSON.parse(stdout) as JsonReport;
  return report.findings.map((finding) =>
    entry(finding.code, finding.file === '' ? undefined : finding.file, finding.line),
  );
}

interface SarifResult {
  ruleId: string;
  locations?: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[];
}

function fromSarif(stdout: string): Entry[] {
  const log = JSON.parse(stdout) as { runs: { results: SarifResult[] }[] };
  return (log.runs[0]?.results ?? []).map((result) => {
    const location = result.locations?.[0]?.physicalLocation;
    return entry(result.ruleId, location?.artifactLocation.uri, location?.region?.startLine);
  });
}

/** JUnit writes each finding as `file:line:col: severity code message` in a failure or a system-out line. */
function fromJunit(stdout: string): Entry[] {
  const lines: string[] = [];
  const visit = (element: XmlElement): void => {
    if (element.name === 'failure' || element.name === 'system-out') {
      appendAll(
        lines,
        element.text.split('\n').filter((line) => line !== ''),
      );
    }
    element.children.forEach(visit);
  };
  visit(parseXml(stdout));
  return lines.map((line) => {
    const placed = /^(.+?):(\d+):\d+: (?:error|warning|information) (\S+) /.exec(line);
    if (placed !== null) {
      return entry(placed[3] ?? '', placed[1], placed[2]);
    }
    const filed = /^(.+?): (?:error|warning|information) (\S+) /.exec(line);
    if (filed !== null) {
      return entry(filed[2] ?? '', filed[1], undefined);
    }
    const bare = /^(?:error|warning|information) (\S+) /.exec(line);
    assert.ok(bare !== null, `a JUnit line reads as a finding: ${line}`);
    return entry(bare[1] ?? '', undefined, undefined);
  });
}

/** GitHub annotations: `::warning file=F,line=N,…,title=CODE::message`. */
function fromAnnotations(stdout: string): Entry[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('::'))
    .map((line) => {
      const properties = /^::\w+ ([^:]*)::/.exec(line)?.[1] ?? '';
      const values = new Map(
        properties
          .split(',')
          .map((pair) => [pair.split('=')[0] ?? '', decodeURIComponent(pair.split('=')[1] ?? '')]),
      );
      return entry(values.get('title') ?? '', values.get('file'), values.get('line'));
    });
}

/**
 * Text: simulate writes `severity: file:line path: message [code]` and notes `note: file:line, …: message [code]`;
 * validate writes `file:line:col: severity code message`.
 */
function fromText(stdout: string): Entry[] {
  const entries: Entry[] = [];
  for (const line of stdout.split('\n')) {
    const validated = /^([^:\s]+):(\d+):\d+: (?:error|warning|information) (\S+) /.exec(line);
    if (validated !== null) {
      entries.push(entry(validated[3] ?? '', validated[1], validated[2]));
      continue;
    }
    const finding = /^(?:error|warning): (\S+?)(?::(\d+))?[ :].*\[([a-z0-9-]+)\]$/.exec(line);
    if (finding !== null) {
      entries.push(entry(finding[3] ?? '', finding[1] === '(cluster)' ? undefined : finding[1], finding[2]));
      continue;
    }
    const note = /^note: (?:(.+?): )?.*\[([a-z0-9-]+)\]$/.exec(line);
    if (note !== null) {
      const places = note[1] === undefined ? [] : note[1].split(', ');
      if (places.length === 0) {
        entries.push(entry(note[2] ?? '', undefined, undefined));
      }
      for (const place of places) {
        const [file, lineNumber] = place.split(':');
        entries.push(entry(note[2] ?? '', file, lineNumber));
      }
    }
  }
  return entries;
}

const sorted = (entries: readonly Entry[]): Entry[] => [...new Set(entries)].sort();

for (const args of [SIMULATE, SIMULATE_PER_UNIT, VALIDATE]) {
  describe(`foresight ${args.join(' ')}: every output renders the same findings`, () => {
    test('JSON, SARIF, JUnit, text and GitHub annotations give one set of (code, file, line)', async () => {
      const json = await runForesight([...args, '--output', 'json']);
      const expected = sorted(fromJson(json.stdout));
      assert.ok(expected.length > 0, 'the input has findings');
      assert.deepEqual(
        sorted(fromSarif((await runForesight([...args, '--output', 'sarif'])).stdout)),
        expected,
      );
      assert.deepEqual(
        sorted(fromJunit((await runForesight([...args, '--output', 'junit'])).stdout)),
        expected,
      );
      const text = await runForesight(args, { env: { GITHUB_ACTIONS: 'true' } });
      assert.deepEqual(sorted(fromText(text.stdout)), expected, 'text');
      assert.deepEqual(sorted(fromAnnotations(text.stdout)), expected, 'annotations');
      if (args !== VALIDATE) {
        // A Pending pod is a finding with its file and line in every output, not only in the pods table.
        assert.ok(
          expected.some((item) => /^pod-unschedulable \S+:\d+$/.test(item)),
          `a placed pod-unschedulable in ${expected.join('; ')}`,
        );
      }
    });
  });
}
