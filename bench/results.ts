/**
 * The shape of bench/results/latest.json, and the machine a run describes itself with: CPU model, cores, memory,
 * Node version, the commit measured, and the load average around each section (the machine is shared, and a
 * busy neighbour slows wall-clock figures; CPU-time figures suffer less).
 */
import type { CaptureResult } from './captured-cluster';
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';
import type { CliReport } from './cli-validate';
import type { CrdFolderReport } from './crd-folder';
import type { KustomizeTreeReport } from './kustomize-tree';
import type { EngineReport } from './engine';
import type { ExtensionReport } from './extension';
import type { GoalResult } from './goals';
import type { LanguageServerReport } from './language-servers';
import type { PhaseResult } from './server-phases';
import type { WarmUpReport } from './worker-warm-up';

/** The machine and build a run measured. */
export interface Machine {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly kernel: string;
  readonly commit: string;
}

/** The 1-minute load average before and after a section. */
export interface LoadSample {
  readonly section: string;
  readonly before: number;
  readonly after: number;
  readonly seconds: number;
}

/** Everything one `npm run bench` run measured. */
export interface BenchResults {
  /** A full run, the quick smoke run, or some sections alone (--only). */
  readonly kind: 'full' | 'quick' | 'partial';
  readonly startedAt: string;
  readonly machine: Machine;
  readonly load: LoadSample[];
  readonly languageServers?: LanguageServerReport;
  /** Where our server's time goes, per file size. */
  readonly phases?: PhaseResult[];
  /** The prediction worker's warm-up: a person typing in the 1,000-resource file, without it and with it. */
  readonly warmUp?: WarmUpReport;
  readonly engine?: EngineReport;
  readonly cli?: CliReport;
  /** `foresight validate` on a folder of large CRDs (issue #18). */
  readonly crd?: CrdFolderReport;
  /** `foresight validate -R` on a kustomize tree of about 500 files (issue #27). */
  readonly kustomize?: KustomizeTreeReport;
  /** A captured cluster of real size: read, simulated, held in memory; and whether the editor takes it. */
  readonly capture?: readonly CaptureResult[];
  readonly extension?: ExtensionReport;
  /** Sections that failed, with their error. */
  readonly failures: { readonly section: string; readonly error: string }[];
  readonly goals: GoalResult[];
}

function currentCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
    });
    return dirty.trim() === '' ? commit : `${commit} (with uncommitted changes)`;
  } catch {
    return 'unknown';
  }
}

/** Describes this machine. */
export function describeMachine(): Machine {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    kernel: `${process.platform} ${release()}`,
    commit: currentCommit(),
  };
}

/** The current 1-minute load average, to two decimals. */
export function loadNow(): number {
  return Math.round((loadavg()[0] ?? NaN) * 100) / 100;
}
