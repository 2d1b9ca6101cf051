/**
 * The diagnostics of one rendered overlay on the files its objects came from: the rendered objects are analysed
 * as the editor analyses a file (schema, API versions, object checks) and predicted on the cluster as a folder
 * is (prediction-run.ts), then each finding is placed through the render's mapped line index
 * (files/kustomize/mapped-line-index.ts: origin annotation, then the field's path in the source document) and
 * named by the overlay ("overlay `overlays/prod`: …"); a finding on a field a patch set goes to that patch. Quick fixes are left out: their edits are offsets of the
 * rendered text, not of the file the user edits.
 */
import type { Diagnostic } from 'vscode-languageserver';
import type { Settings } from '../../../../protocol/settings';
import type { AnalysisContext } from '../analyzer';
import { analyzeText } from '../analyzer';
import type { TextFinding } from '../findings';
import { toDiagnostic } from '../lsp/diagnostics';
import type { ManifestFile } from '../manifests/read-manifests';
import { readManifests } from '../manifests/read-manifests';
import { describePlaceIn } from '../manifests/describe-place';
import type { RenderedText } from '../kustomize/rendered-texts';
import { runPrediction } from './prediction-run';
import { MAX_SIMULATED_OBJECTS } from './prediction-types';
import type { ScopeFile } from './prediction-types';
import type { ApiServingOf } from './scope-simulation';
import { baseNameOf } from '../text/base-name';
import type { ClusterChoice } from '../../../../protocol/messages';
import { appendAll } from '../../../../protocol/collections';
import type { OverlayLens } from './workload-lenses';
import { workloadLenses } from './workload-lenses';
import { workloadHeaderHover } from './prediction-hover';

/** A diagnostic of an overlay on a source file, with the message before the overlay's name was added. */
export interface OverlayDiagnostic {
  readonly diagnostic: Diagnostic;
  /** The finding's own message, to merge the same finding of several overlays into one diagnostic. */
  readonly plainMessage: string;
  /** The overlay it came from ("overlays/prod"); empty for a note about no overlay in particular. */
  readonly label: string;
}

/** A diagnostic of the overlays on a file, with the finding's message before the overlays were named. */
export interface PlacedOverlayDiagnostic {
  readonly diagnostic: Diagnostic;
  readonly plainMessage: string;
  /** Set when every rendered unit that includes the file gives this finding (its message then names none). */
  readonly allAgree?: boolean;
}

/** The cluster a rendered overlay is predicted on: the cluster file (path and text), or none (the default). */
export interface OverlayCluster {
  readonly path: string | undefined;
  readonly text: string;
  /** Which cluster and why (a profile has no path); chosen from the path when absent. */
  readonly choice?: ClusterChoice;
}

/** The message of a finding of an overlay. */
export function overlayMessage(labels: readonly string[], message: string): string {
  const named = labels.map((label) => `\`${label}\``).join(', ');
  return `${labels.length === 1 ? 'overlay' : 'overlays'} ${named}: ${message}`;
}

/** What a rendered overlay gives its source files (by absolute path): diagnostics, and its workloads' lenses. */
export interface OverlayAnswers {
  readonly diagnostics: Map<string, OverlayDiagnostic[]>;
  readonly lenses: Map<string, OverlayLens[]>;
}

/** Analyses and predicts a rendered overlay; its diagnostics and lenses by source file (absolute path). */
export function overlayDiagnostics(
  label: string,
  folder: string,
  texts: readonly RenderedText[],
  settings: Settings,
  context: AnalysisContext,
  cluster: OverlayCluster,
  uriOf: (path: string) => string,
  apiServingOf: ApiServingOf,
  /** How the render's objects are read when a GitOps unit applies the overlay: its controller, its namespace. */
  readAs: Pick<ManifestFile, 'appliedBy' | 'unitNamespace'> = {},
): OverlayAnswers {
  const files = texts.map((rendered) => ({
    rendered,
    scope: {
      uri: uriOf(rendered.file),
      analysis: analyzeText(rendered.text, context),
      text: rendered.text,
    } satisfies ScopeFile,
  }));
  const findingsByUri = new Map<string, TextFinding[]>(
    files.map(({ scope }) => [scope.uri, [...scope.analysis.findings]]),
  );
  const lenses = new Map<string, OverlayLens[]>();
  if (settings.predictions.enable) {
    const read = readManifests(
      files.map(({ rendered, scope }) => ({
        id: scope.uri,
        analysis: scope.analysis,
        applyOrder: rendered.applyOrder,
        ...readAs,
      })),
      {
        describePlace: describePlaceIn(
          files.map(({ scope }) => ({ ...scope, id: scope.uri })),
          (uri) => `${baseNameOf(uri)} in overlay ${label}`,
        ),
      },
    );
    if (read.objects.length > 0 && read.objects.length <= MAX_SIMULATED_OBJECTS) {
      const prediction = runPrediction(
        uriOf(folder),
        files.map(({ scope }) => scope),
        read.objects,
        settings,
        context,
        cluster.path === undefined
          ? undefined
          : { uri: uriOf(cluster.path), name: baseNameOf(cluster.path), path: cluster.path },
        cluster.text,
        apiServingOf,
        read.findings,
        cluster.choice,
      );
      for (const [uri, findings] of prediction.findings) {
        const list = findingsByUri.get(uri);
        if (list !== undefined) {
          appendAll(list, findings);
        }
      }
      // Each workload's lens on the line its object came from (the render's mapped lines).
      for (const { rendered, scope } of files) {
        const placed = workloadLenses(prediction, scope.analysis, scope.uri).map((lens) => ({
          ...rendered.lines.positionAt(lens.start),
          title: lens.title,
          workload: lens.workload,
          label,
          replayUri: uriOf(rendered.unit),
          hover: workloadHeaderHover(prediction, lens.predicted),
        }));
        if (placed.length > 0) {
          lenses.set(rendered.file, [...(lenses.get(rendered.file) ?? []), ...placed]);
        }
      }
    }
  }
  const byFile = new Map<string, OverlayDiagnostic[]>();
  const seen = new Set<string>();
  for (const { rendered, scope } of files) {
    for (const finding of findingsByUri.get(scope.uri) ?? []) {
      const placed = toDiagnostic({ ...finding, fix: undefined }, rendered.lines);
      // A field a patch set is shown on the patch (patch-fields.ts), else on the file the object came from.
      const patch = rendered.lines.patchFieldAt(finding.start);
      const file = patch?.file ?? rendered.file;
      const range = patch === undefined ? placed.range : { start: patch.start, end: patch.end };
      const key = JSON.stringify([file, placed.code, range, finding.message]);
      if (seen.has(key)) {
        continue;
      }
      seen.add(key);
      // Related places in the render are shown where their field came from too (a base's line, a patch's).
      const relatedInformation = (finding.related ?? []).flatMap((entry) => {
        if (entry.start === undefined || entry.end === undefined) {
          return [];
        }
        const from = rendered.lines.patchFieldAt(entry.start);
        const where =
          from === undefined
            ? toDiagnostic({ ...finding, start: entry.start, end: entry.end, related: [] }, rendered.lines)
                .range
            : { start: from.start, end: from.end };
        return [
          { location: { uri: uriOf(from?.file ?? rendered.file), range: where }, message: entry.message },
        ];
      });
      const diagnostics = byFile.get(file) ?? [];
      diagnostics.push({
        diagnostic: {
          ...placed,
          range,
          message: overlayMessage([label], finding.message),
          ...(relatedInformation.length === 0 ? {} : { relatedInformation }),
        },
        plainMessage: finding.message,
        label,
      });
      byFile.set(file, diagnostics);
    }
  }
  return { diagnostics: byFile, lenses };
}
