/**
 * Checks on a file as a whole, before any parsing: too large, binary, or a Helm template. Each skips the file
 * with at most one information message.
 */
import type { Finding } from './findings';

/** Why a file is skipped, and whether to tell the user (only for files that look like Kubernetes manifests). */
export interface SkipVerdict {
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
  const helm = HELM_PATTERN.exec(text);
  if (helm !== null) {
    return {
      report: KUBERNETES_TEXT_PATTERN.test(text),
      finding: {
        code: 'helm-template-skipped',
        message:
          'This file contains template syntax ({{ … }}), as Helm charts do; it is not a plain manifest and was not analysed. Render it (helm template) to check the result.',
        start: helm.index,
        end: helm.index + helm[0].length,
      },
    };
  }
  return undefined;
}

function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline === -1 ? text.length : newline;
}
