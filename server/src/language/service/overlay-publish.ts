/**
 * A file's own diagnostics with those of the kustomize overlays that include it (overlay-renders.ts). A finding
 * an overlay has in common with the file as it is (same code, start and message, before the overlay's name) is
 * already shown by the file's own diagnostic and is not repeated; the others follow it.
 *
 * A file that rendered kustomizations include is judged through their renders (issue #28 item 2): what a folder's
 * simulation predicts of the file as written is not what `kubectl apply -k` applies, so those predictions give
 * way to the renders'. Where every render agrees with the file's own prediction (same code, same line, same
 * message: a one-line kustomization that renders the file unchanged), the file's prediction is kept instead, on
 * its exact field and with its quick fix, and the render's copy is dropped: one diagnostic per cause.
 */
import type { Diagnostic } from 'vscode-languageserver';
import type { TextFinding } from '../findings';
import type { LineIndex } from '../text/line-index';
import type { OverlayDiagnostic, PlacedOverlayDiagnostic } from './overlay-findings';
import { overlayMessage } from './overlay-findings';

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
 * For a file judged through its renders: the file's predictions every render confirms (kept with their fixes),
 * and the renders' diagnostics without the copies of those.
 */
export function throughRenders(
  predicted: readonly TextFinding[],
  lines: LineIndex,
  overlays: readonly PlacedOverlayDiagnostic[],
): { predicted: TextFinding[]; overlays: PlacedOverlayDiagnostic[] } {
  const confirmed = new Set<PlacedOverlayDiagnostic>();
  const kept = predicted.filter((finding) => {
    const line = lines.positionAt(finding.start).line;
    const match = overlays.find(
      (overlay) =>
        overlay.allAgree === true &&
        !confirmed.has(overlay) &&
        overlay.diagnostic.code === finding.code &&
        overlay.diagnostic.range.start.line === line &&
        overlay.plainMessage === finding.message,
    );
    if (match !== undefined) {
      confirmed.add(match);
    }
    return match !== undefined;
  });
  return { predicted: kept, overlays: overlays.filter((overlay) => !confirmed.has(overlay)) };
}

/**
 * Code, start line and message: an overlay's range is where the rendered field maps to in the source, line by
 * line (a field kustomize re-indents or reorders maps to its line, not its column), so it need not start or end
 * where the file's own diagnostic does, though it is the same finding.
 */
function keyOf(diagnostic: Diagnostic, message: string): string {
  return JSON.stringify([diagnostic.code, diagnostic.range.start.line, message]);
}

/**
 * The diagnostics of the units that include a file, merged: the same finding (code, severity, range, message) of
 * several units is one diagnostic. It names the units that give it, unless every rendered unit including the file
 * does (`renderedLabels`): then they agree and the message is the finding's own.
 */
export function mergeUnitDiagnostics(
  entries: readonly OverlayDiagnostic[],
  renderedLabels: readonly string[],
): PlacedOverlayDiagnostic[] {
  const merged = new Map<string, { entry: OverlayDiagnostic; labels: string[] }>();
  for (const entry of entries) {
    const { diagnostic } = entry;
    const key = JSON.stringify([diagnostic.code, diagnostic.severity, diagnostic.range, entry.plainMessage]);
    const group = merged.get(key);
    if (group === undefined) {
      merged.set(key, { entry, labels: [entry.label] });
    } else if (!group.labels.includes(entry.label)) {
      group.labels.push(entry.label);
    }
  }
  return [...merged.values()].map(({ entry, labels }) => {
    const allAgree = renderedLabels.length > 0 && renderedLabels.every((label) => labels.includes(label));
    const message = allAgree ? entry.plainMessage : overlayMessage(labels, entry.plainMessage);
    return {
      diagnostic: { ...entry.diagnostic, message },
      plainMessage: entry.plainMessage,
      ...(allAgree ? { allAgree } : {}),
    };
  });
}
