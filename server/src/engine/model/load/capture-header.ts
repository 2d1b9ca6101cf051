/**
 * The header `foresight capture` writes first in a capture (apiVersion foresight/v1, kind Capture): which context
 * it was taken from, when (`capturedAt`, RFC 3339), which Kubernetes version the API server ran (`serverVersion`,
 * from `kubectl version -o json`, e.g. "v1.34.2") and which resources it lists in full (`kinds`, as `kubectl get`
 * names them). What a header changes:
 *   - a covered resource is complete: an object of it the capture lacks does not exist (a missing Secret is the
 *     kubelet's CreateContainerConfigError, a missing claim keeps the pod Pending, a missing ServiceAccount is
 *     refused by admission); an uncovered one is assumed to exist, and the note says the capture lacks it;
 *   - `capturedAt` is time 0's wall clock (timing applyTime) and the start of the taint manager's clocks;
 *   - `serverVersion` is the default Kubernetes version (simulate/capture-version.ts).
 * A plain `kubectl get … -o yaml` file has no header and keeps the older rule (a kind is known to be complete in
 * a namespace only where the file lists objects of it there). A header that cannot be read is reported and the
 * file is read as one without a header.
 *
 *   apiVersion: foresight/v1
 *   kind: Capture
 *   spec:
 *     context: prod-eu
 *     capturedAt: "2026-03-02T10:15:00Z"
 *     serverVersion: v1.34.2
 *     kinds: [nodes, namespaces, pods, …, configmaps, secrets]
 */
import { parseRfc3339 } from '../rfc3339-time';
import type { SourcedObject } from './cluster-load';
import { captureResource } from './capture-resources';
import { engineFinding } from '../findings';
import type { Finding } from '../../../../../protocol/finding';
import { isRecord } from '../objects';
import type { ObjectSource } from '../source';

/** The apiVersion of Kube Foresight's own documents in a cluster file. */
const FORESIGHT_API_VERSION = 'foresight/v1';

/** The kind of the header. */
export const CAPTURE_KIND = 'Capture';

/** A capture header as the engine reads it. */
export interface CaptureHeader {
  /** The kubeconfig context it was taken from ('' when the header does not say). */
  readonly context: string;
  /** capturedAt as written, when it is an RFC 3339 time. */
  readonly capturedAt: string | null;
  /** capturedAt in epoch seconds. */
  readonly capturedAtSeconds: number | null;
  /** The API server's gitVersion ("v1.34.2"), or null. */
  readonly serverVersion: string | null;
  /** The resources it lists in full ("secrets"). */
  readonly kinds: ReadonlySet<string>;
  readonly source: ObjectSource;
}

/** Whether an object is a capture header. */
export function isCaptureHeader(object: unknown): boolean {
  return (
    isRecord(object) && object['kind'] === CAPTURE_KIND && object['apiVersion'] === FORESIGHT_API_VERSION
  );
}

/**
 * The first capture header among a cluster's objects (null without one: a plain `kubectl get` file, a cluster file,
 * a profile), with a finding for each field it cannot read and for every further header.
 */
export function readCaptureHeader(objects: readonly SourcedObject[]): {
  readonly header: CaptureHeader | null;
  readonly findings: Finding[];
} {
  const findings: Finding[] = [];
  let header: CaptureHeader | null = null;
  for (const { object, source } of objects) {
    if (!isCaptureHeader(object)) {
      continue;
    }
    if (header !== null) {
      const message = `only the first Capture header is read (${header.source.file}); this one is ignored`;
      findings.push(engineFinding('capture-header-invalid', source, [], message));
      continue;
    }
    header = readHeader(object as Record<string, unknown>, source, findings);
  }
  return { header, findings };
}

/** Headers found, by the array of objects searched (the engine never changes an array it was given). */
const HEADERS = new WeakMap<readonly SourcedObject[], CaptureHeader | null>();

/**
 * The header of a cluster's objects, without its findings (for the parts of the engine that only consult it).
 * Kept for the array given: one prediction consults it four times, and each search walks a capture's 155,000
 * objects; the header is read-only.
 */
export function captureHeaderOf(objects: readonly SourcedObject[] | null): CaptureHeader | null {
  if (objects === null) {
    return null;
  }
  const known = HEADERS.get(objects);
  if (known !== undefined) {
    return known;
  }
  const { header } = readCaptureHeader(objects);
  HEADERS.set(objects, header);
  return header;
}

/** Whether the capture lists every object of a resource ("secrets"); false without a header. */
export function isCovered(header: CaptureHeader | null, resource: string): boolean {
  return header?.kinds.has(resource) ?? false;
}

/**
 * What an assumption note adds when the cluster is a capture that does not list the resource: which resource it
 * lacks and how to add it (empty without a header, or when the resource is covered).
 */
export function uncoveredNote(header: CaptureHeader | null, resource: string): string {
  if (header === null || header.kinds.has(resource)) {
    return '';
  }
  return ` (the capture does not include ${resource}, so it cannot tell)`;
}

function readHeader(
  object: Record<string, unknown>,
  source: ObjectSource,
  findings: Finding[],
): CaptureHeader {
  const problem = (path: readonly (string | number)[], message: string): void => {
    findings.push(engineFinding('capture-header-invalid', source, path, `Capture header: ${message}`));
  };
  const spec = isRecord(object['spec']) ? object['spec'] : {};
  if (!isRecord(object['spec'])) {
    problem(
      ['spec'],
      'spec is missing: it covers no kind, and the capture is read as a plain kubectl get file',
    );
  }
  const context = typeof spec['context'] === 'string' ? spec['context'] : '';
  let capturedAt: string | null = null;
  let capturedAtSeconds: number | null = null;
  if (spec['capturedAt'] !== undefined) {
    const seconds = typeof spec['capturedAt'] === 'string' ? parseRfc3339(spec['capturedAt']) : null;
    if (seconds === null) {
      problem(
        ['spec', 'capturedAt'],
        'spec.capturedAt must be an RFC 3339 time such as "2026-03-02T10:15:00Z"',
      );
    } else {
      capturedAt = spec['capturedAt'] as string;
      capturedAtSeconds = seconds;
    }
  }
  let serverVersion: string | null = null;
  if (spec['serverVersion'] !== undefined) {
    if (typeof spec['serverVersion'] === 'string' && /^v?\d+\.\d+/.test(spec['serverVersion'])) {
      serverVersion = spec['serverVersion'];
    } else {
      problem(['spec', 'serverVersion'], 'spec.serverVersion must be a version such as "v1.34.2"');
    }
  }
  const kinds = new Set<string>();
  const listed = spec['kinds'];
  if (listed !== undefined && !Array.isArray(listed)) {
    problem(['spec', 'kinds'], 'spec.kinds must be a list of resource names such as [nodes, pods, secrets]');
  }
  (Array.isArray(listed) ? (listed as unknown[]) : []).forEach((name, index) => {
    if (typeof name === 'string' && captureResource(name) !== undefined) {
      kinds.add(name);
    } else {
      problem(
        ['spec', 'kinds', index],
        `${JSON.stringify(name)} is not a resource the simulation reads (kubectl get's plural names: nodes, pods, secrets, …); it is ignored`,
      );
    }
  });
  return { context, capturedAt, capturedAtSeconds, serverVersion, kinds, source };
}
