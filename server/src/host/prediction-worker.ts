/**
 * The prediction worker's entry point (bundled as dist/prediction-worker.js beside dist/server.js): runs the
 * engine on a scope's input off the language server's main thread, so that keystrokes and requests are answered
 * while a simulation runs. Requests come one at a time from simulation-worker.ts; each is rebuilt from the
 * objects held since the last one (simulation-transfer.ts) and answered with the scope's simulation (what changed
 * since the last answer: answer-transfer.ts), or with the
 * error that stopped it (the worker stays up), or as abandoned when the server marked it so in the shared integer
 * (its document changed: the engine stops between two tasks). The engine is the same code as in the main thread, so the result
 * is the same, event for event (test/server/prediction-worker.test.ts). While idle after a large scope, the
 * worker runs it again a few times to finish compiling the engine (worker-warm-up.ts). After each answer it
 * empties V8's young generation (young-collection.ts), so the next run starts without the last one's garbage.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createDiskLanguageService } from '../files/schema-files';
import type { ScopeSimulationInput } from '../language/service';
import { AnswerEncoder } from './answer-transfer';
import { SimulationDecoder } from './simulation-transfer';
import { WorkerWarmUp } from './worker-warm-up';
import { youngGenerationCollector } from './young-collection';
import type {
  SimulationAnswerMessage,
  SimulationRequestMessage,
  SimulationWorkerData,
} from './simulation-transfer';

const port = parentPort;
if (port !== null) {
  const service = createDiskLanguageService();
  const decoder = new SimulationDecoder();
  const answers = new AnswerEncoder();
  const data = workerData as SimulationWorkerData;
  const abandoned = new Int32Array(data.abandoned);
  const posted = new Int32Array(data.posted);
  let received = 0;
  const collectYoung = youngGenerationCollector();
  const warmUp = new WorkerWarmUp(
    {
      run: (input, shouldStop) => service.simulateScope(input, shouldStop),
      isRequestWaiting: () => Atomics.load(posted, 0) !== received,
      later: (step) => setImmediate(step),
    },
    data.warmUpRuns,
  );
  port.on('message', (message: SimulationRequestMessage) => {
    received++;
    warmUp.requested();
    let answer: SimulationAnswerMessage;
    let answered: ScopeSimulationInput | undefined;
    try {
      const input = decoder.decode(message);
      const shouldStop = (): boolean => Atomics.load(abandoned, 0) === message.id;
      const result = answers.encode(message.id, service.simulateScope(input, shouldStop));
      answer = { id: message.id, ok: true, result };
      answered = input;
    } catch (error: unknown) {
      answer = {
        id: message.id,
        ok: false,
        abandoned: service.isAbandoned(error),
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      };
    }
    port.postMessage(answer);
    collectYoung();
    if (answered !== undefined) {
      warmUp.answered(answered);
    }
  });
}
