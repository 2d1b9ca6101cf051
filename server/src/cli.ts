/**
 * `foresight`: the command-line twin of the language server, for CI. Dispatches to one command per module.
 *   foresight validate PATH...   schema and rule validation, as in the editor
 *   foresight simulate PATH...   where each Pod lands on a simulated cluster, or why it stays Pending
 *   foresight plan PATH...       what kubectl apply would change on a captured cluster, and what follows
 *   foresight capture            the cluster kubectl reaches, into .foresight/cluster.yaml
 *   foresight profiles           the cluster profiles --profile takes
 */
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { isValidateWorkerData } from './cli/parallel/worker-messages';
import { runValidateWorker } from './cli/parallel/validate-worker';
import type { CliIo } from './cli/io';
import { writeInPieces } from './cli/io';
import { createDiskLanguageService } from './files/schema-files';
import { COMMON_OPTIONS_HELP } from './cli/outcome';
import { runValidate, VALIDATE_USAGE } from './cli/validate';
import { runSimulate, SIMULATE_USAGE } from './cli/simulate';
import { PLAN_USAGE, runPlan } from './cli/plan';
import { CAPTURE_USAGE, runCapture } from './cli/capture/capture-command';
import { PROFILES_USAGE, runProfiles } from './cli/profiles';

const USAGE = `usage: foresight <command> [options] PATH...

commands:
  validate   check manifests against the Kubernetes schemas and API rules
  simulate   predict where each Pod lands on a simulated cluster, or why it stays Pending
  plan       what kubectl apply would change on a captured cluster and what follows (text, markdown, json)
  capture    capture the cluster kubectl reaches (the current context) into .foresight/cluster.yaml
  profiles   list the cluster profiles: real node shapes, for predictions without a capture

${VALIDATE_USAGE}
${SIMULATE_USAGE}
${PLAN_USAGE}
${CAPTURE_USAGE}
${PROFILES_USAGE}

PATH is a file or a folder, read as kubectl apply -f reads it (.yaml, .yml and .json files); - reads standard input.
A folder holding a kustomization.yaml is rendered by kustomize and read as kubectl apply -k reads it.

${COMMON_OPTIONS_HELP}

options of validate and simulate:
  --kustomize PATH         the kustomize (or kubectl) binary that renders kustomization folders (default:
                           FORESIGHT_KUSTOMIZE, else kubectl, else kustomize found on PATH)
  --kustomize-allow-remote render kustomizations that name remote bases (git, https); refused by default

options of validate:
  --max-file-size-kb N     files larger than this are not analysed (default 8192)

options of simulate:
  --cluster FILE           the cluster to simulate (a capture, kubectl get nodes -o yaml, or a cluster file;
                           repeatable); without it, the embedded default cluster (profile default)
  --profile NAME           simulate on a profile: real node shapes of a cloud or a local distribution
                           (foresight profiles lists them)
  --until SECONDS          stop the timeline at this simulated time
  --drain NODE@SECONDS, --fail-node NODE@SECONDS, --scale [NAMESPACE/]KIND/NAME=REPLICAS@SECONDS,
  --add-node NAME[=LIKE]@SECONDS
                           scenario steps at a simulated time

options of capture:
  --context NAME           the kubeconfig context to capture (default: the current context)
  --kubeconfig FILE        the kubeconfig kubectl reads (default: kubectl's, KUBECONFIG or ~/.kube/config)
  --output-file FILE       where the capture goes (default .foresight/cluster.yaml)
  --kubectl PATH           the kubectl binary (default: FORESIGHT_KUBECTL, else kubectl on PATH)

run "foresight <command> --help" for a command's usage.
`;

/** Runs the CLI with arguments (without node and script); resolves to the exit code. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'validate':
      if (rest.includes('--help') || rest.includes('-h')) {
        io.stdout(`${VALIDATE_USAGE}\n\n${COMMON_OPTIONS_HELP}\n`);
        return 0;
      }
      return runValidate(rest, io, createDiskLanguageService());
    case 'simulate':
      return runSimulate(rest, io, createDiskLanguageService());
    case 'plan':
      return runPlan(rest, io, createDiskLanguageService());
    case 'capture':
      return runCapture(rest, io);
    case 'profiles':
      return runProfiles(rest, io);
    case '--help':
    case '-h':
    case 'help':
      io.stdout(USAGE);
      return 0;
    case undefined:
      io.stderr(USAGE);
      return 2;
    default:
      io.stderr(`foresight: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

/**
 * Runs the command line of this process: writes to its standard streams and sets its exit code. `workerScript` is
 * the script `foresight validate`'s worker threads run: the launcher (dist/cli.js), which loads this bundle with
 * its code cache.
 */
export function main(workerScript: string): void {
  // A reader that stops early (`foresight simulate … | head`) closes the pipe: that is not an error of ours.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') {
      process.exit(process.exitCode ?? 0);
    }
    throw error;
  });
  const io: CliIo = {
    stdout: (text) => {
      writeInPieces((piece) => process.stdout.write(piece), text);
    },
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    readStdin: () => readFileSync(0, 'utf8'),
    env: process.env,
    workerScript,
  };
  runCli(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `foresight: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 3;
    },
  );
}

if (!isMainThread && parentPort !== null && isValidateWorkerData(workerData)) {
  // This bundle started as one of `foresight validate`'s worker threads (cli/parallel/validate-in-threads.ts).
  runValidateWorker(parentPort, workerData, createDiskLanguageService());
} else if (require.main === module) {
  // The bundle run directly (node dist/cli-bundle.js) rather than through the launcher.
  main(__filename);
}
