/**
 * `foresight validate DIR` on a generated tree (10 folders of 10 files of 100 resources for the full run, one
 * known error in the first file): resources per second from spawn to exit, as CI sees it, after one warm-up run
 * (which also warms the disk cache), with CPU time and peak memory of the process.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateManifests } from './manifests';
import { runNode } from './support/child-run';
import type { Summary } from './support/stats';
import { summarize } from './support/stats';

/** The CLI section of the report. */
export interface CliReport {
  readonly resources: number;
  readonly files: number;
  readonly mib: number;
  readonly resourcesPerSecond: Summary;
  readonly wallMs: Summary;
  readonly cpuMs: Summary;
  readonly peakRssMiB: Summary;
  /** The exit code (1: the known error was found) and the error lines it printed. */
  readonly exitCode: number | null;
  readonly reportedErrors: number;
}

/** Sizes and repeats of a run. */
export interface CliOptions {
  readonly folders: number;
  readonly filesPerFolder: number;
  readonly resourcesPerFile: number;
  readonly repeats: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}

/** Writes the tree; returns its root, file count and size. */
function writeTree(options: CliOptions): { root: string; files: number; bytes: number } {
  const root = join(options.workDir, 'cli-tree');
  let files = 0;
  let bytes = 0;
  for (let folder = 0; folder < options.folders; folder++) {
    const dir = join(root, `team-${folder}`, 'manifests');
    mkdirSync(dir, { recursive: true });
    for (let file = 0; file < options.filesPerFolder; file++) {
      const text = generateManifests(options.resourcesPerFile, files === 0);
      writeFileSync(join(dir, `app-${file}.yaml`), text);
      files++;
      bytes += Buffer.byteLength(text);
    }
  }
  return { root, files, bytes };
}

/** Runs the CLI benchmark. */
export async function benchCli(options: CliOptions): Promise<CliReport> {
  const { root, files, bytes } = writeTree(options);
  const resources = files * options.resourcesPerFile;
  const cli = join(__dirname, '..', 'dist', 'cli.js');
  await runNode(cli, ['validate', '-R', root]);
  const runs = [];
  for (let i = 0; i < options.repeats; i++) {
    runs.push(await runNode(cli, ['validate', '-R', root]));
  }
  const last = runs[runs.length - 1];
  const report: CliReport = {
    resources,
    files,
    mib: Math.round((bytes / 2 ** 20) * 10) / 10,
    resourcesPerSecond: summarize(runs.map((run) => resources / (run.wallMs / 1000))),
    wallMs: summarize(runs.map((run) => run.wallMs)),
    cpuMs: summarize(runs.map((run) => run.cpuMs)),
    peakRssMiB: summarize(runs.map((run) => run.peakRssMiB)),
    exitCode: last?.exitCode ?? null,
    reportedErrors: (last?.stdout ?? '').split('\n').filter((line) => /:\d+:\d+: error /.test(line)).length,
  };
  options.log(
    `foresight validate ${resources} resources in ${files} files: ${Math.round(report.resourcesPerSecond.median)} resources/s ` +
      `(${Math.round(report.wallMs.median)} ms wall, exit ${String(report.exitCode)}, ${report.reportedErrors} error line(s))`,
  );
  return report;
}
