/**
 * Checks before any parsing: a file too large or binary is skipped as a whole; template text ({{ … }} as the
 * document's structure, or naming Helm's objects: yaml/template-text.ts) is found per document, so the plain
 * documents beside a templated one are still analysed. Each skip is told with at most one information message per
 * file.
 */
import type { TextFinding } from './findings';
import type { TemplateSite } from './yaml/template-text';
import { findTemplateSite } from './yaml/template-text';
import { severityOf } from './findings';

/** Why a file is skipped, and whether to tell the user (only for files that look like Kubernetes manifests). */
interface SkipVerdict {
  readonly finding: TextFinding;
  readonly report: boolean;
}

const KUBERNETES_TEXT_PATTERN = /^(?:apiVersion|kind)\s*:/m;

/** The reason to skip a file, or undefined to analyse it. */
export function checkFileContent(text: string, maxLength: number): SkipVerdict | undefined {
  if (text.length > maxLength) {
    return {
      report: true,
      finding: {
        code: 'file-too-large',
        severity: severityOf('file-too-large'),
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
        severity: severityOf('file-not-text'),
        message: 'This file contains a NUL byte: it is not a YAML text file and was not analysed.',
        start: nul,
        end: nul + 1,
      },
    };
  }
  return undefined;
}

/** Where a document's text is template text, relative to the text; undefined when it is none (see template-text.ts). */
export function findTemplateText(text: string): TemplateSite | undefined {
  return findTemplateSite(text);
}

/** A document left out as template text: its index in the file and the template site's range in the file. */
export interface TemplatedDocument {
  readonly index: number;
  /** Offset of the document's slice in the file. */
  readonly offset: number;
  readonly start: number;
  readonly end: number;
}

/**
 * The one note of a file some of whose documents are template text: which documents, the line of the first
 * template site, and that `helm template` renders them. `skippedWhole`: no document of the file was analysed.
 */
export function templateVerdict(
  text: string,
  templated: readonly TemplatedDocument[],
  documents: number,
  skippedWhole: boolean,
): SkipVerdict | undefined {
  const first = templated[0];
  if (first === undefined) {
    return undefined;
  }
  const line = lineOf(text, first.start);
  const where = `(line ${line.number}: \`${line.text}\`)`;
  const numbers = templated.map((document) => document.index + 1).join(', ');
  let message: string;
  if (skippedWhole && documents <= 1) {
    message = `This file is template text ${where}; not analysed — render it with \`helm template\`.`;
  } else if (templated.length === 1) {
    message = `Document ${numbers} is template text ${where}; not analysed — render it with \`helm template\`.`;
  } else {
    message = `Documents ${numbers} are template text ${where}; not analysed — render them with \`helm template\`.`;
  }
  return {
    report: KUBERNETES_TEXT_PATTERN.test(text),
    finding: {
      code: 'helm-template-skipped',
      severity: severityOf('helm-template-skipped'),
      message,
      start: first.start,
      end: first.end,
    },
  };
}

/**
 * The note of a file inside a Helm chart folder, skipped whole as the CLI skips the chart
 * (files/manifest-files.ts): told only when the file looks like Kubernetes manifests (not values.yaml).
 */
export function helmChartVerdict(text: string, chart: string): SkipVerdict {
  return {
    report: KUBERNETES_TEXT_PATTERN.test(text),
    finding: {
      code: 'helm-chart-skipped',
      severity: severityOf('helm-chart-skipped'),
      message: `This file is part of the Helm chart ${chart} (Chart.yaml beside templates/), which is rendered as a unit; not analysed — render the chart with \`helm template\`.`,
      start: 0,
      end: Math.min(text.length, lineEnd(text, 0)),
    },
  };
}

/** The most characters of a line quoted in a note. */
const QUOTED_LINE_LENGTH = 32;

/** The 1-based number of the line holding `offset`, and its text trimmed and cut short for a note. */
function lineOf(text: string, offset: number): { number: number; text: string } {
  let number = 1;
  let start = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    number++;
    start = at + 1;
  }
  const whole = text.slice(start, lineEnd(text, start)).trim();
  const cut = whole.length > QUOTED_LINE_LENGTH ? `${whole.slice(0, QUOTED_LINE_LENGTH - 1)}…` : whole;
  return { number, text: cut };
}

function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline === -1 ? text.length : newline;
}
