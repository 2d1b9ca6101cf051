/**
 * The file `foresight capture` writes: the Capture header (engine/model/load/capture-header.ts) as its first
 * document, then one `kind: List` document of every object, as `kubectl get … -o yaml` prints a list. It is
 * written whole or not at all: to a temporary file beside the target, then renamed over it (a rename within one
 * folder replaces the target in one step), so a failure part-way leaves the old capture, or nothing, never half
 * of a new one.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { dump } from 'js-yaml';

/** What the header says. */
export interface CaptureFileHeader {
  readonly context: string;
  /** RFC 3339. */
  readonly capturedAt: string;
  /** The API server's gitVersion ("v1.34.2"). */
  readonly serverVersion: string;
  /** The resources captured in full, as `kubectl get` names them. */
  readonly kinds: readonly string[];
  /** Resources left out, each with kubectl's message (a comment of the file: the header lists only what it has). */
  readonly leftOut: readonly { readonly resource: string; readonly message: string }[];
}

/** The text of a capture. */
export function captureText(header: CaptureFileHeader, objects: readonly unknown[]): string {
  const comments = [
    `# Captured by foresight capture from context ${header.context} at ${header.capturedAt}.`,
    '# Secrets keep the names of their keys only. Re-run foresight capture to refresh it.',
    ...header.leftOut.map(
      ({ resource, message }) => `# Not captured: ${resource}: ${message.trim().replace(/\s*\n\s*/g, ' ')}`,
    ),
  ];
  const headerDocument = {
    apiVersion: 'foresight/v1',
    kind: 'Capture',
    spec: {
      context: header.context,
      capturedAt: header.capturedAt,
      serverVersion: header.serverVersion,
      kinds: [...header.kinds],
    },
  };
  const list = { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: objects };
  return [
    ...comments,
    dump(headerDocument, { flowLevel: 2, lineWidth: -1, noRefs: true }).trimEnd(),
    '---',
    dump(list, { lineWidth: -1, noRefs: true }).trimEnd(),
    '',
  ].join('\n');
}

/** Writes `text` to `file` in one step: a temporary file in the same folder, renamed over the target. */
export function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, text, { encoding: 'utf8', flag: 'wx', mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
