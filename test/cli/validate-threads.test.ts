import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateInNewPool } from '../../server/src/cli/parallel/validate-in-threads';
import {
  likelyThreadsFor,
  validatesInPool,
  validateThreadsFor,
} from '../../server/src/cli/parallel/thread-count';
import type { InputText } from '../../server/src/language/service';
import { TEST_SERVICE } from '../support/language-service';
import { runForesight } from './cli-harness';

// `foresight validate` in worker threads prints what one thread prints, byte for byte, on a folder whose files
// depend on each other: a CRD and its custom resources (the second analysis), a ConfigMap defined twice (once as
// a List item), a Service whose targetPort no selected container names, a Pod with generateName only.

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FOLDER = 'test/fixtures/cli/threads';
const NOT_BUILT = !existsSync(CLI) && 'dist/cli.js is not built (run npm run build)';

function validate(
  threads: number,
  output: string,
): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI, 'validate', '--output', output, FOLDER], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, FORESIGHT_VALIDATE_THREADS: String(threads) },
  });
}

for (const output of ['text', 'json', 'sarif', 'junit']) {
  test(
    `validate --output ${output} in 2 and 3 worker threads prints what one thread prints`,
    { skip: NOT_BUILT },
    () => {
      const single = validate(1, output);
      assert.equal(single.status, 1, single.stderr);
      for (const threads of [2, 3]) {
        const parallel = validate(threads, output);
        assert.equal(parallel.stderr, single.stderr);
        assert.equal(parallel.status, single.status);
        assert.equal(parallel.stdout, single.stdout);
      }
    },
  );
}

test(
  'the fixture exercises every step across files, so the comparison above means something',
  { skip: NOT_BUILT },
  () => {
    const { stdout } = validate(2, 'text');
    assert.match(stdout, /widgets\.yaml:13:9: error schema-type "spec\.size" must be integer/);
    assert.match(
      stdout,
      /config-a\.yaml:4:9: warning duplicate-object .* defined again in test\/fixtures\/cli\/threads\/config-b\.yaml:4:/,
    );
    assert.match(stdout, /config-a\.yaml:11:17: error generate-name-with-apply /);
    assert.match(stdout, /service\.yaml:10:19: warning target-port-not-found targetPort "http-alt"/);
    assert.match(
      stdout,
      /7 file\(s\) read, 1 apply unit, 12 object\(s\), checked against Kubernetes 1\.35: 6 error\(s\), 2 other finding\(s\)\./,
    );
  },
);

test(
  'a large input in one thread goes through a pool of this thread alone and prints what the plain run prints',
  { skip: NOT_BUILT },
  async () => {
    // The fixture and enough more files to count as large (21): the spawned CLI pools them in its one thread,
    // the run in process (no worker script) analyses them the plain way.
    const dir = mkdtempSync(join(tmpdir(), 'foresight-pool-'));
    cpSync(join(ROOT, FOLDER), dir, { recursive: true });
    for (let index = 0; index < 14; index++) {
      writeFileSync(
        join(dir, `extra-${index}.yaml`),
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra-${index}\ndata:\n  size: ${index}\n`,
      );
    }
    for (const output of ['text', 'json']) {
      const pooled = spawnSync(process.execPath, [CLI, 'validate', '--output', output, '.'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, FORESIGHT_VALIDATE_THREADS: '1' },
      });
      const plain = await runForesight(['validate', '--output', output, '.'], { cwd: dir });
      assert.equal(pooled.stderr, plain.stderr);
      assert.equal(pooled.status, plain.code);
      assert.equal(pooled.stdout, plain.stdout);
    }
  },
);

const TEXTS: InputText[] = [
  { id: 'a.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n' },
  { id: 'b.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n' },
];
const OPTIONS = { kubernetesVersion: '1.35', maxFileLength: 1 << 20 };

function script(body: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'foresight-worker-')), 'worker.js');
  writeFileSync(file, body);
  return file;
}

const FAILING_WORKERS = [
  {
    name: 'a worker that throws is reported with its name and error, not waited for',
    body: "throw new Error('schemas unreadable');",
    expected: /validate worker thread \d failed: Error: schemas unreadable/,
  },
  {
    name: 'a worker that exits without answering is reported, not waited for',
    body: 'process.exit(7);',
    expected: /validate worker thread \d exited \(code 7\) before answering its analyze request/,
  },
  {
    name: 'a worker that answers that it failed is reported with the file it was analysing',
    body:
      "const { parentPort } = require('node:worker_threads');" +
      "parentPort.on('message', () => parentPort.postMessage({ type: 'failed', message: 'while analysing a.yaml: RangeError: boom' }));",
    expected: /validate worker thread \d failed while analysing a\.yaml: RangeError: boom/,
  },
];

for (const { name, body, expected } of FAILING_WORKERS) {
  test(name, async () => {
    await assert.rejects(validateInNewPool(TEXTS, OPTIONS, script(body), 2, TEST_SERVICE), expected);
  });
}

test('a little input stays in one thread; many files or a large one use 2 to 4 on 3 cores or more, one on fewer; the variable decides when set', () => {
  const files = (count: number, size = 10): InputText[] =>
    Array.from({ length: count }, (_, index) => ({ id: `f${index}.yaml`, text: 'x'.repeat(size) }));
  assert.equal(validateThreadsFor(files(20), { stdout: () => {}, stderr: () => {}, cwd: '.' }), 1);
  assert.equal(validateThreadsFor(files(1, 300 * 1024), { stdout: () => {}, stderr: () => {}, cwd: '.' }), 1);
  const many = validateThreadsFor(files(21), { stdout: () => {}, stderr: () => {}, cwd: '.' });
  const large = validateThreadsFor(files(2, 150 * 1024), { stdout: () => {}, stderr: () => {}, cwd: '.' });
  for (const threads of [many, large]) {
    assert.ok(threads === 1 || (threads >= 2 && threads <= 4), `${threads} threads`);
  }
  const io = (value: string) => ({
    stdout: () => {},
    stderr: () => {},
    cwd: '.',
    env: { FORESIGHT_VALIDATE_THREADS: value },
  });
  assert.equal(validateThreadsFor(files(3), io('3')), 3);
  assert.equal(validateThreadsFor(files(2), io('8')), 2);
  assert.equal(validateThreadsFor(files(50), io('1')), 1);
  assert.equal(validateThreadsFor(files(50), io('many')), 1);
  // Two kustomizations' renders of one source file share its name: one thread, even when asked for more.
  const twice = [...files(2), ...files(1)];
  assert.equal(validateThreadsFor(twice, io('3')), 1);
  // A large input goes through the pool even in one thread; a little one, or one with a repeated name, does not.
  assert.equal(validatesInPool(files(21), 1), true);
  assert.equal(validatesInPool(files(2, 150 * 1024), 1), true);
  assert.equal(validatesInPool(files(20), 1), false);
  assert.equal(validatesInPool(files(3), 3), true);
  assert.equal(validatesInPool([...files(21), ...files(1)], 1), false);
});

test('the workers are started before the input is read when a path is a folder or there are many paths', () => {
  const io = (env: Record<string, string> = {}) => ({ stdout: () => {}, stderr: () => {}, cwd: ROOT, env });
  const cores = validateThreadsFor(
    Array.from({ length: 21 }, (_, index) => ({ id: `f${index}.yaml`, text: 'x' })),
    io(),
  );
  // A folder, or 21 paths, is likely many files: as many threads as many files get.
  assert.equal(likelyThreadsFor([FOLDER], io()), cores);
  assert.equal(
    likelyThreadsFor(
      Array.from({ length: 21 }, (_, index) => `f${index}.yaml`),
      io(),
    ),
    cores,
  );
  // A few files, standard input or a path that does not exist: this thread alone, workers only if the input
  // read turns out large.
  assert.equal(likelyThreadsFor([`${FOLDER}/crds.yaml`], io()), 1);
  assert.equal(likelyThreadsFor(['-'], io()), 1);
  assert.equal(likelyThreadsFor(['no/such/folder'], io()), 1);
  // The variable decides when set.
  assert.equal(likelyThreadsFor([`${FOLDER}/crds.yaml`], io({ FORESIGHT_VALIDATE_THREADS: '3' })), 3);
  assert.equal(likelyThreadsFor([FOLDER], io({ FORESIGHT_VALIDATE_THREADS: '1' })), 1);
});
