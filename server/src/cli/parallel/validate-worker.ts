/**
 * The body of one `foresight validate` worker thread: analyses its share of the files as the single-thread run
 * does (read-input.ts analyzeCliTexts), keeps the analyses, and places findings on them when asked. Any exception
 * is answered as a `failed` message naming the file, so the main thread reports it and stops every worker.
 */
import type { MessagePort } from 'node:worker_threads';
import { getAnalysisContext } from '../../host/analysis-context';
import type { FileAnalysis } from '../../language/analyzer';
import { analyzeText } from '../../language/analyzer';
import { buildCustomKindValidator } from '../../language/crd';
import { shiftFinding } from '../../language/findings';
import type { Finding } from '../../language/findings';
import { outlineOf } from '../../language/manifests/analysis-outline';
import { placeReaderFindings } from '../../language/manifests/place-findings';
import { placeTargetPortProblems } from '../../language/rules';
import { contextForText } from '../read-input';
import type {
  FromWorker,
  TargetPortRequest,
  ToWorker,
  ValidateWorkerData,
  WorkerText,
} from './worker-messages';

/** Serves the main thread's requests on a port until the thread is terminated. */
export function runValidateWorker(port: MessagePort, data: ValidateWorkerData): void {
  const texts = new Map<number, WorkerText>();
  const analyses = new Map<number, FileAnalysis>();
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
      analyses.set(index, analysis);
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
          const files = [...analyses].map(([index, analysis]) => ({
            id: texts.get(index)?.id ?? '',
            analysis,
          }));
          answer({
            type: 'placed',
            targetPorts: [...placeTargetPorts(message.targetPorts, files)],
            reader: [...placeReaderFindings(message.reader, files)],
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

/** Places each Service's problems as workspace-findings.ts crossObjectFindings does: on its node, in file offsets. */
function placeTargetPorts(
  requests: readonly TargetPortRequest[],
  files: readonly { readonly id: string; readonly analysis: FileAnalysis }[],
): Map<string, Finding[]> {
  const analyses = new Map(files.map((file) => [file.id, file.analysis]));
  const byFile = new Map<string, Finding[]>();
  for (const request of requests) {
    const document = analyses.get(request.file)?.documents[request.documentIndex];
    const service = document?.objects[request.objectIndex];
    if (document === undefined || service === undefined) {
      throw new Error(`no Service at ${request.file}, document ${request.documentIndex + 1}`);
    }
    const findings = placeTargetPortProblems(service, request.problems);
    const list = byFile.get(request.file) ?? [];
    list.push(...findings.map((finding) => shiftFinding(finding, document.offset)));
    byFile.set(request.file, list);
  }
  return byFile;
}
