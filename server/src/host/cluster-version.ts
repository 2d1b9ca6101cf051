/**
 * The Kubernetes version the editor uses for a document, as `foresight simulate` and `plan` choose it: the
 * `kubeForesight.kubernetesVersion` setting when the user set it, else the version the API server of the
 * document's cluster file ran when it was captured (its header's serverVersion), else the setting's default.
 * Without this the editor validated and predicted against 1.35 a capture of a 1.33 cluster, while the CLI used
 * 1.33 for the same files, and the capture-version-differs note said "as asked" of a version nobody asked for.
 * A client that does not say whether the setting is set (kubernetesVersionSet, sent by the extension) keeps the
 * setting's value.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { Settings } from '../../../protocol/settings';
import { isKubernetesVersion } from '../../../protocol/settings';
import { capturedVersion, chosenVersion } from '../language/service';

/** The header is the first document of a capture: this many bytes hold it (captureHeaderObject reads 200 lines). */
const HEAD_BYTES = 64 * 1024;

/** The captured version of each cluster file read, by path, with the size and time it was read at. */
const versions = new Map<string, { readonly stamp: string; readonly version: string | null }>();

/**
 * The settings with the version a cluster file's capture header names, when the client says the version
 * setting is not set; the settings unchanged otherwise, or when the file records none.
 */
export function withClusterVersion(settings: Settings, clusterFile: string | undefined): Settings {
  const version = chosenVersion(
    settings.kubernetesVersion,
    settings.isKubernetesVersionSet !== false || clusterFile === undefined,
    () => (clusterFile === undefined ? null : capturedVersionOf(clusterFile)),
  );
  return isKubernetesVersion(version) && version !== settings.kubernetesVersion
    ? { ...settings, kubernetesVersion: version }
    : settings;
}

/** The version the capture header of a file implies, read from its head once per size and mtime. */
function capturedVersionOf(path: string): string | null {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile()) {
    return null;
  }
  const stamp = `${stats.size}:${stats.mtimeMs}`;
  const known = versions.get(path);
  if (known?.stamp === stamp) {
    return known.version;
  }
  let version: string | null = null;
  try {
    const descriptor = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(HEAD_BYTES, stats.size));
      const read = readSync(descriptor, buffer, 0, buffer.length, 0);
      version = capturedVersion([buffer.subarray(0, read).toString('utf8')]);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    version = null;
  }
  versions.set(path, { stamp, version });
  return version;
}
