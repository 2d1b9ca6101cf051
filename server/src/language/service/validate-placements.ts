/**
 * What a `foresight validate` thread keeps of a file's analysis for the later 'place' request, in place of the
 * analysis itself: the offsets of the few places findings found across files can land on. Keeping every file's
 * YAML nodes until the end made them survive young-generation collections and be copied to the old space (a
 * quarter of the run's CPU went to garbage collection); this keeps a few ranges per object and lets the nodes go.
 *
 * The places are the ones place-findings.ts placeReaderFindings (an object's metadata.name or
 * metadata.generateName) and target-port.ts placeTargetPortProblems (a Service port's targetPort) look up, with
 * the same lookups (rangeForValue), so the placed findings are the same byte for byte. A request for a place not
 * kept is an internal error, reported as the worker's failure, never a silently different placement.
 */
import type { Node } from 'yaml';
import type { FileAnalysis } from '../../language/analyzer';
import type { TextFinding } from '../../language/findings';
import { shiftFinding } from '../../language/findings';
import { placeReaderFindingsWith } from '../../language/manifests/place-findings';
import { findingAt } from '../../language/rules/rule-support';
import type { InstancePath, OffsetRange } from '../../language/yaml/node-at-path';
import { rangeForValue } from '../../language/yaml/node-at-path';
import type { TargetPortProblem } from '../rules';
import { serviceTargetPortProblems } from '../rules';
import type { ManifestObject } from '../kubernetes/manifest-object';
import type { OutlinedInputFile } from './input-files';
import type { Finding } from '../../../../protocol/finding';
import { appendAll } from '../../../../protocol/collections';

/** A Service's target-port problems, to place on the Service's node. */
export interface TargetPortRequest {
  readonly file: string;
  readonly documentIndex: number;
  /** The Service's index among its document's objects. */
  readonly objectIndex: number;
  readonly problems: readonly TargetPortProblem[];
}

/** The reader's finding paths (read-manifests.ts): duplicates and overlaps on the name, kubectl's generateName. */
const READER_PATHS: readonly InstancePath[] = [
  ['metadata', 'name'],
  ['metadata', 'generateName'],
  ['metadata', 'namespace'],
];

/** One document's kept places. */
interface DocumentPlaces {
  readonly offset: number;
  /** The document's start, where a reader finding goes when its path is not in the document. */
  readonly start: number;
  /** Reader places by the JSON of the full path from the document's root. */
  readonly reader: ReadonlyMap<string, OffsetRange | undefined>;
  /** Target-port places by `objectIndex/portIndex`. */
  readonly targetPorts: ReadonlyMap<string, OffsetRange | undefined>;
}

/** A file's kept places, by document index. */
export type FilePlaces = readonly DocumentPlaces[];

/** The places of an analysis that a later 'place' request may ask for. */
export function placesOf(analysis: FileAnalysis): FilePlaces {
  return analysis.documents.map((document) => {
    const root = (document.yaml.document?.contents ?? undefined) as Node | undefined;
    const reader = new Map<string, OffsetRange | undefined>();
    const targetPorts = new Map<string, OffsetRange | undefined>();
    document.objects.forEach((object, objectIndex) => {
      for (const suffix of READER_PATHS) {
        const path = [...object.path, ...suffix];
        reader.set(JSON.stringify(path), rangeForValue(root, path));
      }
      if (object.kind === 'Service') {
        portCount(object.value).forEach((portIndex) => {
          const range = rangeForValue(object.node, ['spec', 'ports', portIndex, 'targetPort']);
          targetPorts.set(`${objectIndex}/${portIndex}`, range);
        });
      }
    });
    return { offset: document.offset, start: document.yaml.start, reader, targetPorts };
  });
}

/** The indexes of a Service value's spec.ports list. */
function portCount(value: Readonly<Record<string, unknown>>): number[] {
  const spec = value['spec'];
  const ports =
    typeof spec === 'object' && spec !== null ? (spec as Record<string, unknown>)['ports'] : undefined;
  return Array.isArray(ports) ? [...ports.keys()] : [];
}

/** The reader's findings by file id, placed as place-findings.ts placeReaderFindings places them. */
export function placeReaderFindingsIn(
  findings: readonly Finding[],
  places: ReadonlyMap<string, FilePlaces>,
): Map<string, TextFinding[]> {
  return placeReaderFindingsWith(findings, (file, documentIndex) => {
    const document = places.get(file)?.[documentIndex];
    return document === undefined
      ? undefined
      : {
          offset: document.offset,
          start: document.start,
          rangeAt: (path) => {
            const key = JSON.stringify(path);
            if (!document.reader.has(key)) {
              throw new Error(`no place kept for ${key} in ${file}`);
            }
            return document.reader.get(key);
          },
        };
  });
}

/** Each Service's problems by file id, as workspace-findings.ts crossObjectFindings places them, in file offsets. */
export function placeTargetPortsIn(
  requests: readonly TargetPortRequest[],
  places: ReadonlyMap<string, FilePlaces>,
): Map<string, TextFinding[]> {
  const byFile = new Map<string, TextFinding[]>();
  for (const request of requests) {
    const document = places.get(request.file)?.[request.documentIndex];
    if (document === undefined) {
      throw new Error(`no Service at ${request.file}, document ${request.documentIndex + 1}`);
    }
    const list = byFile.get(request.file) ?? [];
    for (const problem of request.problems) {
      const key = `${request.objectIndex}/${String(problem.path[2])}`;
      if (
        !document.targetPorts.has(key) ||
        problem.path.join('/') !== `spec/ports/${String(problem.path[2])}/targetPort`
      ) {
        throw new Error(`no place kept for ${problem.path.join('.')} in ${request.file}`);
      }
      const placed = findingAt(document.targetPorts.get(key), problem.code, problem.message);
      appendAll(
        list,
        placed.map((finding) => shiftFinding(finding, document.offset)),
      );
    }
    byFile.set(request.file, list);
  }
  return byFile;
}

/** The Services' target-port problems found over every file, as workspace-findings.ts crossObjectFindings does. */
export function targetPortRequests(files: readonly OutlinedInputFile[]): TargetPortRequest[] {
  const owners = new Map<ManifestObject, Omit<TargetPortRequest, 'problems'>>();
  const objects: ManifestObject[] = [];
  for (const file of files) {
    file.analysis.documents.forEach((document, documentIndex) => {
      document.objects.forEach((object, objectIndex) => {
        owners.set(object, { file: file.id, documentIndex, objectIndex });
        objects.push(object);
      });
    });
  }
  const requests: TargetPortRequest[] = [];
  for (const [service, problems] of serviceTargetPortProblems(objects)) {
    const owner = owners.get(service);
    if (owner !== undefined) {
      requests.push({ ...owner, problems });
    }
  }
  return requests;
}
