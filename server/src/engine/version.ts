/**
 * The Kubernetes minor versions whose scheduler behaviour and wording the engine follows. Where kube-scheduler's
 * messages or defaults changed between releases, the code that words them takes one of these.
 */

/** Kubernetes minor versions the engine models, oldest first. */
export const ENGINE_KUBERNETES_VERSIONS = ['1.33', '1.34', '1.35'] as const;

/** One of the modelled Kubernetes minor versions. */
export type KubernetesMinor = (typeof ENGINE_KUBERNETES_VERSIONS)[number];

/** The version used when none is given: the newest. */
export const DEFAULT_KUBERNETES_VERSION: KubernetesMinor = '1.35';

/** Whether a value names a modelled version. */
export function isKubernetesMinor(value: unknown): value is KubernetesMinor {
  return typeof value === 'string' && (ENGINE_KUBERNETES_VERSIONS as readonly string[]).includes(value);
}

/** Whether `version` is `minimum` or newer (both of the form "1.N"). */
export function isAtLeast(version: KubernetesMinor, minimum: KubernetesMinor): boolean {
  return minorNumber(version) >= minorNumber(minimum);
}

/** The minor numbers of the supported versions, read once: isAtLeast runs for every pod loaded. */
const MINOR_NUMBERS: ReadonlyMap<string, number> = new Map(
  ENGINE_KUBERNETES_VERSIONS.map((version) => [version, Number(version.split('.')[1])]),
);

function minorNumber(version: KubernetesMinor): number {
  return MINOR_NUMBERS.get(version) ?? Number(version.split('.')[1]);
}
