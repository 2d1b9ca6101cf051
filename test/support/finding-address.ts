/**
 * Where an engine finding points, as the engine fixtures pin it: the file and document of its object and the full
 * field path (the object's path inside its document, then the field's), e.g. `manifests.yaml#2`, `spec.replicas`.
 */
import type { Finding } from '../../protocol/finding';

/** The file#document and dotted path of a finding's object and field ('?' when it names no object). */
export function addressOf(finding: Finding): { readonly document: string; readonly path: string } {
  const object = finding.object;
  return {
    document: object === undefined ? '?' : `${object.file}#${object.documentIndex}`,
    path: [...(object?.path ?? []), ...(finding.path ?? [])].join('.'),
  };
}
