/**
 * Engine tests feed the engine directly: every non-empty YAML document of a text as a plain object with its
 * source, without the manifest reader's rules (documents with validation errors are kept, so the engine's own
 * handling of bad input is what is tested). Syntax errors become findings.
 */
import { parseAllDocuments } from 'yaml';
import type { SourcedObject } from '../../server/src/engine/model/load/cluster-load';
import type { Finding } from '../../protocol/finding';

/** The documents of a text as the engine's input. */
export function parseObjects(text: string, file: string, findings: Finding[]): SourcedObject[] {
  const objects: SourcedObject[] = [];
  parseAllDocuments(text).forEach((document, documentIndex) => {
    if (document.errors.length > 0) {
      for (const error of document.errors) {
        const message = `YAML syntax error: ${error.message.split('\n')[0] ?? error.message}`;
        findings.push({
          severity: 'error',
          code: 'yaml-syntax',
          object: { file, documentIndex, path: [] },
          message,
        });
      }
      return;
    }
    const object: unknown = document.toJS({ maxAliasCount: 1000 });
    if (object !== null && object !== undefined) {
      objects.push({ object, source: { file, documentIndex, path: [] } });
    }
  });
  return objects;
}
