/**
 * On a capture, the notes that assume an object exists say why the capture cannot tell: its header does not cover
 * that resource (the user may not list it, or the capture is older than the resource's addition). The notes are
 * made where the assumption is (admission, the kubelet, the volume controller), which do not read the header; this
 * is the one place that adds the capture's part, by code and, where one code covers two kinds, by the kind the
 * finding's data names. Without a header nothing changes: a plain `kubectl get` file keeps the notes as they are.
 */
import type { FindingCode } from '../../../../../protocol/finding-codes';
import type { CaptureHeader } from './capture-header';
import { uncoveredNote } from './capture-header';

/** The resource each assumption rests on, from the finding's code and its data's `kind`. */
const ASSUMED_RESOURCES: Partial<Record<FindingCode, (kind: string | undefined) => string>> = {
  'namespace-not-found': () => 'namespaces',
  'service-account-assumed': () => 'serviceaccounts',
  'storage-class-assumed': () => 'storageclasses',
  'config-object-assumed': (kind) => (kind === 'Secret' ? 'secrets' : 'configmaps'),
  'claim-assumed': (kind) => (kind === 'PersistentVolume' ? 'persistentvolumes' : 'persistentvolumeclaims'),
};

/** The shape of a finding this reads and rewrites. */
interface NotedFinding {
  readonly code: FindingCode;
  readonly message: string;
  readonly data?: Readonly<Record<string, string>>;
}

/** The findings, each assumption on a capture that does not cover its resource saying so. */
export function withCaptureNotes<F extends NotedFinding>(
  findings: readonly F[],
  header: CaptureHeader | null,
): F[] {
  if (header === null) {
    return [...findings];
  }
  return findings.map((finding) => {
    const resource = ASSUMED_RESOURCES[finding.code]?.(finding.data?.['kind']);
    const note = resource === undefined ? '' : uncoveredNote(header, resource);
    return note === '' ? finding : { ...finding, message: `${finding.message}${note}` };
  });
}
