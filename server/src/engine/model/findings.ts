/**
 * The engine's findings — about its input (a bad cluster file, a pod bound to a missing node) and about what the
 * simulation predicts (a drain that never finishes, a stalled rollout) — are the product's one Finding
 * (protocol/finding.ts): data, never exceptions. The engine names the object by its ObjectSource and the field by
 * a path inside it; the language service places them on the text.
 */
import { FINDING_CODES } from '../../../../protocol/finding-codes';
import type { FindingCode } from '../../../../protocol/finding-codes';
import type { FieldPath, Finding } from '../../../../protocol/finding';
import type { ObjectSource } from './source';

/** A finding about an object the engine read, with the severity of its code. */
export function engineFinding(
  code: FindingCode,
  source: ObjectSource,
  path: FieldPath,
  message: string,
  data?: Readonly<Record<string, string>>,
): Finding {
  return {
    code,
    severity: FINDING_CODES[code],
    message,
    object: source,
    path,
    ...(data === undefined ? {} : { data }),
  };
}
