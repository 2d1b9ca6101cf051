/**
 * What an overlay's render and findings depend on, hashed: a unit is rendered again only when this changes
 * (overlay-renders.ts). The contents of the unit's files count, an open editor's unsaved text in place of the
 * file's, with the binary, the settings that change the findings and the cluster file's text.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { OverlayUnit } from '../files/kustomize/overlay-units';
import type { KustomizeCommand } from '../files/kustomize/render-kustomization';
import { findClusterFile } from './cluster-file';
import type { Settings } from '../../../protocol/settings';
import type { AnalysisContext } from '../language/service';
import { PROFILE_SETTING_PREFIX } from '../../../protocol/settings';

/** What an overlay render needs to know about the edited document. */
export interface OverlayRequest {
  /** The edited document's path, absolute. */
  readonly file: string;
  readonly settings: Settings;
  readonly context: AnalysisContext;
  /** The open documents' texts by absolute path (unsaved changes count). */
  readonly openTexts: ReadonlyMap<string, string>;
  /** The workspace folders, absolute. */
  readonly roots: readonly string[];
}

/** The hash of what a unit's render and findings depend on. */
export function inputsKey(unit: OverlayUnit, command: KustomizeCommand, request: OverlayRequest): string {
  const hash = createHash('sha256');
  const { settings } = request;
  hash.update(
    JSON.stringify([
      command,
      settings.kustomize.allowRemote,
      settings.kubernetesVersion,
      settings.cluster,
      settings.predictions.enable,
      request.context.key,
    ]),
  );
  const clusterPath = findClusterFile(unit.folder, clusterSetting(settings.cluster, request.roots, unit));
  for (const file of [...unit.tree.files, ...(clusterPath === undefined ? [] : [clusterPath])].sort()) {
    hash.update(`\0${file}\0`);
    hash.update(request.openTexts.get(file) ?? readTextOrUndefined(file) ?? '\0missing');
  }
  return hash.digest('hex');
}

/** The cluster setting as a path: relative to the workspace folder holding the unit, as prediction-service does. */
export function clusterSetting(setting: string, roots: readonly string[], unit: OverlayUnit): string {
  if (setting.trim() === '' || isAbsolute(setting) || setting.trim().startsWith(PROFILE_SETTING_PREFIX)) {
    return setting;
  }
  const root = roots.find((candidate) => unit.folder.startsWith(`${resolve(candidate)}/`));
  return root === undefined ? setting : resolve(root, setting);
}

/** A file's text, or undefined when it cannot be read. */
export function readTextOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
