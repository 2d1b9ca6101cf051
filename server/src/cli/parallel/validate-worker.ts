/**
 * The body of one `foresight validate` worker thread: analyses its share of the files as the single-thread run
 * does (read-input.ts analyzeCliTexts), keeps what placing findings needs of them (placements.ts), and places findings when asked. Any exception
 * is answered as a `failed` message naming the file, so the main thread reports it and stops every worker.
 */
import { getAnalysisContext } from '../../host/analysis-context';
import { analyzeText } from '../../language/analyzer';
import { buildCustomKindValidator } from '../../language/crd';
import { outlineOf } from '../../language/manifests/analysis-outline';
import { contextForText } from '../read-input';
import type { FilePlaces } from './placements';
import { placeReaderFindingsIn, placesOf, placeTargetPortsIn } from './placements';
import type { FromWorker, ToWorker, ValidateWorkerData, WorkerText } from './worker-messages';

/** Where a thread's requests come from and its answers go: a worker's parent port, or this thread's own queue. */
export interface RequestPort {
  on(event: 'message', listener: (message: ToWorker) => void): unknown;
  postMessage(message: FromWorker): void;
}

/** Serves the main thread's requests on a port until the thread is terminated. */
export function runValidateWorker(port: RequestPort, data: ValidateWorkerData): void {
  const texts = new Map<number, WorkerText>();
  // What the 'place' request needs of each file, by index; the analyses themselves (their YAML nodes) go.
  const places = new Map<number, FilePlaces>();
  let current = '';
  const answer = (message: FromWorker): void => port.postMessage(message);
  const analyze = (indexes: readonly number[], context: ReturnType<typeof getAnalysisContext>): void => {
    const outlines: [number, ReturnType<typeof outlineOf>][] = [];
    for (const index of indexes) {
      const input = texts.get(index);
      if (input === undefined) {
        throw new Error(`file #${index} was never sent to this worker`);
      }
      current = input.id;
      const analysis = analyzeText(input.text, contextForText(context, input));
      places.set(index, placesOf(analysis));
      outlines.push([index, outlineOf(analysis)]);
    }
    current = '';
    answer({ type: 'analyzed', outlines });
  };
  port.on('message', (message: ToWorker) => {
    try {
      switch (message.type) {
        case 'analyze':
          for (const text of message.texts) {
            texts.set(text.index, text);
          }
          analyze(
            message.texts.map((text) => text.index),
            getAnalysisContext(data.kubernetesVersion, data.maxFileLength),
          );
          break;
        case 'reanalyze':
          analyze(
            message.indexes,
            getAnalysisContext(
              data.kubernetesVersion,
              data.maxFileLength,
              buildCustomKindValidator(message.crds),
            ),
          );
          break;
        case 'place': {
          const byId = new Map([...places].map(([index, kept]) => [texts.get(index)?.id ?? '', kept]));
          answer({
            type: 'placed',
            targetPorts: [...placeTargetPortsIn(message.targetPorts, byId)],
            reader: [...placeReaderFindingsIn(message.reader, byId)],
          });
          break;
        }
      }
    } catch (error: unknown) {
      const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
      const doing = current === '' ? `on its ${message.type} request` : `while analysing ${current}`;
      answer({ type: 'failed', message: `${doing}: ${reason}` });
    }
  });
}
