/**
 * Runs the user's kubectl for `foresight capture`: without a shell (the arguments are passed as they are), with
 * the context and kubeconfig the user chose, and collects its output. kubectl's own error text is kept as it is:
 * the capture shows it unchanged.
 */
import { spawn } from 'node:child_process';

/** Which kubectl, and which cluster it talks to. */
export interface KubectlTarget {
  /** The binary: a path, or a name found on PATH. */
  readonly binary: string;
  /** --context, or undefined for the kubeconfig's current context. */
  readonly context: string | undefined;
  /** --kubeconfig, or undefined for kubectl's own default (KUBECONFIG, ~/.kube/config). */
  readonly kubeconfig: string | undefined;
  /** The environment kubectl runs with. */
  readonly env: NodeJS.ProcessEnv;
}

/** What one run of kubectl gave. */
export interface KubectlRun {
  /** The exit code, or null when kubectl could not be started (then `stderr` says why). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How long one kubectl run may take before it is stopped (a list of a large cluster's pods takes seconds). */
const KUBECTL_TIMEOUT_MS = 300_000;

/** The arguments that choose the cluster, before the command's own. */
function targetArgs(target: KubectlTarget): string[] {
  return [
    ...(target.kubeconfig === undefined ? [] : ['--kubeconfig', target.kubeconfig]),
    ...(target.context === undefined ? [] : ['--context', target.context]),
  ];
}

/** Runs kubectl with the target's flags and `args`. */
export function runKubectl(target: KubectlTarget, args: readonly string[]): Promise<KubectlRun> {
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let settled = false;
    const finish = (run: KubectlRun): void => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(run);
      }
    };
    const child = spawn(target.binary, [...targetArgs(target), ...args], {
      env: target.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
    });
    const timer = setTimeout(() => {
      child.kill();
      finish({
        code: null,
        stdout: '',
        stderr: `${target.binary} ${args.join(' ')} did not finish within ${KUBECTL_TIMEOUT_MS / 1000} s and was stopped\n`,
      });
    }, KUBECTL_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'ENOENT'
          ? `${target.binary} was not found: install kubectl, or give its path with --kubectl`
          : `${target.binary} could not be started: ${error.message}`;
      finish({ code: null, stdout: '', stderr: `${why}\n` });
    });
    child.on('close', (code) => {
      finish({
        code: code ?? 1,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}

/**
 * Whether a failed `kubectl get` says the user may not list the resource (the API server's 403) or that the
 * server does not serve it: the capture leaves such a resource out, with a note, and goes on.
 */
export function isLeftOutResource(stderr: string): boolean {
  return /Error from server \(Forbidden\)|the server doesn't have a resource type/.test(stderr);
}
