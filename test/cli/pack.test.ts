import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

// The package as npm publishes it: `npm pack` of this repository (dist/ built), installed into an empty folder
// with `npm install --offline`, then its `foresight` bin run on this Node (20 or later, as engines says) with no
// VS Code and no extension around. The install folder gets a package-lock.json made from the repository's (its
// production entries), so npm needs no registry metadata, only the dependencies' tarballs, which `npm ci` left in
// npm's cache. When they are not there the test is skipped, and says why.

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

interface LockEntry {
  readonly dev?: boolean;
  readonly devOptional?: boolean;
}

function npm(args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
  });
}

/** A folder to install into, whose lock pins the repository's production dependencies. */
function installFolder(parent: string): string {
  const folder = join(parent, 'consumer');
  mkdirSync(folder);
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', version: '1.0.0', dependencies: manifest.dependencies },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== '' && entry.dev !== true && entry.devOptional !== true) {
      packages[path] = entry;
    }
  }
  const pkg = { name: 'consumer', version: '1.0.0', private: true, dependencies: manifest.dependencies };
  writeFileSync(join(folder, 'package.json'), JSON.stringify(pkg, null, 2));
  writeFileSync(
    join(folder, 'package-lock.json'),
    JSON.stringify(
      { name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages },
      null,
      2,
    ),
  );
  return folder;
}

const VALID = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n';
const BROKEN =
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n    - port: "eighty"\n';

test(
  'npm pack gives a package whose foresight bin validates manifests on Node 20+ without the extension',
  { skip: !existsSync(CLI) && 'dist/cli.js is not built (run npm run build)', timeout: 60_000 },
  (t) => {
    const parent = mkdtempSync(join(tmpdir(), 'foresight-pack-'));
    t.after(() => rmSync(parent, { recursive: true, force: true }));
    const packed = npm(['pack', '--silent', '--pack-destination', parent], ROOT);
    assert.equal(packed.status, 0, packed.stderr);
    const tarball = join(parent, packed.stdout.trim().split('\n').at(-1) ?? '');
    assert.ok(existsSync(tarball), `npm pack wrote ${tarball}`);
    const consumer = installFolder(parent);
    const installed = npm(['install', '--offline', '--no-audit', '--no-fund', tarball], consumer);
    if (installed.status !== 0 && /ENOTCACHED|only-if-cached/.test(installed.stderr)) {
      const reason = `skipped: the dependencies are not in npm's cache (run npm ci first); npm said: ${
        installed.stderr.split('\n').find((line) => line.includes('ENOTCACHED') || line.includes('cached')) ??
        ''
      }`;
      console.log(reason);
      t.skip(reason);
      return;
    }
    assert.equal(installed.status, 0, installed.stderr);
    assert.ok(!existsSync(join(consumer, 'node_modules', 'vscode')), 'no vscode module is installed');
    assert.ok(
      existsSync(join(consumer, 'node_modules', 'kube-foresight', 'dist', 'cli.js')),
      'the package holds dist/cli.js',
    );
    // The validators the build compiled, which the CLI loads instead of compiling the schemas at start-up.
    const packaged = join(consumer, 'node_modules', 'kube-foresight');
    assert.ok(existsSync(join(packaged, 'dist', 'kubernetes-validators-1.35.js')), 'the prebuilt validators');
    // The bundle the launcher (dist/cli.js) loads, and the code caches the build wrote beside it and the validators.
    for (const file of ['cli-bundle.js', 'cli-bundle.js.cache', 'kubernetes-validators-1.35.js.cache']) {
      assert.ok(existsSync(join(packaged, 'dist', file)), `the package holds dist/${file}`);
    }
    // Sources, tests and source maps stay in the repository (.npmignore).
    for (const left of ['test', 'bench', 'server', 'dist/cli.js.map', 'dist/cli-bundle.js.map']) {
      assert.ok(!existsSync(join(packaged, left)), `the package leaves out ${left}`);
    }

    const major = Number(process.versions.node.split('.')[0]);
    assert.ok(major >= 20, `Node ${process.version}`);
    mkdirSync(join(consumer, 'k8s'));
    writeFileSync(join(consumer, 'k8s', 'settings.yaml'), VALID);
    writeFileSync(join(consumer, 'k8s', 'service.yaml'), BROKEN);
    // The bin's "#!/usr/bin/env node" finds this Node first on the PATH.
    const run = (args: readonly string[]): SpawnSyncReturns<string> =>
      spawnSync(join(consumer, 'node_modules', '.bin', 'foresight'), args, {
        cwd: consumer,
        encoding: 'utf8',
        env: {
          PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}`,
          HOME: consumer,
        },
      });
    const clean = run(['validate', 'k8s/settings.yaml']);
    assert.equal(clean.status, 0, clean.stderr);
    assert.equal(
      clean.stdout,
      '1 file(s) read, 1 apply unit, 1 object(s), checked against Kubernetes 1.35: 0 error(s), 0 other finding(s).\n',
    );
    const broken = run(['validate', 'k8s']);
    assert.equal(broken.status, 1, broken.stderr);
    assert.deepEqual(broken.stdout.trimEnd().split('\n'), [
      'k8s/service.yaml:7:13: error schema-type "spec.ports[0].port" must be integer, not string "eighty".',
      '2 file(s) read, 1 apply unit, 2 object(s), checked against Kubernetes 1.35: 1 error(s), 0 other finding(s).',
      'exit 1: 1 error (--fail-on error)',
    ]);
    const sarif = run(['validate', '--output', 'sarif', 'k8s/service.yaml']);
    assert.equal(sarif.status, 1);
    assert.equal((JSON.parse(sarif.stdout) as { version: string }).version, '2.1.0');
  },
);
