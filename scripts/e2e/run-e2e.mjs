// `npm run test:e2e`: the extension in a real VS Code workbench. Installs (or reuses from the cache) code-server,
// which serves VS Code's workbench and extension host to a browser, packages the .vsix if it is missing, then
// runs test/e2e/workbench/*.test.ts with Node's test runner: Debian's Chromium, driven by playwright-core, opens
// a copy of examples/ in code-server with the .vsix installed. Screenshots go to test-results/e2e/.
// Prints how long each part took. Exit code: the test runner's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const chromium = '/usr/bin/chromium';
const vsix = join(root, 'kube-foresight.vsix');
const timings = [];

/** Runs one part, timing it; stops the run with its exit code when it fails. */
function part(name, command, args, options = {}) {
  const started = process.hrtime.bigint();
  console.log(`::: e2e: ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  timings.push(`${name.padEnd(24)} ${seconds.toFixed(1).padStart(7)}s`);
  if (result.error !== undefined || result.status !== 0) {
    console.error(`e2e: ${name} failed (${result.error?.message ?? `exit code ${result.status}`})`);
    printTimings();
    process.exit(result.status || 1);
  }
  return result;
}

function printTimings() {
  console.log('::: e2e timings');
  for (const line of timings) console.log(line);
}

if (!existsSync(chromium)) {
  part('chromium', 'bash', [
    '-c',
    'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium',
  ]);
}

// The install script logs to stderr and names the installed folder on the last line of stdout.
const install = part('code-server', 'bash', [join(root, 'scripts/e2e/install-code-server.sh')], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
});
const home = /^CODE_SERVER_HOME=(.+)$/m.exec(install.stdout)?.[1];
if (home === undefined) {
  console.error(`e2e: the install script did not name code-server's folder:\n${install.stdout}`);
  process.exit(1);
}

// CI packages just before this step; a developer's run packages when the .vsix is missing or older than dist/.
const newestBuild = existsSync(join(root, 'dist'))
  ? Math.max(...readdirSync(join(root, 'dist')).map((name) => statSync(join(root, 'dist', name)).mtimeMs))
  : Infinity;
if (!existsSync(vsix) || statSync(vsix).mtimeMs < newestBuild) {
  part('package', 'npm', ['run', 'package', '--silent']);
}

mkdirSync(join(root, 'test-results/e2e'), { recursive: true });
const files = readdirSync(join(root, 'test/e2e/workbench'))
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => join('test/e2e/workbench', name));
part('workbench tests', process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
  env: {
    ...process.env,
    KUBE_FORESIGHT_CODE_SERVER_HOME: home,
    KUBE_FORESIGHT_VSIX: vsix,
    KUBE_FORESIGHT_CHROMIUM: chromium,
  },
});
printTimings();
