/**
 * The Kubernetes version a capture implies: its header's `serverVersion` ("v1.34.2", kubectl version's gitVersion)
 * is the default version to predict with, when it is one the engine models; otherwise the nearest modelled one
 * is used and a note says so, as it does when the caller asked for another version than the server runs.
 */
import type { CaptureHeader } from '../model/load/capture-header';
import { engineFinding } from '../model/findings';
import type { Finding } from '../../../../protocol/finding';
import { ENGINE_KUBERNETES_VERSIONS, isKubernetesMinor } from '../version';
import type { KubernetesMinor } from '../version';

/** The "1.N" of a server version ("v1.34.2", "v1.35.0-gke.1200"), or null when it is not one. */
export function serverMinor(serverVersion: string): string | null {
  const match = /^v?(\d+)\.(\d+)/.exec(serverVersion);
  return match === null ? null : `${Number(match[1])}.${Number(match[2])}`;
}

/** The modelled version nearest a server version: its own, else the oldest or the newest modelled one. */
export function versionForServer(serverVersion: string): KubernetesMinor | null {
  const minor = serverMinor(serverVersion);
  if (minor === null) {
    return null;
  }
  if (isKubernetesMinor(minor)) {
    return minor;
  }
  const oldest = ENGINE_KUBERNETES_VERSIONS[0];
  const newest = ENGINE_KUBERNETES_VERSIONS[ENGINE_KUBERNETES_VERSIONS.length - 1] ?? oldest;
  return compareMinor(minor, oldest) < 0 ? oldest : newest;
}

/** The note when the version predicted with is not the captured server's, or null when they agree. */
export function captureVersionNote(header: CaptureHeader | null, version: KubernetesMinor): Finding | null {
  const served = header?.serverVersion ?? null;
  const minor = served === null ? null : serverMinor(served);
  if (header === null || served === null || minor === null || minor === version) {
    return null;
  }
  const range = `${ENGINE_KUBERNETES_VERSIONS[0]}–${ENGINE_KUBERNETES_VERSIONS[ENGINE_KUBERNETES_VERSIONS.length - 1] ?? ''}`;
  const message = isKubernetesMinor(minor)
    ? `The captured API server runs ${served}; predictions use Kubernetes ${version}, as asked (--kubernetes-version, or the setting kubeForesight.kubernetesVersion).`
    : `The captured API server runs ${served}, which is not a version predicted here (${range}); predictions use Kubernetes ${version}, the nearest.`;
  return engineFinding('capture-version-differs', header.source, ['spec', 'serverVersion'], message);
}

/** Orders two "major.minor" versions: negative when `left` is older. */
function compareMinor(left: string, right: string): number {
  const [leftMajor = 0, leftMinor = 0] = left.split('.').map(Number);
  const [rightMajor = 0, rightMinor = 0] = right.split('.').map(Number);
  return leftMajor - rightMajor || leftMinor - rightMinor;
}
