/**
 * Turns a run's results into bench/results/latest.md: the machine, then one table per section with medians and
 * their min–max over the repeated runs, the ratios against yaml-language-server, and the goals.
 */
import type { BenchResults } from './results';
import type { PhaseResult } from './server-phases';
import type { CaptureResult } from './captured-cluster';
import type { WarmUpReport } from './worker-warm-up';
import type { ServerResult, SizeResult } from './language-servers';
import { OURS, OURS_WITHOUT_PREDICTIONS, THEIRS } from './language-servers';
import type { Summary } from './support/stats';
import { appendAll } from '../protocol/collections';

/** "median (min–max)", with `digits` decimals; a single run shows its value only. */
function cell(summary: Summary, digits = 0): string {
  const format = (value: number): string =>
    value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  if (summary.runs === 0) {
    return '–';
  }
  return summary.runs === 1
    ? format(summary.median)
    : `${format(summary.median)} (${format(summary.min)}–${format(summary.max)})`;
}

function exponent(value: number | null): string {
  return value === null || Number.isNaN(value) ? '– (one size only)' : value.toFixed(2);
}

function ratio(theirs: number, ours: number): string {
  return Number.isFinite(theirs / ours) ? `${(theirs / ours).toFixed(2)}×` : '–';
}

const METRICS: { label: string; pick: (size: SizeResult) => Summary; debounce?: 'open' | 'change' }[] = [
  { label: 'didOpen → diagnostics (ms)', pick: (s) => s.openMs, debounce: 'open' },
  { label: 'didChange → diagnostics (ms)', pick: (s) => s.changeMs, debounce: 'change' },
  {
    label: 'didChange → last publish, predictions included (ms)',
    pick: (s) => s.changeSettledMs,
    debounce: 'change',
  },
  { label: 'didOpen, server CPU (ms)', pick: (s) => s.openCpuMs },
  { label: 'didChange, server CPU (ms)', pick: (s) => s.changeCpuMs },
  { label: 'hover (ms)', pick: (s) => s.hoverMs },
  { label: 'documentSymbol (ms)', pick: (s) => s.symbolsMs },
];

function languageServerTables(
  ours: ServerResult,
  theirs: ServerResult,
  off: ServerResult | undefined,
): string[] {
  const offHeader = off === undefined ? '' : ' predictions off |';
  const offRule = off === undefined ? '' : ' --- |';
  const offCell = (pick: (server: ServerResult) => Summary): string =>
    off === undefined ? '' : ` ${cell(pick(off))} |`;
  const lines = [
    `| | ${ours.name} | ${theirs.name} ${theirs.version} | ratio |${offHeader}`,
    `| --- | --- | --- | --- |${offRule}`,
    `| cold start → first diagnostics (ms) | ${cell(ours.coldStartMs)} | ${cell(theirs.coldStartMs)} | ${ratio(theirs.coldStartMs.median, ours.coldStartMs.median)} |${offCell((s) => s.coldStartMs)}`,
    `| spawn → initialized (ms) | ${cell(ours.spawnToInitializedMs)} | ${cell(theirs.spawnToInitializedMs)} | ${ratio(theirs.spawnToInitializedMs.median, ours.spawnToInitializedMs.median)} |${offCell((s) => s.spawnToInitializedMs)}`,
    '',
    `| resources (KiB) | metric | ours | yaml-language-server | ratio | ratio less debounce |${offHeader}`,
    `| --- | --- | --- | --- | --- | --- |${offRule}`,
  ];
  for (const size of ours.sizes) {
    const other = theirs.sizes.find((s) => s.resources === size.resources);
    const without = off?.sizes.find((s) => s.resources === size.resources);
    if (other === undefined) {
      continue;
    }
    const label = `${size.resources.toLocaleString('en-US')} (${size.kib.toLocaleString('en-US')})`;
    const withoutCell = (text: string): string => (off === undefined ? '' : ` ${text} |`);
    for (const metric of METRICS) {
      const a = metric.pick(size).median;
      const b = metric.pick(other).median;
      const lessDebounce =
        metric.debounce === undefined
          ? ''
          : ratio(b - theirs.debounceMs[metric.debounce], a - ours.debounceMs[metric.debounce]);
      lines.push(
        `| ${label} | ${metric.label} | ${cell(metric.pick(size), 1)} | ${cell(metric.pick(other), 1)} | ${ratio(b, a)} | ${lessDebounce} |` +
          withoutCell(without === undefined ? '–' : cell(metric.pick(without), 1)),
      );
    }
    lines.push(
      `| ${label} | peak RSS after one round (MiB) | ${size.peakRssAfterFirstRoundMiB} | ${other.peakRssAfterFirstRoundMiB} | ${ratio(other.peakRssAfterFirstRoundMiB, size.peakRssAfterFirstRoundMiB)} | |` +
        withoutCell(String(without?.peakRssAfterFirstRoundMiB ?? '–')),
      `| ${label} | peak RSS, whole session (MiB) | ${size.peakRssMiB} | ${other.peakRssMiB} | ${ratio(other.peakRssMiB, size.peakRssMiB)} | |` +
        withoutCell(String(without?.peakRssMiB ?? '–')),
      `| ${label} | diagnostics on open | ${size.diagnosticsOnOpen} | ${other.diagnosticsOnOpen} | | |` +
        withoutCell(String(without?.diagnosticsOnOpen ?? '–')),
    );
  }
  return lines;
}

function milliseconds(value: number | null): string {
  return value === null ? 'not simulated' : Math.round(value).toLocaleString('en-US');
}

function phaseTable(phases: readonly PhaseResult[]): string[] {
  return [
    "### Where our server's time goes",
    '',
    'In process, without LSP, medians in ms. The language server runs the analysis of the edited documents, then ' +
      'the one simulation (apply, controllers, scheduler over simulated time) on every change; beyond 2,000 objects it does not simulate.',
    '',
    '| resources | analysis | simulation, default cluster (Pending pods) | simulation, cluster with room (nodes) |',
    '| --- | --- | --- | --- |',
    ...phases.map(
      (p) =>
        `| ${p.resources.toLocaleString('en-US')} | ${milliseconds(p.analysisMs)} | ` +
        `${milliseconds(p.simulateDefaultClusterMs)}${p.pendingOnDefaultCluster === null ? '' : ` (${p.pendingOnDefaultCluster})`} | ` +
        `${milliseconds(p.simulateRoomyClusterMs)} (${p.roomyClusterNodes}) |`,
    ),
  ];
}

function warmUpTable(report: WarmUpReport): string[] {
  const header = report.results[0]?.answerMs.map((_, index) => String(index + 1)) ?? [];
  return [
    "### The prediction worker's warm-up",
    '',
    `A person typing in the 1,000-resource file: ${report.keystrokes} keystrokes, ${report.pauseMs} ms apart, each ` +
      'a request to a fresh prediction worker (no LSP). Median ms from request to answer per keystroke, over ' +
      `${report.repeats} fresh processes per row; the process's CPU over the whole typing, warm-up runs included.`,
    '',
    `| warm-up runs | ${header.join(' | ')} | CPU (ms) |`,
    `| --- | ${header.map(() => '---').join(' | ')} | --- |`,
    ...report.results.map(
      (result) =>
        `| ${result.warmUpRuns} | ${result.answerMs.map((summary) => cell(summary)).join(' | ')} | ${cell(result.cpuMs)} |`,
    ),
  ];
}

/** The Markdown report of a run. */
export function renderMarkdown(results: BenchResults): string {
  const { machine } = results;
  const out: string[] = [
    `# Kube Foresight benchmarks (${results.kind} run)`,
    '',
    `${results.startedAt} · commit ${machine.commit} · ${machine.cpuModel}, ${machine.cores} cores, ` +
      `${machine.memoryGiB} GiB · Node ${machine.node} · ${machine.kernel}`,
    '',
    'Load average (1 min) around each section: ' +
      results.load.map((l) => `${l.section} ${l.before} → ${l.after} (${l.seconds} s)`).join('; ') +
      '.',
    '',
    'Figures are medians with (min–max) over the repeated runs, after a warm-up.',
  ];
  const lsp = results.languageServers;
  const ours = lsp?.servers.find((server) => server.name === OURS);
  const theirs = lsp?.servers.find((server) => server.name === THEIRS);
  const off = lsp?.servers.find((server) => server.name === OURS_WITHOUT_PREDICTIONS);
  if (lsp !== undefined && ours !== undefined && theirs !== undefined) {
    appendAll(out, [
      '',
      '## Language servers, side by side',
      '',
      `Same generated files, predictions on (embedded default cluster). Ratio: yaml-language-server ÷ ours ` +
        `(above 1: we are faster). Debounce: ours ${ours.debounceMs.open} ms on open, ${ours.debounceMs.change} ms ` +
        `on these changes (each after a pause in the typing; 50 ms within a burst); yaml-language-server ` +
        `${theirs.debounceMs.open} ms on both. Network connections attempted: ` +
        `${lsp.networkConnections}; schema documents served locally: ${lsp.schemaRequests.length}, unanswered: ` +
        `${lsp.unansweredSchemaRequests.length}. The known error as yaml-language-server reports it: ` +
        `"${theirs.sizes[0]?.knownErrorMessage ?? ''}".`,
      '',
      ...languageServerTables(ours, theirs, off),
    ]);
  }
  if (results.phases !== undefined) {
    appendAll(out, ['', ...phaseTable(results.phases)]);
  }
  if (results.warmUp !== undefined) {
    appendAll(out, ['', ...warmUpTable(results.warmUp)]);
  }
  if (results.capture !== undefined && results.capture.length > 0) {
    appendAll(out, [
      '',
      '## Captured clusters',
      '',
      'A `kubectl get … -A -o yaml` export (one List document) of nodes and running Deployment pods, read as data',
      'and simulated with one Deployment re-applied with a new image, in one process; heap after the run. From',
      '30,000 pods, also `foresight simulate --cluster` as a user runs it (dist/cli.js in its own process, JSON',
      'output): wall time, CPU and peak resident memory of that process.',
      '',
      '| nodes | pods | YAML (MB) | read (ms) | simulate (ms) | heap (MB) | CLI wall (ms) | CLI CPU (ms) | CLI peak (MB) | as you type |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...results.capture.map(
        (row) =>
          `| ${row.nodes.toLocaleString('en-US')} | ${row.pods.toLocaleString('en-US')} | ${row.megabytes} | ${cell(row.readMs)} | ${cell(row.simulateMs)} | ${cell(row.heapMB)} | ${row.cli === undefined ? '—' : cell(row.cli.wallMs)} | ${row.cli === undefined ? '—' : cell(row.cli.cpuMs)} | ${row.cli === undefined ? '—' : cell(row.cli.peakMB)} | ${row.asYouType} |`,
      ),
      ...editorRows(results.capture),
    ]);
  }
  const engine = results.engine;
  if (engine !== undefined) {
    appendAll(out, [
      '',
      '## Engine',
      '',
      '| workload | nodes | pods | pods/s of CPU | pods/s wall | peak RSS (MiB) |',
      '| --- | --- | --- | --- | --- | --- |',
      ...engine.scheduling.map(
        (r) =>
          `| ${r.workload} | ${r.nodes.toLocaleString('en-US')} | ${r.pods.toLocaleString('en-US')} | ` +
          `${cell(r.podsPerCpuSecond)} | ${cell(r.podsPerWallSecond)} | ${cell(r.peakRssMiB)} |`,
      ),
      '',
      'Growth of CPU time, fitted as time ∝ size^k: ' +
        engine.growth
          .map(
            (g) =>
              `${g.workload}: k = ${exponent(g.nodesExponent)} in nodes, ${exponent(g.podsExponent)} in pods`,
          )
          .join('; ') +
        '.',
    ]);
    const t = engine.timeline;
    if (t !== undefined) {
      out.push(
        '',
        `Rolling timeline, ${t.deployments} Deployments × ${t.replicas} replicas on ${t.nodes.toLocaleString('en-US')} nodes: ` +
          `${cell(t.cpuMs)} ms of CPU, ${cell(t.wallMs)} ms wall (of which ${cell(t.schedulingMs)} ms in scheduling ` +
          `cycles), peak RSS ${cell(t.peakRssMiB)} MiB; ` +
          `${t.events.toLocaleString('en-US')} events, ${t.podsScheduled.toLocaleString('en-US')} pods scheduled, ` +
          `${t.rolloutsComplete} rollouts complete.`,
      );
    }
  }
  const cli = results.cli;
  if (cli !== undefined) {
    out.push(
      '',
      '## CLI',
      '',
      `\`foresight validate\` on ${cli.resources.toLocaleString('en-US')} resources in ${cli.files} files ` +
        `(${cli.mib} MiB): ${cell(cli.resourcesPerSecond)} resources/s, spawn to exit ${cell(cli.wallMs)} ms ` +
        `(${cell(cli.cpuMs)} ms of CPU), peak RSS ${cell(cli.peakRssMiB)} MiB; exit ${String(cli.exitCode)} with ` +
        `${cli.reportedErrors} error line(s) (the known error).`,
    );
  }
  const crd = results.crd;
  if (crd !== undefined) {
    out.push(
      '',
      '## CRD folder',
      '',
      `\`foresight validate\` on ${crd.crds} generated CustomResourceDefinitions (${crd.mib} MiB) and no custom ` +
        `resource: spawn to exit ${cell(crd.wallMs)} ms (${cell(crd.cpuMs)} ms of CPU` +
        (crd.oneThreadCpuMs === undefined ? '' : `; in one thread ${cell(crd.oneThreadCpuMs)} ms`) +
        `), peak RSS ` +
        `${cell(crd.peakRssMiB)} MiB; exit ${String(crd.exitCode)}.`,
    );
    const withResources = crd.withResources;
    if (withResources !== undefined) {
      out.push(
        '',
        `The same CRDs with ${withResources.resources} custom resources of theirs beside them (every field set), ` +
          `in one thread: spawn to exit ${cell(withResources.wallMs)} ms, ${cell(withResources.oneThreadCpuMs)} ms ` +
          `of CPU, peak RSS ${cell(withResources.peakRssMiB)} MiB; exit ${String(withResources.exitCode)}.`,
      );
    }
  }
  const kustomize = results.kustomize;
  if (kustomize !== undefined) {
    out.push(
      '',
      '## Kustomize tree',
      '',
      `\`foresight validate -R\` on a kustomize tree of ${kustomize.files} files (${kustomize.apps} apps: a base, a ` +
        `Component and three overlays with patches each; ${kustomize.units} apply units): spawn to exit ` +
        `${cell(kustomize.wallMs)} ms (${cell(kustomize.cpuMs)} ms of CPU in the CLI, kustomize's processes not ` +
        `counted), peak RSS ${cell(kustomize.peakRssMiB)} MiB; exit ${String(kustomize.exitCode)} with ` +
        `${kustomize.reportedErrors} error line(s).`,
    );
  }
  const extension = results.extension;
  if (extension !== undefined) {
    const initialize = ours?.spawnToInitializedMs;
    appendAll(out, [
      '',
      '## Extension',
      '',
      'No VS Code build runs on this machine: activation is estimated as loading dist/client.js (with `vscode` ' +
        `stood in) and the server's spawn → initialized round trip: ${cell(extension.clientLoadMs, 1)} ms + ` +
        `${initialize === undefined ? '–' : cell(initialize)} ms.`,
      '',
      '| file | KiB |',
      '| --- | --- |',
      ...extension.bundleFiles.map((f) => `| ${f.path} | ${f.kib.toLocaleString('en-US')} |`),
    ]);
  }
  appendAll(out, [
    '',
    '## Goals',
    '',
    '| goal | target | measured | met |',
    '| --- | --- | --- | --- |',
    ...results.goals.map(
      (g) =>
        `| ${g.goal} | ${g.target} | ${g.measured} | ${g.met === undefined ? '–' : g.met ? 'yes' : g.limitedBy === undefined ? 'no' : `no: ${g.limitedBy}`} |`,
    ),
  ]);
  for (const failure of results.failures) {
    out.push('', `**${failure.section} failed:** ${failure.error}`);
  }
  return `${out.join('\n')}\n`;
}

/** The editor on a capture (capture-editor.ts): one line per size measured. */
function editorRows(capture: readonly CaptureResult[]): string[] {
  const rows = capture.flatMap((row) => (row.editor === undefined ? [] : [{ row, editor: row.editor }]));
  if (rows.length === 0) {
    return [];
  }
  return [
    '',
    'The bundled language server with the capture as `.foresight/cluster.yaml` (over LSP): didOpen of a manifest → its',
    "first prediction on the capture, then one-character keystrokes → the publish of each one's prediction.",
    '',
    '| nodes | pods | first prediction (ms) | keystroke (ms) | server CPU per keystroke (ms) | peak RSS (MB) | cluster |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      ({ row, editor }) =>
        `| ${row.nodes.toLocaleString('en-US')} | ${row.pods.toLocaleString('en-US')} | ${Math.round(editor.openMs).toLocaleString('en-US')} | ${cell(editor.keystrokeMs)} | ${cell(editor.keystrokeCpuMs)} | ${editor.peakMB.toLocaleString('en-US')} | ${editor.cluster} |`,
    ),
  ];
}
