/**
 * Our language server and yaml-language-server side by side on the same generated multi-document files (each in
 * a temp folder of its own, since our server simulates the file's folder): cold start to first diagnostics,
 * didOpen → diagnostics, one-character didChange → diagnostics, hover, documentSymbol, peak resident memory.
 * Each size gets a fresh process per server, one warm-up round, then repeated rounds. Times are as an editor
 * sees them, so they include each server's own debounce (ours none on open and none on a change after a pause,
 * as each change here is, 50 ms within a burst of typing; yaml-language-server 200 ms on both), which the report also
 * subtracts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { generateManifests } from './manifests';
import { startDeadProxy } from './support/dead-proxy';
import type { EditPlan } from './support/edit-plan';
import { planEdits } from './support/edit-plan';
import { BenchLspClient } from './support/lsp-client';
import type { ServerLaunch } from './support/lsp-client';
import { toMiB } from './support/process-stats';
import { foresightLaunch, yamlLanguageServerLaunch } from './support/servers';
import { VALIDATION_FIRST_MIN_OBJECTS } from '../server/src/host/language-server';
import { MAX_SIMULATED_OBJECTS } from '../server/src/language/service/prediction-types';
import type { Summary } from './support/stats';
import { summarize } from './support/stats';

/** What one server did on one file size. */
export interface SizeResult {
  readonly resources: number;
  readonly kib: number;
  readonly lines: number;
  readonly openMs: Summary;
  readonly changeMs: Summary;
  /** didChange → the last publish of the version (nothing more for SETTLE_QUIET_MS): ours, predictions included. */
  readonly changeSettledMs: Summary;
  /** The server's own CPU time for the open and the change (less sensitive to a busy machine than latency). */
  readonly openCpuMs: Summary;
  readonly changeCpuMs: Summary;
  readonly hoverMs: Summary;
  readonly symbolsMs: Summary;
  /** VmHWM over the whole session (warm-up and every round) and right after the warm-up round. */
  readonly peakRssMiB: number;
  readonly peakRssAfterFirstRoundMiB: number;
  /** Diagnostics after open: their count and the known error's message (proof the server validates). */
  readonly diagnosticsOnOpen: number;
  readonly knownErrorMessage: string;
  readonly hoverAnswered: boolean;
  readonly symbolCount: number;
}

/** One server's results. */
export interface ServerResult {
  readonly name: string;
  readonly version: string;
  /** The server's debounce before validating an opened and a changed document. */
  readonly debounceMs: { readonly open: number; readonly change: number };
  readonly coldStartMs: Summary;
  readonly spawnToInitializedMs: Summary;
  readonly sizes: SizeResult[];
}

/** The side-by-side results. */
export interface LanguageServerReport {
  readonly servers: ServerResult[];
  /** Connections made to the dead proxy (any network attempt) and schema requests yaml-language-server made. */
  readonly networkConnections: number;
  readonly schemaRequests: string[];
  readonly unansweredSchemaRequests: string[];
}

/** Sizes and repeats of a run. */
export interface LanguageServerOptions {
  readonly sizes: readonly number[];
  readonly repeats: number;
  readonly coldStarts: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}

/** The names the report goes by: our server as shipped, yaml-language-server, ours with predictions off. */
export const OURS = 'kube-foresight';
export const THEIRS = 'yaml-language-server';
export const OURS_WITHOUT_PREDICTIONS = 'kube-foresight, predictions off';

const TIMEOUT_MS = 300_000;
/** Diagnostics count as settled when nothing more is published for this long. */
const SETTLE_QUIET_MS = 500;
const COLD_START_SIZE = 10;

interface ServerUnderTest {
  readonly name: string;
  readonly version: string;
  readonly launch: ServerLaunch;
  readonly debounceMs: { readonly open: number; readonly change: number };
  /** How many times the server publishes the diagnostics of one change to a file of `count` resources. */
  readonly changePublishes: (count: number) => number;
}

const onLine = (line: number) => (diagnostics: readonly Diagnostic[]) =>
  diagnostics.some((diagnostic) => diagnostic.range.start.line === line);

/** Writes a generated file of `count` resources in a folder of its own; returns its path and text. */
function writeManifests(workDir: string, label: string, count: number): { path: string; text: string } {
  const folder = join(workDir, label);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `manifests-${count}.yaml`);
  const text = generateManifests(count);
  writeFileSync(path, text);
  return { path, text };
}

async function coldStart(server: ServerUnderTest, path: string, text: string, plan: EditPlan) {
  const started = performance.now();
  const { client, spawnToInitializedMs } = await BenchLspClient.start(server.launch, join(path, '..'));
  try {
    const uri = `file://${path}`;
    const published = client.diagnostics(uri, onLine(plan.knownErrorLine), TIMEOUT_MS);
    await client.open(uri, text, 1);
    const { receivedAt } = await published;
    return { coldStartMs: receivedAt - started, spawnToInitializedMs };
  } finally {
    await client.stop();
  }
}

interface Round {
  openMs: number;
  changeMs: number;
  changeSettledMs: number;
  openCpuMs: number;
  changeCpuMs: number;
  hoverMs: number;
  symbolsMs: number;
  diagnostics: readonly Diagnostic[];
  hoverAnswered: boolean;
  symbolCount: number;
}

/** One round on an open-able file: open, change, hover, symbols, close; each waits for its answer. */
async function round(
  client: BenchLspClient,
  uri: string,
  text: string,
  plan: EditPlan,
  version: number,
  changePublishes: number,
) {
  const opened = client.diagnostics(uri, onLine(plan.knownErrorLine), TIMEOUT_MS);
  let cpuBefore = client.cpuMs();
  let started = performance.now();
  await client.open(uri, text, version);
  const afterOpen = await opened;
  const openMs = afterOpen.receivedAt - started;
  const openCpuMs = client.cpuMs() - cpuBefore;

  const changed = client.diagnostics(uri, onLine(plan.changedLine), TIMEOUT_MS);
  cpuBefore = client.cpuMs();
  started = performance.now();
  await client.change(uri, version + 1, plan.change);
  const changeMs = (await changed).receivedAt - started;
  // Until the last publish of this version (ours: the predictions after the validation diagnostics, which a busy
  // machine can bring more than SETTLE_QUIET_MS after the validation: the count of publishes is awaited first).
  const publishes = { version: version + 1, count: changePublishes, timeoutMs: TIMEOUT_MS };
  const changeSettledMs = (await client.settledAfter(uri, SETTLE_QUIET_MS, started, publishes)) - started;
  const changeCpuMs = client.cpuMs() - cpuBefore;

  started = performance.now();
  const hover = await client.hover(uri, plan.hover);
  const hoverMs = performance.now() - started;

  started = performance.now();
  const symbols = await client.documentSymbols(uri);
  const symbolsMs = performance.now() - started;

  const cleared = client.diagnostics(uri, (diagnostics) => diagnostics.length === 0, TIMEOUT_MS);
  await client.close(uri);
  await cleared;
  const result: Round = {
    openMs,
    changeMs,
    changeSettledMs,
    openCpuMs,
    changeCpuMs,
    hoverMs,
    symbolsMs,
    diagnostics: afterOpen.params.diagnostics,
    hoverAnswered: hover !== null,
    symbolCount: symbols?.length ?? 0,
  };
  return result;
}

async function measureSize(server: ServerUnderTest, options: LanguageServerOptions, count: number) {
  const { path, text } = writeManifests(options.workDir, `${server.name}-${count}`, count);
  const plan = planEdits(text, count);
  const uri = `file://${path}`;
  const { client } = await BenchLspClient.start(server.launch, join(path, '..'));
  try {
    const changePublishes = server.changePublishes(count);
    await round(client, uri, text, plan, 1, changePublishes);
    const peakAfterFirstRound = client.peakResidentBytes();
    const rounds: Round[] = [];
    for (let run = 0; run < options.repeats; run++) {
      rounds.push(await round(client, uri, text, plan, 10 * (run + 1), changePublishes));
    }
    const first = rounds[0];
    const known = first?.diagnostics.find(
      (diagnostic) => diagnostic.range.start.line === plan.knownErrorLine,
    );
    const result: SizeResult = {
      resources: count,
      kib: Math.round(Buffer.byteLength(text) / 1024),
      lines: text.split('\n').length - 1,
      openMs: summarize(rounds.map((r) => r.openMs)),
      changeMs: summarize(rounds.map((r) => r.changeMs)),
      changeSettledMs: summarize(rounds.map((r) => r.changeSettledMs)),
      openCpuMs: summarize(rounds.map((r) => r.openCpuMs)),
      changeCpuMs: summarize(rounds.map((r) => r.changeCpuMs)),
      hoverMs: summarize(rounds.map((r) => r.hoverMs)),
      symbolsMs: summarize(rounds.map((r) => r.symbolsMs)),
      peakRssMiB: toMiB(client.peakResidentBytes()),
      peakRssAfterFirstRoundMiB: toMiB(peakAfterFirstRound),
      diagnosticsOnOpen: first?.diagnostics.length ?? 0,
      knownErrorMessage: known?.message ?? '',
      hoverAnswered: rounds.every((r) => r.hoverAnswered),
      symbolCount: first?.symbolCount ?? 0,
    };
    return result;
  } finally {
    await client.stop();
  }
}

/**
 * Our server with predictions publishes a change to a file of VALIDATION_FIRST_MIN_OBJECTS objects or more twice
 * (validation, then predictions), unless the file is too large to simulate as you type (one publish, with the
 * predictions-skipped notice); a smaller file once, predictions included.
 */
function oursWithPredictionsPublishes(count: number): number {
  return count >= VALIDATION_FIRST_MIN_OBJECTS && count <= MAX_SIMULATED_OBJECTS ? 2 : 1;
}

/** Runs the side-by-side benchmark. */
export async function benchLanguageServers(options: LanguageServerOptions): Promise<LanguageServerReport> {
  const proxy = await startDeadProxy();
  const yamlLs = yamlLanguageServerLaunch(proxy.url);
  // Each change here follows the last one's settled publishes (a pause in the typing): validated at once
  // (server/src/host/validation-queue.ts); 50 ms would apply only to a keystroke within a burst of typing.
  const ours = { open: 0, change: 0 };
  const once = (): number => 1;
  const servers: ServerUnderTest[] = [
    {
      name: OURS,
      version: 'this checkout',
      launch: foresightLaunch(),
      debounceMs: ours,
      changePublishes: oursWithPredictionsPublishes,
    },
    {
      name: THEIRS,
      version: yamlLs.version,
      launch: yamlLs.launch,
      debounceMs: { open: 200, change: 200 },
      changePublishes: once,
    },
    {
      name: OURS_WITHOUT_PREDICTIONS,
      version: 'this checkout',
      launch: foresightLaunch(false),
      debounceMs: ours,
      changePublishes: once,
    },
  ];
  try {
    const cold = new Map<string, { coldStartMs: number[]; spawnToInitializedMs: number[] }>();
    for (const server of servers) {
      const { path, text } = writeManifests(options.workDir, `${server.name}-cold`, COLD_START_SIZE);
      const plan = planEdits(text, COLD_START_SIZE);
      const times = { coldStartMs: [] as number[], spawnToInitializedMs: [] as number[] };
      // The first start warms the disk cache and is not counted.
      for (let run = 0; run <= options.coldStarts; run++) {
        const measured = await coldStart(server, path, text, plan);
        if (run > 0) {
          times.coldStartMs.push(measured.coldStartMs);
          times.spawnToInitializedMs.push(measured.spawnToInitializedMs);
        }
      }
      cold.set(server.name, times);
      options.log(
        `${server.name}: cold start to first diagnostics ${summarize(times.coldStartMs).median.toFixed(0)} ms`,
      );
    }
    const sizes = new Map<string, SizeResult[]>(servers.map((server) => [server.name, []]));
    for (const count of options.sizes) {
      for (const server of servers) {
        const result = await measureSize(server, options, count);
        sizes.get(server.name)?.push(result);
        options.log(
          `${server.name} ${count} resources: open ${result.openMs.median.toFixed(1)} ms, change ${result.changeMs.median.toFixed(1)} ms, ` +
            `hover ${result.hoverMs.median.toFixed(1)} ms, symbols ${result.symbolsMs.median.toFixed(1)} ms, ` +
            `peak RSS ${result.peakRssMiB} MiB, ${result.diagnosticsOnOpen} diagnostics (${result.knownErrorMessage})`,
        );
      }
    }
    return {
      servers: servers.map((server) => ({
        name: server.name,
        version: server.version,
        debounceMs: server.debounceMs,
        coldStartMs: summarize(cold.get(server.name)?.coldStartMs ?? []),
        spawnToInitializedMs: summarize(cold.get(server.name)?.spawnToInitializedMs ?? []),
        sizes: sizes.get(server.name) ?? [],
      })),
      networkConnections: proxy.connections(),
      schemaRequests: [...new Set(yamlLs.schemaRequests)],
      unansweredSchemaRequests: [...new Set(yamlLs.unansweredSchemaRequests)],
    };
  } finally {
    await proxy.close();
  }
}
