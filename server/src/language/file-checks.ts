/**
 * Checks before any parsing: a file too large or binary is skipped as a whole; template text ({{ … }}) is found
 * per document (templateFinding), so the plain documents beside a templated one are still analysed. Each skip is
 * told with at most one information message per file.
 */
import type { Finding } from './findings';

/** Why a file is skipped, and whether to tell the user (only for files that look like Kubernetes manifests). */
interface SkipVerdict {
  readonly finding: Finding;
  readonly report: boolean;
}

const HELM_PATTERN = /\{\{-?\s*[^}]*\}\}/;
const KUBERNETES_TEXT_PATTERN = /^(?:apiVersion|kind)\s*:/m;

/** The reason to skip a file, or undefined to analyse it. */
export function checkFileContent(text: string, maxLength: number): SkipVerdict | undefined {
  if (text.length > maxLength) {
    return {
      report: true,
      finding: {
        code: 'file-too-large',
        message: `This file has ${text.length.toLocaleString('en-US')} characters, more than the ${maxLength.toLocaleString('en-US')} analysed (setting kubeForesight.maxFileSizeKB); it was not analysed.`,
        start: 0,
        end: Math.min(text.length, lineEnd(text, 0)),
      },
    };
  }
  const nul = text.indexOf('\u0000');
  if (nul !== -1) {
    return {
      report: true,
      finding: {
        code: 'file-not-text',
        message: 'This file contains a NUL byte: it is not a YAML text file and was not analysed.',
        start: nul,
        end: nul + 1,
      },
    };
  }
  return undefined;
}

/** Where a document's text holds template syntax ({{ … }}), relative to the text; undefined when it holds none. */
export function findTemplateText(text: string): { start: number; end: number } | undefined {
  const match = HELM_PATTERN.exec(text);
  return match === null ? undefined : { start: match.index, end: match.index + match[0].length };
}

/**
 * The one note of a file some of whose documents are template text: the whole file when every document is, else
 * how many were left out. `at` is the first template text's range in the file.
 */
export function templateVerdict(
  text: string,
  at: { start: number; end: number },
  templated: number,
  documents: number,
): SkipVerdict {
  const message =
    templated >= documents
      ? 'This file contains template syntax ({{ … }}), as Helm charts do; it is not a plain manifest and was not analysed. Render it (helm template) to check the result.'
      : `${templated} of the ${documents} documents of this file contain template syntax ({{ … }}) and were not analysed; the others were. Render the templates (helm template) to check them.`;
  return {
    report: KUBERNETES_TEXT_PATTERN.test(text),
    finding: { code: 'helm-template-skipped', message, start: at.start, end: at.end },
  };
}

function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline === -1 ? text.length : newline;
}
