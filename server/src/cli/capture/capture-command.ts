/**
 * `foresight capture [--context NAME] [--kubeconfig FILE] [--output-file FILE] [--kubectl PATH]`: captures the
 * cluster the user's kubectl reaches, in one step, into `.foresight/cluster.yaml` (or FILE). It asks kubectl for
 * the current context, the server's version (`kubectl version -o json`) and each resource the engine reads
 * (engine/model/load/capture-resources.ts, `kubectl get RESOURCE -A -o json`), printing one progress line per resource
 * (protocol/capture-progress.ts). A resource the user may not list, or that the server does not serve, is left
 * out of the header with kubectl's message as a note; any other failure (no cluster reachable, a broken
 * kubeconfig) stops the capture with kubectl's message, unchanged, and writes nothing. Secrets are reduced to
 * their names and keys in memory (reduce-objects.ts); the file is written whole or not at all (capture-file.ts).
 * Exit 0 written, 1 kubectl failed (nothing written), 2 usage error.
 */
import { resolve } from 'node:path';
import { formatCaptureProgress } from '../../../../protocol/capture-progress';
import { CAPTURE_RESOURCES, qualifiedResourceName } from '../../language/service';
import type { CliIo } from '../io';
import { captureText, writeAtomically } from './capture-file';
import { isLeftOutResource, runKubectl } from './kubectl';
import type { KubectlTarget } from './kubectl';
import { reduceObject } from './reduce-objects';
import { appendAll } from '../../../../protocol/collections';

/** The usage line of the capture command. */
export const CAPTURE_USAGE =
  'usage: foresight capture [--context NAME] [--kubeconfig FILE] [--output-file FILE] [--kubectl PATH]';

/** Where the capture goes by default, relative to the working directory. */
const DEFAULT_OUTPUT = '.foresight/cluster.yaml';

interface CaptureOptions {
  context: string | undefined;
  kubeconfig: string | undefined;
  outputFile: string;
  kubectl: string;
}

/** Runs the capture command; resolves to the exit code. */
export async function runCapture(args: readonly string[], io: CliIo): Promise<number> {
  const options = parseCaptureArgs(args, io);
  if ('help' in options) {
    io.stdout(`${CAPTURE_USAGE}\n`);
    return 0;
  }
  if ('error' in options) {
    io.stderr(`foresight capture: ${options.error}\n${CAPTURE_USAGE}\n`);
    return 2;
  }
  const env: NodeJS.ProcessEnv = { ...(io.env ?? process.env) };
  const target: KubectlTarget = {
    binary: options.kubectl,
    context: options.context,
    kubeconfig: options.kubeconfig,
    env,
  };
  const fail = (kubectlMessage: string): number => {
    io.stderr(
      kubectlMessage.endsWith('\n') || kubectlMessage === '' ? kubectlMessage : `${kubectlMessage}\n`,
    );
    io.stderr('foresight capture: nothing was written\n');
    return 1;
  };
  let context = options.context;
  if (context === undefined) {
    const current = await runKubectl(target, ['config', 'current-context']);
    if (current.code !== 0) {
      return fail(current.stderr);
    }
    context = current.stdout.trim();
  }
  const version = await runKubectl(target, ['version', '-o', 'json']);
  const serverVersion = version.code === 0 ? gitVersionOf(version.stdout) : null;
  if (version.code !== 0) {
    return fail(version.stderr);
  }
  if (serverVersion === null) {
    return fail(`kubectl version -o json printed no serverVersion.gitVersion:\n${version.stdout}`);
  }
  const capturedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const objects: unknown[] = [];
  const kinds: string[] = [];
  const leftOut: { resource: string; message: string }[] = [];
  for (const [index, entry] of CAPTURE_RESOURCES.entries()) {
    io.stderr(
      `${formatCaptureProgress({ done: index + 1, total: CAPTURE_RESOURCES.length, resource: entry.resource })}\n`,
    );
    const run = await runKubectl(target, [
      'get',
      qualifiedResourceName(entry),
      ...(entry.isNamespaced ? ['--all-namespaces'] : []),
      '-o',
      'json',
    ]);
    if (run.code !== 0 && run.code !== null && isLeftOutResource(run.stderr)) {
      io.stderr(run.stderr.endsWith('\n') ? run.stderr : `${run.stderr}\n`);
      io.stderr(
        `foresight capture: ${entry.resource} left out of the capture: its objects are assumed, not known\n`,
      );
      leftOut.push({ resource: entry.resource, message: run.stderr });
      continue;
    }
    const items = run.code === 0 ? itemsOf(run.stdout) : null;
    if (run.code !== 0) {
      return fail(run.stderr);
    }
    if (items === null) {
      return fail(`kubectl get ${qualifiedResourceName(entry)} -o json printed no list of objects`);
    }
    appendAll(objects, items.map(reduceObject));
    kinds.push(entry.resource);
  }
  const file = resolve(io.cwd, options.outputFile);
  try {
    writeAtomically(file, captureText({ context, capturedAt, serverVersion, kinds, leftOut }, objects));
  } catch (error) {
    io.stderr(
      `foresight capture: could not write ${file}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const left = leftOut.length === 0 ? '' : `; left out: ${leftOut.map((entry) => entry.resource).join(', ')}`;
  io.stdout(
    `Captured ${objects.length} objects of ${kinds.length} resources from context ${context} (${serverVersion}) into ${options.outputFile}${left}\n`,
  );
  return 0;
}

/** Parses the command line, or returns what is wrong with it. */
function parseCaptureArgs(
  args: readonly string[],
  io: CliIo,
): CaptureOptions | { readonly help: true } | { readonly error: string } {
  const options: CaptureOptions = {
    context: undefined,
    kubeconfig: undefined,
    outputFile: DEFAULT_OUTPUT,
    kubectl: io.env?.['FORESIGHT_KUBECTL'] ?? 'kubectl',
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      return { help: true };
    }
    if (!arg.startsWith('-')) {
      return { error: `unexpected argument ${arg}: capture takes no path (--output-file names the file)` };
    }
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = equals < 0 ? arg : arg.slice(0, equals);
    if (!['--context', '--kubeconfig', '--output-file', '--kubectl'].includes(flag)) {
      return { error: `unknown option ${flag}` };
    }
    const value = equals < 0 ? args[++i] : arg.slice(equals + 1);
    if (value === undefined || value === '') {
      return { error: `${flag} needs a value` };
    }
    switch (flag) {
      case '--context':
        options.context = value;
        break;
      case '--kubeconfig':
        options.kubeconfig = value;
        break;
      case '--output-file':
        options.outputFile = value;
        break;
      default:
        options.kubectl = value;
    }
  }
  return options;
}

/** serverVersion.gitVersion of `kubectl version -o json`, or null. */
function gitVersionOf(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { serverVersion?: { gitVersion?: unknown } };
    const version = parsed.serverVersion?.gitVersion;
    return typeof version === 'string' && version !== '' ? version : null;
  } catch {
    return null;
  }
}

/** The items of `kubectl get -o json`'s List, or null when the output is not one. */
function itemsOf(text: string): unknown[] | null {
  try {
    const parsed = JSON.parse(text) as { items?: unknown };
    return Array.isArray(parsed.items) ? (parsed.items as unknown[]) : null;
  } catch {
    return null;
  }
}
