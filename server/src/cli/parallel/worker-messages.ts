/**
 * The messages between `foresight validate` and its worker threads. A worker analyses the files it is given and
 * keeps their analyses (their YAML nodes cannot cross threads); it answers with outlines, plain data the main
 * thread reads across all files (duplicates, Services and their pods, CRDs), and later places on its own files'
 * nodes the findings the main thread found there.
 */
import type {
  AnalysisOutline,
  Finding,
  InputText,
  ManifestObject,
  TargetPortRequest,
  TextFinding,
} from '../../language/service';

/** What a worker is started with (workerData); the marker tells cli.ts to run the worker, not the command line. */
export interface ValidateWorkerData {
  readonly foresightValidateWorker: true;
  readonly kubernetesVersion: string;
  readonly maxFileLength: number;
}

/** A text to analyse, by its index in the command's input. */
export type WorkerText = Pick<InputText, 'id' | 'text' | 'role' | 'chart'> & { readonly index: number };

/** From the main thread to a worker. */
export type ToWorker =
  | { readonly type: 'analyze'; readonly texts: readonly WorkerText[] }
  /** Analyse again, with the kinds these CRDs define, the files of these indexes. */
  | {
      readonly type: 'reanalyze';
      readonly crds: readonly ManifestObject[];
      readonly indexes: readonly number[];
    }
  /** Place these findings, each on a file of this worker, in the given order. */
  | {
      readonly type: 'place';
      readonly targetPorts: readonly TargetPortRequest[];
      readonly reader: readonly Finding[];
    };

/** From a worker to the main thread. */
export type FromWorker =
  | { readonly type: 'analyzed'; readonly outlines: readonly (readonly [number, AnalysisOutline])[] }
  | {
      readonly type: 'placed';
      /** Findings by file id, in file offsets, each file's list in the order of the requests. */
      readonly targetPorts: readonly (readonly [string, TextFinding[]])[];
      readonly reader: readonly (readonly [string, TextFinding[]])[];
    }
  | { readonly type: 'failed'; readonly message: string };

/** Whether a worker's data is that of a validate worker. */
export function isValidateWorkerData(data: unknown): data is ValidateWorkerData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Partial<ValidateWorkerData>).foresightValidateWorker === true
  );
}
