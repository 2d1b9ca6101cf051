/**
 * The documents of a simulated folder that never reach the simulation: those with an error the API server would
 * refuse (read-manifests.ts leaves them out, as `kubectl apply` fails them). The timeline panel names them when it
 * has nothing, or less than expected, to show: a kustomize base judged alone, a file with a schema error.
 */
import type { PanelLeftOut } from '../../../../protocol/webview-messages';
import { isRefusedBeforeAdmission } from '../manifests/read-manifests';
import type { ManifestFile } from '../manifests/read-manifests';
import type { LineIndex } from '../text/line-index';

/** The most documents named (the panel shows a few; the count says how many there are). */
const MAX_LEFT_OUT = 50;

/**
 * The left-out documents of the files, each with its first refused error; `linesOf` gives a file's line index
 * (a kustomize render's gives the lines of the files its objects came from).
 */
export function leftOutDocuments(
  files: readonly ManifestFile[],
  linesOf: (file: string) => LineIndex | undefined,
): PanelLeftOut[] {
  const result: PanelLeftOut[] = [];
  for (const file of files) {
    if (file.analysis.kustomizeFragment === true) {
      continue; // merged into other objects, never applied on its own
    }
    const lines = linesOf(file.id);
    for (const document of file.analysis.documents) {
      const error = document.findings.find(isRefusedBeforeAdmission);
      if (error === undefined) {
        continue;
      }
      if (result.length >= MAX_LEFT_OUT) {
        return result;
      }
      const line = lines === undefined ? 1 : lines.positionAt(error.start).line + 1;
      result.push({ file: file.id, line, message: error.message });
    }
  }
  return result;
}
