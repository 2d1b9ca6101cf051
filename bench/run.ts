/**
 * `npm run bench`: builds dist/, then runs every benchmark (language servers side by side, engine, CLI,
 * extension) and writes bench/results/latest.json and latest.md. A benchmark, not a test: figures never fail it;
 * only a section that could not run at all makes the exit code non-zero.
 *   npm run bench                           the full run (about 20 minutes on 2 cores)
 *   npm run bench -- --quick                a smoke run under a minute (writes bench/results/quick.*)
 *   npm run bench -- --only=engine,cli      some sections: lsp, phases, warmup, engine, cli, crd, kustomize,
 *                                           capture, extension (written to bench/results/partial.*, never over a
 *                                           full run)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchCli } from './cli-validate';
import { benchCrdFolder } from './crd-folder';
import { benchKustomizeTree } from './kustomize-tree';
import { benchCapture } from './captured-cluster';
import { benchEngine } from './engine';
import { benchExtension } from './extension';
import { checkGoals } from './goals';
import { benchLanguageServers } from './language-servers';
import { renderMarkdown } from './report-markdown';
import { benchServerPhases } from './server-phases';
import { benchWorkerWarmUp } from './worker-warm-up';
import type { BenchResults, LoadSample } from './results';
import { describeMachine, loadNow } from './results';

const isQuick = process.argv.includes('--quick');
const onlyArgument = process.argv.find((arg) => arg.startsWith('--only='));
const only =
  onlyArgument === undefined ? undefined : new Set(onlyArgument.slice('--only='.length).split(','));

/** Sizes and repeats of the full and the quick run. */
const PLAN = isQuick
  ? {
      lsp: { sizes: [10, 100], repeats: 2, coldStarts: 1 },
      phases: { sizes: [100], repeats: 2 },
      warmup: { keystrokes: 4, pauseMs: 100, repeats: 1 },
      engine: {
        plain: [[100, 2_000]] as const,
        affinity: [[100, 1_000]] as const,
        timeline: [100, 20, 10] as const,
        repeats: 1,
      },
      cli: { folders: 2, filesPerFolder: 2, resourcesPerFile: 50, repeats: 2 },
      crd: { crds: 2, breadth: 4, repeats: 1 },
      kustomize: { apps: 2, baseFiles: 5, repeats: 1 },
      capture: {
        sizes: [[100, 2_000]] as const,
        repeats: 1,
        cliFrom: 2_000,
        editorFrom: 2_000,
        keystrokes: 2,
      },
      extensionRepeats: 2,
    }
  : {
      lsp: { sizes: [10, 100, 1_000, 5_000], repeats: 5, coldStarts: 5 },
      phases: { sizes: [100, 1_000, 5_000], repeats: 5 },
      warmup: { keystrokes: 10, pauseMs: 300, repeats: 3 },
      engine: {
        plain: schedulingSizes(),
        affinity: schedulingSizes(),
        timeline: [1_000, 200, 50] as const,
        repeats: 3,
      },
      cli: { folders: 10, filesPerFolder: 10, resourcesPerFile: 100, repeats: 5 },
      crd: { crds: 10, breadth: 7, repeats: 5 },
      // 12 apps of 42 files: 504 files, 36 overlays as units.
      kustomize: { apps: 12, baseFiles: 27, repeats: 3 },
      // The curve up to the largest cluster Kubernetes supports (5,000 nodes, 150,000 pods, 30 per node here).
      capture: {
        sizes: [
          [100, 2_000],
          [1_000, 5_000],
          [1_000, 30_000],
          [2_000, 60_000],
          [5_000, 150_000],
        ] as const,
        repeats: 3,
        cliFrom: 30_000,
        editorFrom: 150_000,
        keystrokes: 5,
      },
      extensionRepeats: 5,
    };

/** 10k and 50k pods on 100, 1,000 and 5,000 nodes. */
function schedulingSizes(): (readonly [number, number])[] {
  return [10_000, 50_000].flatMap((pods) => [100, 1_000, 5_000].map((nodes) => [nodes, pods] as const));
}

const log = (line: string): void => {
  console.log(`  ${line}`);
};

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const machine = describeMachine();
  const workDir = mkdtempSync(join(tmpdir(), 'foresight-bench-files-'));
  const load: LoadSample[] = [];
  const failures: { section: string; error: string }[] = [];
  console.log(
    `${isQuick ? 'quick' : 'full'} benchmark run on ${machine.cpuModel} × ${machine.cores}, load ${loadNow()}`,
  );

  async function section<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
    if (only !== undefined && !only.has(name)) {
      return undefined;
    }
    console.log(`${name}:`);
    const before = loadNow();
    const started = performance.now();
    try {
      return await run();
    } catch (error: unknown) {
      failures.push({ section: name, error: error instanceof Error ? error.message : String(error) });
      console.error(error);
      return undefined;
    } finally {
      load.push({
        section: name,
        before,
        after: loadNow(),
        seconds: Math.round((performance.now() - started) / 1000),
      });
    }
  }

  try {
    const languageServers = await section('lsp', () => benchLanguageServers({ ...PLAN.lsp, workDir, log }));
    const phases = await section('phases', () =>
      benchServerPhases(PLAN.phases.sizes, PLAN.phases.repeats, log),
    );
    const warmUp = await section('warmup', () => benchWorkerWarmUp({ ...PLAN.warmup, log }));
    const engine = await section('engine', () => benchEngine({ ...PLAN.engine, log }));
    const cli = await section('cli', () => benchCli({ ...PLAN.cli, workDir, log }));
    const crd = await section('crd', () => benchCrdFolder({ ...PLAN.crd, workDir, log }));
    const kustomize = await section('kustomize', () =>
      benchKustomizeTree({ ...PLAN.kustomize, workDir, log }),
    );
    const capture = await section('capture', () => benchCapture({ ...PLAN.capture, log }));
    const extension = await section('extension', () => benchExtension(PLAN.extensionRepeats, log));
    const results: BenchResults = {
      kind: isQuick ? 'quick' : only !== undefined ? 'partial' : 'full',
      startedAt,
      machine,
      load,
      languageServers,
      phases,
      warmUp,
      engine,
      cli,
      crd,
      kustomize,
      capture,
      extension,
      failures,
      goals: checkGoals({ languageServers, engine, cli, crd, capture, phases }),
    };
    const resultsDir = join(__dirname, 'results');
    mkdirSync(resultsDir, { recursive: true });
    // Some sections alone are no full run: their results never replace the last full run's.
    const name = isQuick ? 'quick' : only !== undefined ? 'partial' : 'latest';
    const markdown = renderMarkdown(results);
    writeFileSync(join(resultsDir, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(resultsDir, `${name}.md`), markdown);
    console.log(`\n${markdown}\nwritten: bench/results/${name}.json and ${name}.md`);
    if (failures.length > 0) {
      process.exitCode = 1;
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
