/**
 * Where the side-by-side benchmark looks and types in a generated manifest file (bench/manifests.ts): the line of
 * the known error, a one-character edit in a Deployment near the middle of the file that makes a second error
 * (so the diagnostics of the edit are told apart from any earlier ones), and a key to hover.
 */
import type { Position, Range } from 'vscode-languageserver-protocol';

/** The positions used on one generated file. */
export interface EditPlan {
  /** The line of resource 0's `replicas: "3"` (the known error). */
  readonly knownErrorLine: number;
  /** Replaces the last digit of `containerPort: 8080` with a letter: a type error on `changedLine`. */
  readonly change: { readonly range: Range; readonly text: string };
  readonly changedLine: number;
  /** The `image` key of the same Deployment's container. */
  readonly hover: Position;
}

/** The position of an offset. */
function positionAt(text: string, offset: number): Position {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}

function requireIndex(text: string, needle: string, from = 0): number {
  const index = text.indexOf(needle, from);
  if (index < 0) {
    throw new Error(`generated manifests lack ${JSON.stringify(needle)}`);
  }
  return index;
}

/** The edit plan of a file of `count` generated resources (`count` ≥ 4, so a Deployment other than 0 exists). */
export function planEdits(text: string, count: number): EditPlan {
  const knownError = positionAt(text, requireIndex(text, 'replicas: "3"'));
  // Deployments are the resources whose index is a multiple of 3; take the one nearest the middle (not 0).
  const middle = Math.max(3, Math.floor(count / 2 / 3) * 3);
  const start = requireIndex(text, `  name: app-${middle}\n`);
  const portKey = 'containerPort: 808';
  const port = positionAt(text, requireIndex(text, portKey, start) + portKey.length);
  const image = positionAt(text, requireIndex(text, 'image:', start) + 2);
  return {
    knownErrorLine: knownError.line,
    change: {
      range: { start: port, end: { line: port.line, character: port.character + 1 } },
      text: 'x',
    },
    changedLine: port.line,
    hover: image,
  };
}
