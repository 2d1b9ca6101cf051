/**
 * The body of one `foresight validate` worker thread: analyses its share of the files as the single-thread run
 * does (the service's analyzeInputs), keeps what placing findings needs of them (the service's placesOf), and places findings when asked. Any exception
 * is answered as a `failed` message naming the file, so the main thread reports it and stops every worker.
 */
import type { AnalysisContext, AnalysisOutline, FilePlaces, LanguageService } from '../../language/service';
import type { FromWorker, ToWorker, ValidateWorkerData, WorkerText } from './worker-messages';

/** Where a thread's requests come from and its answers go: a worker's parent port, or this thread's own queue. */
export interface RequestPort {
  on(event: 'message', listener: (message: ToWorker) => void): unknown;
  postMessage(message: FromWorker): void;
}

/** Serves the main thread's requests on a port until the thread is terminated. */
export function runValidateWorker(
  port: RequestPort,
  data: ValidateWorkerData,
  service: LanguageService,
): void {
  const texts = new Map<number, WorkerText>();
  // What the 'place' request needs of each file, by index; the analyses themselves (their YAML nodes) go.
  const places = new Map<number, FilePlaces>();
  let current = '';
  const answer = (message: FromWorker): void => port.postMessage(message);
  const analyze = (indexes: readonly number[], context: AnalysisContext): void => {
    const outlines: [number, AnalysisOutline][] = [];
    for (const index of indexes) {
      const input = texts.get(index);
      if (input === undefined) {
        throw new Error(`file #${index} was never sent to this worker`);
      }
      current = input.id;
      const analysis = service.analyzeText(input.text, service.contextForText(context, input));
      places.set(index, service.placesOf(analysis));
      outlines.push([index, service.outlineOf(analysis)]);
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
            service.analysisContext(data.kubernetesVersion, data.maxFileLength),
          );
          break;
        case 'reanalyze':
          analyze(
            message.indexes,
            service.analysisContext(
              data.kubernetesVersion,
              data.maxFileLength,
              service.customKindValidator(message.crds),
            ),
          );
          break;
        case 'place': {
          const byId = new Map([...places].map(([index, kept]) => [texts.get(index)?.id ?? '', kept]));
          answer({
            type: 'placed',
            targetPorts: [...service.placeTargetPortsIn(message.targetPorts, byId)],
            reader: [...service.placeReaderFindingsIn(message.reader, byId)],
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
