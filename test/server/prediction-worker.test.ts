/**
 * The prediction worker (dist/prediction-worker.js, built by `npm run build`) gives what the main thread gives:
 * a property test over random edit sequences compares, keystroke after keystroke, the prediction whose engine ran
 * in the worker (sent only the objects it does not hold yet, also when the file is analysed afresh and its objects
 * are new copies of the same data) with one run in this thread, workload for workload,
 * finding for finding. And a worker that crashes, hangs or cannot be found never leaves a request unanswered:
 * the request fails, the worker is started again, and after three failures in a row the simulations run in the
 * main thread; a request waiting behind a newer one of the same scope is dropped. A worker warming up on a large
 * scope between requests answers them as the main thread does.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import type { Settings } from '../../protocol/settings';
import { getAnalysisContext, TEST_SERVICE } from '../support/language-service';
import { PredictionService } from '../../server/src/host/prediction-service';
import type { Prediction, ScopeFile } from '../../server/src/language/service/prediction-types';
import { prepareScope } from '../../server/src/language/service/scope-simulation';
import type { ScopeSimulationInput } from '../../server/src/language/service/scope-simulation';
import { SimulationWorker } from '../../server/src/host/simulation-worker';
import { WARM_UP_MIN_OBJECTS } from '../../server/src/host/worker-warm-up';
import { SeededRandom } from '../../server/src/engine/sim/seeded-random';
import { FileAnalyzer, analyzeText } from '../../server/src/language/analyzer';
import { readManifests } from '../../server/src/language/manifests/read-manifests';
import { documentOf, edit } from '../support/random-manifests';

const WORKER_PATH = join(__dirname, '..', '..', 'dist', 'prediction-worker.js');
const URI = 'untitled:manifests.yaml';
const SETTINGS: Settings = { ...DEFAULT_SETTINGS, scope: 'file' };
const CONTEXT = getAnalysisContext('1.35', 1_000_000);

/** What a prediction says, in plain data (a finding's fix is a function of its text: left out). */
function observed(prediction: Prediction | undefined): unknown {
  assert.ok(prediction !== undefined);
  return {
    simulation: prediction.simulation,
    predictions: prediction.predictions,
    findings: JSON.parse(JSON.stringify([...prediction.findings])) as unknown,
    cluster: prediction.clusterName,
  };
}

/** The engine input of a small file. */
function inputOf(text: string): ScopeSimulationInput {
  const manifests = readManifests([{ id: URI, analysis: analyzeText(text, CONTEXT) }]).objects;
  return prepareScope(manifests, '1.35', CONTEXT, undefined, '').input;
}

const SMALL = documentOf(new SeededRandom(7), 1);

/** A Deployment of one replica that fits. */
const SMALL_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: app
          image: example/app:1
          resources:
            requests:
              cpu: 100m
`;

describe('Predictions run in the prediction worker', () => {
  for (const seed of [11, 12, 13]) {
    test(`equal those run in the main thread over 25 random edits (seed ${seed})`, async () => {
      const worker = new SimulationWorker({ script: WORKER_PATH, log: () => undefined });
      assert.equal(worker.isInThread, false, `${WORKER_PATH} is built`);
      try {
        const random = new SeededRandom(seed);
        let counter = 100;
        const next = (): number => counter++;
        const documents = Array.from({ length: 12 }, (_, index) => documentOf(random, index));
        const analyzer = new FileAnalyzer();
        let file: ScopeFile | undefined;
        const open = { openAnalyses: () => (file === undefined ? [] : [file]) };
        const inWorker = new PredictionService(open, TEST_SERVICE);
        const inThread = new PredictionService(open, TEST_SERVICE);
        for (let step = 0; step < 25; step++) {
          edit(random, documents, next);
          const text = documents.join('---\n');
          // Every fifth step the file is analysed afresh, as after a close and an open: new objects of the same
          // data, which the worker takes as those it holds (simulation-transfer.ts).
          const analysis = (step % 5 === 4 ? new FileAnalyzer() : analyzer).analyze(text, CONTEXT);
          file = { uri: URI, analysis, text };
          const fromWorker = await inWorker.predictWith(URI, SETTINGS, CONTEXT, true, worker);
          assert.deepEqual(
            observed(fromWorker),
            observed(inThread.predict(URI, SETTINGS, CONTEXT, true)),
            `step ${step}`,
          );
        }
        assert.equal(worker.isInThread, false, 'no run fell back to the main thread');
      } finally {
        worker.dispose();
      }
    });
  }

  test('a request waiting behind a newer one of the same scope is dropped; other scopes wait their turn', async () => {
    const worker = new SimulationWorker({ script: WORKER_PATH, log: () => undefined });
    try {
      const input = inputOf(SMALL);
      const running = worker.simulate('a', input, '');
      const superseded = worker.simulate('a', input, '');
      const otherScope = worker.simulate('b', input, '');
      const newest = worker.simulate('a', input, '');
      const expected = TEST_SERVICE.simulateScope(input);
      assert.deepEqual(await running, expected);
      assert.equal(await superseded, undefined);
      assert.deepEqual(await otherScope, expected);
      assert.deepEqual(await newest, expected);
    } finally {
      worker.dispose();
    }
  });
});

describe('The prediction worker warming up on a large scope (worker-warm-up.ts)', () => {
  test('answers the requests that follow as the main thread does, whether a warm-up run is under way or not', async () => {
    const worker = new SimulationWorker({ script: WORKER_PATH, log: () => undefined });
    try {
      const configMaps = Array.from(
        { length: WARM_UP_MIN_OBJECTS },
        (_, index) =>
          `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-${index}\ndata:\n  a: "1"\n`,
      );
      const large = (replicas: number): ScopeSimulationInput =>
        inputOf(
          [SMALL_DEPLOYMENT.replace('replicas: 1\n', `replicas: ${replicas}\n`), ...configMaps].join('---\n'),
        );
      const first = large(40);
      assert.ok(first.manifests.length >= WARM_UP_MIN_OBJECTS);
      assert.deepEqual(await worker.simulate('a', first, ''), TEST_SERVICE.simulateScope(first));
      // Right after the answer (the warm-up's first run not started or stopped for this request), then after a
      // pause in which warm-up runs go on (the engine's result must not depend on what ran before it).
      for (const [index, replicas] of [41, 42].entries()) {
        if (index === 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const next = large(replicas);
        assert.deepEqual(await worker.simulate('a', next, ''), TEST_SERVICE.simulateScope(next));
      }
      assert.equal(worker.isInThread, false);
    } finally {
      worker.dispose();
    }
  });
});

describe('Requests no longer wanted (their document changed)', () => {
  test('the running one is abandoned by the engine, a waiting one dropped; the worker serves the next', async () => {
    const worker = new SimulationWorker({ script: WORKER_PATH, log: () => undefined });
    try {
      // 2,000 Pending replicas: a run of hundreds of milliseconds, abandoned before it ends.
      const slow = inputOf(SMALL_DEPLOYMENT.replace('replicas: 1\n', 'replicas: 2000\n'));
      let wanted = true;
      const running = worker.simulate('a', slow, '', () => wanted);
      const waiting = worker.simulate('b', slow, '', () => wanted);
      wanted = false;
      worker.abandonUnwanted();
      assert.equal(await running, undefined);
      assert.equal(await waiting, undefined);
      const input = inputOf(SMALL_DEPLOYMENT);
      assert.deepEqual(await worker.simulate('a', input, ''), TEST_SERVICE.simulateScope(input));
      assert.equal(worker.isInThread, false);
    } finally {
      worker.dispose();
    }
  });
});

describe('A failing prediction worker', () => {
  const folder = mkdtempSync(join(tmpdir(), 'foresight-worker-'));
  after(() => rmSync(folder, { recursive: true, force: true }));
  const script = (name: string, text: string): string => {
    const path = join(folder, name);
    writeFileSync(path, text);
    return path;
  };
  const cases = [
    {
      name: 'one that exits on its first request fails it, and each next one, then runs in the main thread',
      script: script(
        'exits.js',
        "require('node:worker_threads').parentPort.on('message', () => process.exit(3));",
      ),
      error: /stopped \(exit code 3\)/,
      timeoutMs: 60_000,
    },
    {
      name: 'one that throws outside the engine fails the request, and is started again',
      script: script(
        'throws.js',
        "require('node:worker_threads').parentPort.on('message', () => { throw new Error('broken worker'); });",
      ),
      error: /broken worker/,
      timeoutMs: 60_000,
    },
    {
      name: 'one that does not answer in time is stopped and fails the request',
      script: script(
        'hangs.js',
        "require('node:worker_threads').parentPort.on('message', () => { for (;;) {} });",
      ),
      error: /did not answer within 0.5 s/,
      timeoutMs: 500,
    },
  ];
  for (const { name, script: path, error, timeoutMs } of cases) {
    test(name, async () => {
      const logged: string[] = [];
      const worker = new SimulationWorker({ script: path, timeoutMs, log: (line) => logged.push(line) });
      try {
        const input = inputOf(SMALL);
        for (let attempt = 1; attempt <= 3; attempt++) {
          await assert.rejects(worker.simulate('scope', input, ''), error, `attempt ${attempt}`);
        }
        assert.equal(worker.isInThread, true);
        assert.deepEqual(logged.slice(0, 2), [
          'The prediction worker failed; it is started again for the next prediction.',
          'The prediction worker failed; it is started again for the next prediction.',
        ]);
        assert.match(
          logged[2] ?? '',
          /failed 3 times in a row; predictions now run in the language server's thread/,
        );
        assert.deepEqual(await worker.simulate('scope', input, ''), TEST_SERVICE.simulateScope(input));
      } finally {
        worker.dispose();
      }
    });
  }

  test('an error of the engine fails its request only: the worker stays in use', async () => {
    const path = script(
      'engine-error.js',
      "const { parentPort } = require('node:worker_threads');\n" +
        "parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, ok: false, message: 'engine broke' }));",
    );
    const logged: string[] = [];
    const worker = new SimulationWorker({ script: path, log: (line) => logged.push(line) });
    try {
      const input = inputOf(SMALL);
      for (let attempt = 1; attempt <= 4; attempt++) {
        await assert.rejects(worker.simulate('scope', input, ''), /engine broke/, `attempt ${attempt}`);
      }
      assert.equal(worker.isInThread, false);
      assert.deepEqual(logged, []);
    } finally {
      worker.dispose();
    }
  });

  test('without its script, simulations run in the main thread from the start', async () => {
    const worker = new SimulationWorker({ script: join(folder, 'missing.js'), log: () => undefined });
    const input = inputOf(SMALL);
    assert.equal(worker.isInThread, true);
    assert.deepEqual(await worker.simulate('scope', input, ''), TEST_SERVICE.simulateScope(input));
  });
});
