import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateInNewPool } from '../../server/src/cli/parallel/validate-in-threads';
import type { InputText } from '../../server/src/language/service';
import { TEST_SERVICE } from '../support/language-service';

// validate-in-threads.ts hands files out one at a time to the thread that is free: a slow worker gets few files
// and this thread the rest, every file is analysed once, and the result stays in input order. The worker here
// is a stand-in that takes 150 ms a file and answers with an empty outline (no documents), so its files show.

const SLOW_WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (message) => {
  if (message.type === 'analyze') {
    const until = Date.now() + 150;
    while (Date.now() < until) {}
    parentPort.postMessage({
      type: 'analyzed',
      outlines: message.texts.map((text) => [text.index, { findings: [], documents: [] }]),
    });
  } else {
    parentPort.postMessage({ type: 'placed', targetPorts: [], reader: [] });
  }
});
`;

test('a slow worker gets fewer files than an even share; every file is analysed once, in input order', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'foresight-worker-')), 'worker.js');
  writeFileSync(file, SLOW_WORKER);
  const texts: InputText[] = Array.from({ length: 30 }, (_, index) => ({
    id: `f${index}.yaml`,
    text: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${index}\n`,
  }));
  const validated = await validateInNewPool(
    texts,
    { kubernetesVersion: '1.35', maxFileLength: 1 << 20 },
    file,
    2,
    TEST_SERVICE,
  );
  assert.deepEqual(
    validated.map((entry) => entry.file.id),
    texts.map((text) => text.id),
  );
  const byWorker = validated.filter((entry) => entry.file.analysis.documents.length === 0).length;
  const here = validated.filter((entry) => entry.file.analysis.documents.length === 1).length;
  assert.equal(byWorker + here, 30);
  assert.ok(byWorker >= 1, 'the worker is asked too');
  assert.ok(byWorker < 15, `the slow worker analysed ${byWorker} of 30 files`);
});

test('files of one name are refused in threads (their findings are placed by name)', async () => {
  const text = { id: 'same.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n' };
  await assert.rejects(
    validateInNewPool(
      [text, text],
      { kubernetesVersion: '1.35', maxFileLength: 1 << 20 },
      '/nonexistent.js',
      2,
      TEST_SERVICE,
    ),
    /files of one name cannot be validated in threads/,
  );
});
