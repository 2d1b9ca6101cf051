/**
 * The progress lines `foresight capture` prints on standard error, one per resource it lists, read back by the
 * editor's "Kube Foresight: Capture Cluster" (which runs the CLI): "foresight capture: 7/24 pods". Declared once
 * here, as both sides of the process boundary use them.
 */

/** One step of a capture. */
export interface CaptureProgress {
  /** Resources listed so far, this one included. */
  readonly done: number;
  readonly total: number;
  /** The resource being listed ("pods"). */
  readonly resource: string;
}

const PREFIX = 'foresight capture: ';
const PATTERN = /^foresight capture: (\d+)\/(\d+) ([a-z0-9.-]+)$/;

/** The line of a step. */
export function formatCaptureProgress(progress: CaptureProgress): string {
  return `${PREFIX}${progress.done}/${progress.total} ${progress.resource}`;
}

/** The step a line reports, or null for any other line (kubectl's messages, notes). */
export function parseCaptureProgress(line: string): CaptureProgress | null {
  const match = PATTERN.exec(line.trimEnd());
  if (match === null) {
    return null;
  }
  return { done: Number(match[1]), total: Number(match[2]), resource: match[3] ?? '' };
}
