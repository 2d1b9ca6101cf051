/**
 * Typed getters over the extension's settings (the same Settings object the server reads).
 */
import * as vscode from 'vscode';
import type { Settings } from '../../protocol/settings';
import { normalizeSettings, SETTINGS_SECTION } from '../../protocol/settings';

/** The extension's settings for a resource (or the workspace). */
export function readSettings(scope?: vscode.Uri): Settings {
  const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
  return normalizeSettings({
    kubernetesVersion: configuration.get('kubernetesVersion'),
    cluster: configuration.get('cluster'),
    validation: { enable: configuration.get('validation.enable') },
    maxFileSizeKB: configuration.get('maxFileSizeKB'),
    scope: configuration.get('scope'),
    predictions: { enable: configuration.get('predictions.enable') },
  });
}
