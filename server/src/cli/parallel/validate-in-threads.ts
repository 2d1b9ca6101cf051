/**
 * `foresight validate` over many files in worker threads, with the output of the single-thread run byte for byte.
 * The files are handed out one at a time, the largest first, to whichever thread is free (each holds two, so that
 * it never waits for this thread to send the next), so that the threads finish together whatever a file costs and
 * however late a worker starts; each thread analyses its files (read-input.ts does the same in one thread) and
 * answers with outlines. The steps that look across files run here, over the outlines, in the input's order, as
 * the single-thread run does: the CRDs (files that use their kinds are analysed again, by their own worker, as
 * read-input.ts usesCustomKinds decides), the manifest reader (duplicates, generateName) and the Services'
 * target ports. Their findings are placed by the worker that holds the file's YAML nodes.
 */
import type {
  AnalysisOutline,
  AnalyzeOptions,
  Finding,
  InputText,
  LanguageService,
  OutlinedInputFile,
  TextFinding,
  ValidatedFile,
} from '../../language/service';
import type { WorkerPool } from './worker-pool';
import { startWorkerPool } from './worker-pool';
import type { FromWorker, ToWorker } from './worker-messages';

/**
 * Starts the threads validateInThreads works with: this one and `threads - 1` workers running `script`. Started
 * before the input is read, they load while it is read; the caller closes the pool.
 */
export function startValidatePool(
  options: AnalyzeOptions,
  script: string,
  threads: number,
  service: LanguageService,
): WorkerPool {
  return startWorkerPool(script, threads, { foresightValidateWorker: true, ...options }, service);
}

/** Validates the texts in `threads` threads started for them, then ends the workers; rejects when one fails. */
export async function validateInNewPool(
  texts: readonly InputText[],
  options: AnalyzeOptions,
  script: string,
  threads: number,
  service: LanguageService,
  /** How the manifest reader reads: the namespace of `-n`. */
  readOptions: { readonly namespace?: string } = {},
): Promise<ValidatedFile[]> {
  const pool = startValidatePool(options, script, threads, service);
  try {
    return await validateInThreads(texts, pool, service, readOptions);
  } finally {
    await pool.close();
  }
}

/**
 * Validates the texts in the pool's threads (startValidatePool, with the options the texts were read with);
 * rejects when a worker fails.
 */
export async function validateInThreads(
  texts: readonly InputText[],
  pool: WorkerPool,
  service: LanguageService,
  /** How the manifest reader reads: the namespace of `-n`. */
  readOptions: { readonly namespace?: string } = {},
): Promise<ValidatedFile[]> {
  // Findings are placed by file id, so a file's id must name one thread's file; validateThreadsFor keeps input
  // with a repeated id (two renders of one source file) in one thread.
  if (new Set(texts.map((text) => text.id)).size < texts.length) {
    throw new Error('internal: files of one name cannot be validated in threads');
  }
  return validateWith(pool, texts, service, readOptions);
}

async function validateWith(
  pool: WorkerPool,
  texts: readonly InputText[],
  service: LanguageService,
  readOptions: { readonly namespace?: string },
): Promise<ValidatedFile[]> {
  const outlines: AnalysisOutline[] = [];
  const keep = (answer: FromWorker | undefined): void => {
    for (const [index, outline] of answer?.type === 'analyzed' ? answer.outlines : []) {
      outlines[index] = outline;
    }
  };
  const workerOf = await handOut(pool, texts, keep);
  const analyze = async (requests: (ToWorker | undefined)[]): Promise<void> => {
    (await pool.ask(requests)).forEach(keep);
  };
  const crds = service.crdObjectsOf(outlines);
  if (crds.length > 0) {
    const customKinds = service.customKindValidator(crds);
    const again = [...texts.keys()].filter((index) =>
      service.usesCustomKinds(pick(outlines, index), customKinds),
    );
    await analyze(perWorker(pool.size, again, workerOf, (indexes) => ({ type: 'reanalyze', crds, indexes })));
  }
  const files: OutlinedInputFile[] = texts.map((text, index) => ({
    id: text.id,
    ...(text.applyUnit === undefined ? {} : { applyUnit: text.applyUnit }),
    ...(text.applyOrder === undefined ? {} : { applyOrder: text.applyOrder }),
    ...(text.unitNamespace === undefined ? {} : { unitNamespace: text.unitNamespace }),
    ...(text.appliedBy === undefined ? {} : { appliedBy: text.appliedBy }),
    text: text.text,
    analysis: pick(outlines, index),
    lines: text.lines ?? service.lineIndex(text.text),
  }));
  const workerById = new Map(files.map((file, index) => [file.id, pick(workerOf, index)]));
  const targetPorts = service.targetPortRequests(files);
  const reader = service.readObjects(files, readOptions).findings;
  const placed = await pool.ask(
    Array.from({ length: pool.size }, (_, worker) => ({
      type: 'place',
      targetPorts: targetPorts.filter((request) => workerById.get(request.file) === worker),
      reader: reader.filter((finding: Finding) => workerById.get(finding.object?.file ?? '') === worker),
    })),
  );
  const cross = collect(placed, 'targetPorts');
  const read = collect(placed, 'reader');
  return files.map((file) => ({
    file,
    findings: service.allFindingsOf(file.analysis, [
      ...(cross.get(file.id) ?? []),
      ...(read.get(file.id) ?? []),
    ]),
  }));
}

/** How many files a thread holds at once: the one it analyses and the next. */
const IN_FLIGHT = 2;

/**
 * Has every file analysed, one request per file, the largest first, each to the first thread free; returns the
 * thread of each file (the one that keeps its places). Each thread gets its first file before any gets a second,
 * so every worker is asked (one that fails is reported).
 */
async function handOut(
  pool: WorkerPool,
  texts: readonly InputText[],
  keep: (answer: FromWorker) => void,
): Promise<number[]> {
  const queue = [...texts.keys()].sort(
    (a, b) => pick(texts, b).text.length - pick(texts, a).text.length || a - b,
  );
  const workerOf: number[] = [];
  const serve = async (thread: number): Promise<void> => {
    for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
      workerOf[index] = thread;
      const { id, text, role, chart } = pick(texts, index);
      keep(await pool.askThread(thread, { type: 'analyze', texts: [{ id, text, role, chart, index }] }));
    }
  };
  const loops: Promise<void>[] = [];
  for (let slot = 0; slot < IN_FLIGHT; slot++) {
    for (let thread = 0; thread < pool.size; thread++) {
      loops.push(serve(thread));
    }
  }
  await Promise.all(loops);
  return workerOf;
}

/** One request per worker for the files (by index) it holds; none for a worker without such files. */
function perWorker(
  workers: number,
  indexes: Iterable<number>,
  workerOf: readonly number[],
  request: (indexes: number[]) => ToWorker,
): (ToWorker | undefined)[] {
  const lists = Array.from({ length: workers }, (): number[] => []);
  for (const index of indexes) {
    lists[pick(workerOf, index)]?.push(index);
  }
  return lists.map((list) => (list.length === 0 ? undefined : request(list)));
}

/** The placed findings of every worker by file id (each file is placed by one worker). */
function collect(
  answers: readonly (FromWorker | undefined)[],
  kind: 'targetPorts' | 'reader',
): Map<string, TextFinding[]> {
  const byFile = new Map<string, TextFinding[]>();
  for (const answer of answers) {
    for (const [file, findings] of answer?.type === 'placed' ? answer[kind] : []) {
      byFile.set(file, findings);
    }
  }
  return byFile;
}

/** An element that the indexes used here always find. */
function pick<T>(list: readonly T[], index: number): T {
  const value = list[index];
  if (value === undefined) {
    throw new Error(`internal: no entry ${index} of ${list.length}`);
  }
  return value;
}
