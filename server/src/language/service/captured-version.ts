/**
 * The Kubernetes version a simulation defaults to when its cluster is a capture: the API server's version its
 * header records (`serverVersion`), or the nearest one the engine models (engine/simulate/capture-version.ts,
 * which also words the note when they differ). Only the header is read, before the manifests are.
 */
import { readCaptureHeader } from '../../engine/model/load/capture-header';
import { versionForServer } from '../../engine/simulate/capture-version';
import type { KubernetesMinor } from '../../engine/version';
import { captureHeaderObject } from '../manifests/capture-reader';

/** The version the first capture header among the cluster files' texts implies, or null without one. */
export function capturedVersion(texts: readonly string[]): KubernetesMinor | null {
  for (const text of texts) {
    const object = captureHeaderObject(text);
    if (object === null) {
      continue;
    }
    const { header } = readCaptureHeader([{ object, source: { file: '', documentIndex: 0, path: [] } }]);
    const served = header?.serverVersion ?? null;
    return served === null ? null : versionForServer(served);
  }
  return null;
}

/**
 * The version a simulation runs with, chosen one way for `foresight simulate` / `plan` and the editor: the one
 * the user gave (`--kubernetes-version`, or the setting when it is set), else the version the cluster's capture
 * records, else the default. `captured` is only asked when the user gave none.
 */
export function chosenVersion<V extends string>(version: V, isGiven: boolean, captured: () => V | null): V {
  return isGiven ? version : (captured() ?? version);
}
