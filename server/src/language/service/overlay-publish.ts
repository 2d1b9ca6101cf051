/**
 * A file's own diagnostics with those of the kustomize overlays that include it (overlay-renders.ts). A finding
 * an overlay has in common with the file as it is (same code, start and message, before the overlay's name) is
 * already shown by the file's own diagnostic and is not repeated; the others follow it.
 */
import type { Diagnostic } from 'vscode-languageserver';
import type { PlacedOverlayDiagnostic } from './overlay-findings';

/** The file's diagnostics, then the overlays' that say something the file's do not. */
export function withOverlayDiagnostics(
  own: readonly Diagnostic[],
  overlays: readonly PlacedOverlayDiagnostic[],
): Diagnostic[] {
  if (overlays.length === 0) {
    return [...own];
  }
  const ownKeys = new Set(own.map((diagnostic) => keyOf(diagnostic, diagnostic.message)));
  return [
    ...own,
    ...overlays
      .filter(({ diagnostic, plainMessage }) => !ownKeys.has(keyOf(diagnostic, plainMessage)))
      .map(({ diagnostic }) => diagnostic),
  ];
}

/**
 * Code, start and message: an overlay's range ends where the rendered field's end maps to in the source, which
 * need not be where the file's own diagnostic ends, though it is the same finding.
 */
function keyOf(diagnostic: Diagnostic, message: string): string {
  return JSON.stringify([diagnostic.code, diagnostic.range.start, message]);
}
