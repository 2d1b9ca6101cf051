/**
 * Runs the real kustomize on a kustomization folder, as `kubectl apply -k DIR` would, and says where each rendered
 * object came from. The folder is rendered through a wrapper kustomization in a temporary folder
 * (`resources: [DIR]`, `buildMetadata: [originAnnotations]`) so kustomize annotates every object with
 * `config.kubernetes.io/origin`: `path:` of the source file, or `configuredIn:` the kustomization whose generator
 * made it. Both paths are relative to the wrapper's folder. kustomize refuses an absolute path as a resource
 * ("new root '/…' cannot be absolute"), so the wrapper names DIR by its path relative to the temporary folder.
 * Rendering runs a program on the user's files: no shell, no plugins (never --enable-alpha-plugins,
 * --enable-exec or --enable-helm), a time limit, and kustomize's stderr kept for the finding.
 * https://github.com/kubernetes-sigs/kustomize/blob/master/api/resource/origin.go
 */
import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, isAbsolute, join, relative, sep } from 'node:path';
import type { RenderedObject } from '../../language/service';
import { isComponentFolder } from './kustomization-tree';
import { splitRendered } from './rendered-stream';

/** How long kustomize may run before it is stopped. */
export const RENDER_TIME_LIMIT_MS = 30_000;

/** The kustomize to run: kubectl's built-in one (`kubectl kustomize DIR`) or a kustomize binary (`build DIR`). */
export interface KustomizeCommand {
  readonly file: string;
  readonly args: readonly string[];
}

/** What a render gave. */
export type RenderResult =
  | { readonly ok: true; readonly objects: readonly RenderedObject[]; readonly warnings: string }
  | { readonly ok: false; readonly message: string };

/**
 * The kustomize to run: `--kustomize PATH` or FORESIGHT_KUSTOMIZE when given, else kubectl, else kustomize, found
 * on PATH; undefined when there is none.
 */
export function findKustomize(
  chosen: string | undefined,
  pathVariable: string | undefined,
): KustomizeCommand | undefined {
  const commandOf = (file: string): KustomizeCommand =>
    basename(file).startsWith('kubectl') ? { file, args: ['kustomize'] } : { file, args: ['build'] };
  if (chosen !== undefined && chosen !== '') {
    return commandOf(chosen);
  }
  for (const name of ['kubectl', 'kustomize']) {
    const found = (pathVariable ?? '')
      .split(delimiter)
      .filter((folder) => folder !== '')
      .map((folder) => join(folder, name))
      .find(isExecutable);
    if (found !== undefined) {
      return commandOf(found);
    }
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Renders the kustomization in `folder` (absolute) with kustomize, stopped (SIGKILL) after the time limit. */
export function renderKustomization(
  command: KustomizeCommand,
  folder: string,
  timeLimitMs: number = RENDER_TIME_LIMIT_MS,
): RenderResult {
  const wrapper = mkdtempSync(join(tmpdir(), 'foresight-kustomize-'));
  try {
    const target = writeWrapper(wrapper, folder);
    if (typeof target !== 'string') {
      return target;
    }
    const result = spawnSync(command.file, [...command.args, wrapper], {
      encoding: 'utf8',
      timeout: timeLimitMs,
      killSignal: 'SIGKILL',
      maxBuffer: MAX_OUTPUT_BYTES,
      shell: false,
      windowsHide: true,
    });
    return interpretRun(command, { ...result, error: result.error }, wrapper, folder, timeLimitMs);
  } finally {
    rmSync(wrapper, { recursive: true, force: true });
  }
}

/**
 * The same render without blocking the process: the language server renders while it keeps answering
 * keystrokes, so kustomize runs as a child process it awaits (same time limit, same SIGKILL).
 */
export async function renderKustomizationAsync(
  command: KustomizeCommand,
  folder: string,
  timeLimitMs: number = RENDER_TIME_LIMIT_MS,
): Promise<RenderResult> {
  const wrapper = await mkdtemp(join(tmpdir(), 'foresight-kustomize-'));
  try {
    const target = writeWrapper(wrapper, folder);
    if (typeof target !== 'string') {
      return target;
    }
    const result = await new Promise<ProcessOutcome>((resolveRun) => {
      execFile(
        command.file,
        [...command.args, wrapper],
        {
          encoding: 'utf8',
          timeout: timeLimitMs,
          killSignal: 'SIGKILL',
          maxBuffer: MAX_OUTPUT_BYTES,
          shell: false,
          windowsHide: true,
        },
        (error, stdout, stderr) => {
          // execFile reports a non-zero exit as an error carrying the code; only a failure to run (or the
          // time limit) is an error here, as with spawnSync.
          const failure = error as (NodeJS.ErrnoException & { killed?: boolean; code?: unknown }) | null;
          const exitCode = typeof failure?.code === 'number' ? failure.code : failure === null ? 0 : null;
          const timedOut = failure?.killed === true;
          resolveRun({
            stdout,
            stderr,
            status: exitCode,
            signal: failure?.killed === true ? 'SIGKILL' : null,
            error: timedOut
              ? Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })
              : failure !== null && typeof failure.code === 'string'
                ? failure
                : undefined,
          });
        },
      );
    });
    return interpretRun(command, result, wrapper, folder, timeLimitMs);
  } finally {
    await rm(wrapper, { recursive: true, force: true });
  }
}

/** The most output read from kustomize. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** What a kustomize process gave, from spawnSync or execFile. */
interface ProcessOutcome {
  readonly stdout: string | null;
  readonly stderr: string | null;
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly error: Error | undefined;
}

/**
 * Writes the wrapper kustomization naming `folder` relative to it; returns that relative path, or a failed
 * result when it cannot be named so.
 */
function writeWrapper(wrapper: string, folder: string): string | RenderResult {
  const target = relative(wrapper, folder).split(sep).join('/');
  if (isAbsolute(target)) {
    return { ok: false, message: `${folder} cannot be named relative to ${wrapper} (another drive)` };
  }
  // A Component (kind: Component) cannot be a resource of a kustomization ("expected kind != 'Component'"), yet
  // `kubectl apply -k` renders one as its root; the wrapper names it as a component, which renders the same.
  const field = isComponentFolder(folder) ? 'components' : 'resources';
  writeFileSync(
    join(wrapper, 'kustomization.yaml'),
    `${field}:\n  - ${JSON.stringify(target)}\nbuildMetadata: [originAnnotations]\n`,
  );
  return target;
}

/** The render's result from the process's outcome: its objects, or kustomize's message. */
function interpretRun(
  command: KustomizeCommand,
  result: ProcessOutcome,
  wrapper: string,
  folder: string,
  timeLimitMs: number,
): RenderResult {
  const stderr = cleanStderr(result.stderr ?? '', wrapper, folder);
  if (result.error !== undefined) {
    const code = (result.error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      message:
        code === 'ETIMEDOUT'
          ? `${command.file} did not finish within ${timeLimitMs / 1000} s and was stopped${stderr === '' ? '' : `: ${stderr}`}`
          : `${command.file} could not be run: ${result.error.message}`,
    };
  }
  if (result.status !== 0) {
    return {
      ok: false,
      message:
        stderr === '' ? `${command.file} exited with ${String(result.status ?? result.signal)}` : stderr,
    };
  }
  return { ok: true, objects: splitRendered(result.stdout ?? '', wrapper), warnings: stderr };
}

/**
 * kustomize's message without kubectl's log prefix and quoting, and without the wrapper's layer ("accumulating
 * resources from '../DIR' … recursed accumulation of path 'DIR': "), which is ours, not the user's.
 */
function cleanStderr(stderr: string, wrapper: string, folder: string): string {
  let text = stderr
    .replace(/^E\d{4} [\d:.]+\s+\d+ \S+\] "command failed" err="(.*)"$/gm, '$1')
    // klog writes a multi-line error as `err=<`, its lines indented by a tab, then ` >`.
    .replace(
      /^E\d{4} [\d:.]+\s+\d+ \S+\] "command failed" err=<\n((?:\t.*\n?)*)\s*>\s*$/gm,
      (_all, body: string) => body.replace(/^\t/gm, ''),
    )
    // Other klog lines (kustomize's "well-defined vars that were never replaced") without their header.
    .replace(/^[IWE]\d{4} [\d:.]+\s+\d+ \S+\] /gm, '')
    .replace(/^Error: /gm, '')
    .trim();
  const layer = `recursed accumulation of path '${folder}': `;
  if (text.includes(layer)) {
    text = text.slice(text.indexOf(layer) + layer.length);
  }
  return text.split(wrapper).join('<wrapper>');
}
