/**
 * Run in a fresh process by bench/worker-warm-up.ts (bundled, its __dirname being dist/): a person typing in the
 * bench's 1,000-resource file, as the prediction worker sees it. A fresh worker (dist/prediction-worker.js, with
 * the warm-up budget given) gets one request per keystroke, the edit toggling one Deployment's containerPort
 * (8080, then 808x: a document with an error, left out of the simulation), with a pause between keystrokes. Prints
 * one JSON line: each request's milliseconds from the request to the answer, and the process's CPU (all threads:
 * the warm-up runs are in it).
 */
import { join } from 'node:path';
import { generateManifests } from '../manifests';
import { getAnalysisContext, TEST_SERVICE } from '../../test/support/language-service';
import { readManifests } from '../../server/src/language/manifests/read-manifests';
import { SimulationWorker } from '../../server/src/host/simulation-worker';

const warmUpRuns = Number(process.argv[2] ?? 0);
const keystrokes = Number(process.argv[3] ?? 10);
const pauseMs = Number(process.argv[4] ?? 300);

const context = getAnalysisContext('1.35', 64 * 2 ** 20);
const text = generateManifests(1000);
const inputs = [text, text.replace('containerPort: 8080', 'containerPort: 808x')].map((version) => {
  const analysis = TEST_SERVICE.analyzeText(version, context);
  const manifests = readManifests([{ id: 'file:///bench/manifests.yaml', analysis }]).objects;
  return TEST_SERVICE.prepareScope(manifests, '1.35', context, undefined, '').input;
});

async function main(): Promise<void> {
  const worker = new SimulationWorker({
    script: join(__dirname, 'prediction-worker.js'),
    log: () => undefined,
    warmUpRuns,
  });
  if (worker.isInThread) {
    throw new Error('dist/prediction-worker.js is not built');
  }
  const cpuBefore = process.cpuUsage();
  const answerMs: number[] = [];
  try {
    for (let keystroke = 0; keystroke < keystrokes; keystroke++) {
      const input = inputs[keystroke % inputs.length];
      if (input === undefined) {
        throw new Error('no input');
      }
      const started = performance.now();
      const result = await worker.simulate('file:///bench/manifests.yaml', input, '');
      if (result === undefined) {
        throw new Error(`keystroke ${keystroke} got no answer`);
      }
      answerMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  } finally {
    worker.dispose();
  }
  const cpu = process.cpuUsage(cpuBefore);
  process.stdout.write(`${JSON.stringify({ answerMs, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
}

void main();
