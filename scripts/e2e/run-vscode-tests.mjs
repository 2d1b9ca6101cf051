// `npm run test:vscode`: the extension-host suite (test/e2e/vscode/) in a desktop VS Code through
// @vscode/test-electron. VS Code is the one named by VSCODE_EXECUTABLE_PATH, else the one @vscode/test-electron
// downloads (or finds already downloaded in .vscode-test/). When neither is possible (a machine that cannot
// download VS Code builds, like this project's CI) the suite is SKIPPED, not passed: it prints why and exits 0
// without running a test. CI runs `npm run test:e2e` (code-server in Chromium) instead.
// On Linux without a display, run it under a virtual one: xvfb-run -a npm run test:vscode
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';

const root = resolve(import.meta.dirname, '../..');

/** The VS Code to run, or a reason why none can be had. */
async function obtainVsCode() {
  const given = process.env.VSCODE_EXECUTABLE_PATH;
  if (given !== undefined && given !== '') {
    if (!existsSync(given)) {
      console.error(`test:vscode: VSCODE_EXECUTABLE_PATH names ${given}, which does not exist`);
      process.exit(1);
    }
    return { executable: given };
  }
  try {
    return { executable: await downloadAndUnzipVSCode({ version: 'stable', timeout: 30_000 }) };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}

const vscode = await obtainVsCode();
if (vscode.executable === undefined) {
  console.log(
    [
      'test:vscode SKIPPED (no test was run, nothing passed): VS Code could not be obtained on this machine.',
      `  @vscode/test-electron: ${vscode.reason}`,
      '  Set VSCODE_EXECUTABLE_PATH to an installed VS Code (the `code` binary of a .tar.gz or the app) to run',
      "  it here; `npm run test:e2e` tests the extension in code-server's workbench without a download.",
    ].join('\n'),
  );
  process.exit(0);
}
if (process.platform === 'linux' && !process.env.DISPLAY) {
  console.warn('test:vscode: no DISPLAY; if VS Code fails to start, run: xvfb-run -a npm run test:vscode');
}

const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  process.exit(build.status ?? 1);
}
const out = join(root, '.vscode-test', 'out');
await esbuild.build({
  entryPoints: [join(root, 'test/e2e/vscode/run-in-host.ts')],
  outfile: join(out, 'run-in-host.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  external: ['vscode'],
  logLevel: 'warning',
});

// A copy of examples/ without its cluster file (it plays a drain scenario; the cases expect the embedded default
// cluster, then set kubeForesight.cluster themselves), and a private profile.
const base = mkdtempSync(join(tmpdir(), 'kube-foresight-vscode-'));
const workspace = join(base, 'workspace');
cpSync(join(root, 'examples'), workspace, { recursive: true });
rmSync(join(workspace, '.foresight'), { recursive: true, force: true });
let code = 0;
try {
  code = await runTests({
    vscodeExecutablePath: vscode.executable,
    extensionDevelopmentPath: root,
    extensionTestsPath: join(out, 'run-in-host.js'),
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
      '--user-data-dir',
      join(base, 'user-data'),
      '--extensions-dir',
      join(base, 'extensions'),
    ],
  });
} catch (error) {
  console.error(`test:vscode failed: ${error instanceof Error ? error.message : String(error)}`);
  code = 1;
} finally {
  rmSync(base, { recursive: true, force: true });
}
process.exit(code);
