/**
 * The simulation report as text for a person: the run's errors and warnings, each on its file and line (the one
 * placed list every output renders), each pod with its owner, QoS class, priority and node (or Pending with
 * kube-scheduler's message and the reasons per node), then each node's requested/allocatable, the timeline's
 * sections and the notes. Built from the JSON report and the same findings, so the two never disagree.
 */
import type { Finding, ReportNode, ReportPod, SimulationReport } from '../../language/service';
import {
  formatFieldPath,
  formatTimelineSections,
  isPredictedOutcome,
  parseQuantity,
} from '../../language/service';
import { failureClassOf, fromTemplate } from './finding-places';
import { formatRejected, refusedCount } from './rejected-text';
import { appendAll, maxOf } from '../../../../protocol/collections';

/** Options of the text rendering. */
interface TextOptions {
  /** How to show a finding's file (e.g. relative to the working directory). */
  readonly displayFile?: (file: string) => string;
  /** Pending pods list every node's reasons up to this many nodes, else a per-plugin count. */
  readonly maxNodesListed?: number;
  /**
   * The header a finding is listed under (its apply unit: `examples/web-app (kubectl apply -f)`), when the run
   * read more than one unit; findings come in the order of `headers`, each header once.
   */
  readonly headerOf?: (finding: Finding) => string;
  readonly headers?: readonly string[];
  /** What the summary line starts with: the files read, units and objects ("12 file(s) read, …; "). */
  readonly summaryPrefix?: string;
}

/** Renders the report. */
export function formatReportText(
  report: SimulationReport,
  findings: readonly Finding[],
  options: TextOptions = {},
): string {
  const lines: string[] = [];
  const nodeCount = report.cluster.nodes.length;
  lines.push(
    `Kubernetes ${report.kubernetesVersion} · ${report.cluster.source} · ${nodeCount} node${nodeCount === 1 ? '' : 's'}`,
  );
  const displayFile = options.displayFile ?? ((file: string): string => file);
  const problems = findings.filter((finding) => finding.severity !== 'information');
  if (problems.length > 0) {
    lines.push('');
    appendAll(lines, formatProblems(problems, displayFile, options));
  }
  appendAll(lines, formatRejected(report, displayFile));
  lines.push('');
  appendAll(lines, formatPods(report.pods, options.maxNodesListed ?? 12));
  lines.push('');
  appendAll(lines, formatNodes(report.cluster.nodes));
  appendAll(lines, formatTimelineSections(report));
  lines.push('');
  lines.push(`${options.summaryPrefix ?? ''}${formatPodSummary(report.pods, report.rejected, findings)}`);
  appendAll(
    lines,
    formatNotes(
      findings.filter((entry) => entry.severity === 'information'),
      displayFile,
    ),
  );
  return `${lines.join('\n')}\n`;
}

/** The errors and warnings, under their headers when a header is given (as `foresight validate` groups them). */
function formatProblems(
  problems: readonly Finding[],
  displayFile: (file: string) => string,
  options: TextOptions,
): string[] {
  const { headerOf } = options;
  if (headerOf === undefined) {
    return problems.map((finding) => formatFinding(finding, displayFile));
  }
  const groups = new Map<string, Finding[]>((options.headers ?? []).map((header) => [header, []]));
  for (const finding of problems) {
    const header = headerOf(finding);
    const entries = groups.get(header) ?? [];
    entries.push(finding);
    groups.set(header, entries);
  }
  return [...groups].flatMap(([header, entries]) =>
    entries.length === 0
      ? []
      : [`== ${header}`, ...entries.map((finding) => formatFinding(finding, displayFile))],
  );
}

/**
 * One finding: `error: deploy.yaml:12 spec.replicas: message [code]` (or `(document 2)` without a line), with
 * `(from CHART/templates/FILE)` before the code when the document is a chart template's render.
 */
function formatFinding(finding: Finding, displayFile: (file: string) => string): string {
  const where = whereOf(finding, displayFile);
  const path = [...(finding.object?.path ?? []), ...(finding.path ?? [])];
  const field = path.length > 0 ? ` ${formatFieldPath(path)}` : '';
  return `${finding.severity}: ${where === '' ? '(cluster)' : where}${field}: ${finding.message}${fromTemplate(finding)} [${finding.code}]`;
}

/** A finding's file and line as text (`deploy.yaml:12`, `deploy.yaml (document 2)`), '' when it has no file. */
function whereOf(finding: Finding, displayFile: (file: string) => string): string {
  const raw = finding.place?.file ?? finding.object?.file ?? '';
  if (raw === '') {
    return '';
  }
  const file = displayFile(raw);
  if (finding.place?.start !== undefined) {
    return `${file}:${finding.place.start.line + 1}`;
  }
  const documentIndex = finding.object?.documentIndex ?? 0;
  return `${file}${documentIndex > 0 ? ` (document ${documentIndex + 1})` : ''}`;
}

/** Most places a merged note lists before "and N more". */
const NOTE_PLACES_SHOWN = 3;

/**
 * The notes, each said once: notes of one code and message (the same assumed Secret read by four Deployments) are
 * one line that lists their places.
 */
function formatNotes(notes: readonly Finding[], displayFile: (file: string) => string): string[] {
  const merged = new Map<string, { finding: Finding; places: string[] }>();
  for (const note of notes) {
    const key = `${note.code}\u0000${note.message}`;
    const entry = merged.get(key) ?? { finding: note, places: [] };
    const where = whereOf(note, displayFile);
    if (where !== '' && !entry.places.includes(where)) {
      entry.places.push(where);
    }
    merged.set(key, entry);
  }
  return [...merged.values()].map(({ finding, places }) => {
    const shown = places.slice(0, NOTE_PLACES_SHOWN).join(', ');
    const more = places.length > NOTE_PLACES_SHOWN ? ` and ${places.length - NOTE_PLACES_SHOWN} more` : '';
    return `note: ${places.length === 0 ? '' : `${shown}${more}: `}${finding.message} [${finding.code}]`;
  });
}

function formatPods(pods: readonly ReportPod[], maxNodesListed: number): string[] {
  if (pods.length === 0) {
    return ['No pods to schedule.'];
  }
  const rows = pods.map((pod) => [
    `${pod.namespace}/${pod.name}`,
    pod.owner === null ? '-' : `${pod.owner.kind}/${pod.owner.name}`,
    pod.qosClass,
    String(pod.priority),
    placement(pod),
  ]);
  const table = formatTable(['POD', 'OWNER', 'QOS', 'PRIORITY', 'NODE'], rows);
  const lines = [table[0] ?? ''];
  pods.forEach((pod, index) => {
    lines.push(table[index + 1] ?? '');
    if (pod.waiting !== undefined) {
      lines.push(`    never starts: ${pod.waiting.reason}: ${pod.waiting.message}`);
    }
    if (pod.unschedulable !== null) {
      lines.push(`    ${pod.unschedulable.message}`);
      appendAll(lines, nodeBreakdown(pod, maxNodesListed));
    }
  });
  return lines;
}

function placement(pod: ReportPod): string {
  if (pod.nodeName === null) {
    return 'Pending';
  }
  const preempted = pod.preempted.length > 0 ? ` (preempted ${pod.preempted.join(', ')})` : '';
  const tie =
    pod.tiedNodes.length > 1
      ? ` (tied with ${pod.tiedNodes.filter((name) => name !== pod.nodeName).join(', ')})`
      : '';
  return `${pod.nodeName}${tie}${preempted}`;
}

function nodeBreakdown(pod: ReportPod, maxNodesListed: number): string[] {
  const unschedulable = pod.unschedulable;
  if (unschedulable === null) {
    return [];
  }
  const nodes = Object.entries(unschedulable.nodes);
  if (nodes.length === 0) {
    return [];
  }
  if (nodes.length > maxNodesListed) {
    const plugins = Object.entries(unschedulable.plugins).map(([plugin, count]) => `${plugin} ${count}`);
    return [`    nodes rejected by: ${plugins.join(', ')}`];
  }
  const width = maxOf(nodes.map(([name]) => name.length));
  return nodes.map(([name, reasons]) => `      ${name.padEnd(width)}  ${reasons.join(', ')}`);
}

function formatNodes(nodes: readonly ReportNode[]): string[] {
  const rows = nodes.map((node) => [
    node.name,
    usage(node, 'cpu'),
    usage(node, 'memory'),
    `${node.requested['pods'] ?? '0'}/${node.allocatable['pods'] ?? '0'}`,
    extendedUsage(node),
  ]);
  return formatTable(['NODE', 'CPU REQUESTED', 'MEMORY REQUESTED', 'PODS', 'OTHER'], rows);
}

function usage(node: ReportNode, resource: string): string {
  const requested = node.requested[resource] ?? '0';
  const allocatable = node.allocatable[resource] ?? '0';
  const used = parseQuantity(requested);
  const total = parseQuantity(allocatable);
  const percent =
    used.ok && total.ok && total.quantity.milli > 0
      ? ` (${Math.floor((used.quantity.milli * 100) / total.quantity.milli)}%)`
      : '';
  return `${readable(requested)}/${readable(allocatable)}${percent}`;
}

/**
 * A byte quantity as people read it: exact binary units stay ("16Gi", "448Mi"); a capture's odd kibibytes
 * ("13219424Ki") are shown to a tenth of the largest unit ("12.6Gi"). The JSON report keeps the exact value.
 */
function readable(text: string): string {
  const match = /^(\d+)Ki$/.exec(text);
  if (match === null) {
    return text;
  }
  const bytes = Number(match[1]) * 1024;
  for (const [unit, size] of [
    ['Ti', 1024 ** 4],
    ['Gi', 1024 ** 3],
    ['Mi', 1024 ** 2],
  ] as const) {
    if (bytes >= size) {
      return `${(bytes / size).toFixed(1)}${unit}`;
    }
  }
  return text;
}

function isZero(text: string | undefined): boolean {
  if (text === undefined) {
    return true;
  }
  const parsed = parseQuantity(text);
  return parsed.ok && parsed.quantity.milli === 0;
}

function extendedUsage(node: ReportNode): string {
  // Resources the node has none of and nothing requests (hugepages on most nodes) are left out.
  const names = Object.keys(node.allocatable).filter(
    (name) =>
      (name.includes('/') || name.startsWith('hugepages-')) &&
      !(isZero(node.allocatable[name]) && isZero(node.requested[name])),
  );
  return names
    .map((name) => `${name} ${node.requested[name] ?? '0'}/${node.allocatable[name] ?? '0'}`)
    .join(', ');
}

/**
 * The summary line of pods, refusals and failures: "25 pods: 21 placed, 4 Pending; 2 refused by the API server;
 * 1 predicted failure (drains, rollouts); 1 input not checked." Over one report, or the reports of several
 * simulations together.
 */
export function formatPodSummary(
  pods: readonly ReportPod[],
  rejected: SimulationReport['rejected'],
  findings: readonly Finding[],
): string {
  const placed = pods.filter((pod) => pod.nodeName !== null).length;
  const pending = pods.length - placed;
  const errors = findings.filter((finding) => finding.severity === 'error');
  // Pending and refused pods are counted above by the pods and refusals, not again as failures.
  const failures = errors.filter((finding) => isPredictedOutcome(finding.code)).length;
  const inputErrors = errors.filter((finding) => failureClassOf(finding) === 'error').length;
  const parts = [`${pods.length} pod${pods.length === 1 ? '' : 's'}: ${placed} placed, ${pending} Pending`];
  const cannotStart = pods.filter((pod) => pod.waiting !== undefined).length;
  if (cannotStart > 0) {
    parts[0] += `, ${cannotStart} never start${cannotStart === 1 ? 's' : ''}`;
  }
  const refused = refusedCount(rejected);
  if (refused > 0) {
    parts.push(`${refused} refused by the API server`);
  }
  if (failures > 0) {
    parts.push(`${failures} predicted failure${failures === 1 ? '' : 's'} (drains, rollouts)`);
  }
  if (inputErrors > 0) {
    parts.push(`${inputErrors} error${inputErrors === 1 ? '' : 's'} in the input`);
  }
  // Input left out at a limit (a note each) is what such a run fails for: said here, as validate's summary does.
  const unchecked = findings.filter((finding) => failureClassOf(finding) === 'unchecked').length;
  if (unchecked > 0) {
    parts.push(`${unchecked} input${unchecked === 1 ? '' : 's'} not checked`);
  }
  return `${parts.join('; ')}.`;
}

function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, column) =>
    maxOf(
      rows.map((row) => (row[column] ?? '').length),
      title.length,
    ),
  );
  const render = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [render(header), ...rows.map(render)];
}
