/**
 * The extension's settings, as one typed object. The manifest (package.json, contributes.configuration) mirrors
 * these defaults; test/client/settings.test.ts checks that the two agree.
 */

/** The prefix shared by every setting and command of the extension. */
export const SETTINGS_SECTION = 'kubeForesight';

/** Kubernetes minor versions whose schemas ship in schemas/, oldest first. */
export const SUPPORTED_KUBERNETES_VERSIONS = ['1.33', '1.34', '1.35'] as const;

/** One of the shipped Kubernetes minor versions. */
type KubernetesVersion = (typeof SUPPORTED_KUBERNETES_VERSIONS)[number];

/** Which manifests are simulated together with the edited one. */
type AnalysisScope = 'folder' | 'file' | 'workspace';

/** The scopes, in the order the manifest lists them. */
const ANALYSIS_SCOPES: readonly AnalysisScope[] = ['folder', 'file', 'workspace'];

/** Settings read by the language server for each document. */
export interface Settings {
  /** Kubernetes version whose schemas and scheduler wording apply. */
  kubernetesVersion: KubernetesVersion;
  /**
   * Whether the user set kubernetesVersion (the extension sends it, from the setting's inspect()): when not, a
   * captured cluster's own version applies, as the CLI applies it without --kubernetes-version. Absent: the
   * client did not say, and the setting's value applies.
   */
  isKubernetesVersionSet?: boolean;
  /**
   * Path of the cluster file, or `profile:NAME` for a profile; empty means the nearest `.foresight/cluster.yaml`,
   * else the embedded default cluster.
   */
  cluster: string;
  /** Whether manifests are validated at all. */
  validation: { enable: boolean };
  /** Files larger than this many KiB are not analysed. */
  maxFileSizeKB: number;
  /** Which manifests are simulated together: the edited file's folder (recursively), the file, or the workspace. */
  scope: AnalysisScope;
  /** Whether the engine's predictions (Pending pods, QoS, …) are shown. */
  predictions: { enable: boolean };
  /** What the BestEffort quick fix adds to containers without resources: quantities by resource name. */
  defaultResources: { requests: Record<string, string>; limits: Record<string, string> };
  /** How the overlays (kustomizations) that include an edited file are rendered and predicted. */
  kustomize: KustomizeSettings;
}

/** The kustomize settings (docs/predictions.md, "Kustomize overlays"). */
export interface KustomizeSettings {
  /** The kustomize or kubectl binary; empty: kubectl, else kustomize, found on PATH. */
  path: string;
  /** Render kustomizations that name remote bases (kustomize would fetch them). */
  allowRemote: boolean;
  /**
   * Which overlays that include the edited file are rendered: "all", or a list of kustomization folders
   * (relative to the workspace folder, or absolute).
   */
  overlays: 'all' | string[];
}

/** What the cluster setting starts with when it names a profile: `profile:gke`. */
export const PROFILE_SETTING_PREFIX = 'profile:';

/** The defaults, identical to those declared in package.json. */
export const DEFAULT_SETTINGS: Settings = {
  kubernetesVersion: '1.35',
  cluster: '',
  validation: { enable: true },
  maxFileSizeKB: 8192,
  scope: 'folder',
  predictions: { enable: true },
  defaultResources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '128Mi' } },
  kustomize: { path: '', allowRemote: false, overlays: 'all' },
};

/** Checks that a value is one of the shipped Kubernetes versions. */
export function isKubernetesVersion(value: unknown): value is KubernetesVersion {
  return typeof value === 'string' && (SUPPORTED_KUBERNETES_VERSIONS as readonly string[]).includes(value);
}

/**
 * Builds a complete Settings object from an untrusted configuration value (what the client sends),
 * keeping each valid field and falling back to the default for the rest.
 */
export function normalizeSettings(raw: unknown): Settings {
  const source = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const validation = source['validation'];
  const enable =
    typeof validation === 'object' && validation !== null
      ? (validation as Record<string, unknown>)['enable']
      : undefined;
  const maxFileSizeKB = source['maxFileSizeKB'];
  const scope = source['scope'];
  const predictions = source['predictions'];
  const defaultResources =
    typeof source['defaultResources'] === 'object' && source['defaultResources'] !== null
      ? (source['defaultResources'] as Record<string, unknown>)
      : {};
  const predictionsEnable =
    typeof predictions === 'object' && predictions !== null
      ? (predictions as Record<string, unknown>)['enable']
      : undefined;
  return {
    kubernetesVersion: isKubernetesVersion(source['kubernetesVersion'])
      ? source['kubernetesVersion']
      : DEFAULT_SETTINGS.kubernetesVersion,
    cluster: typeof source['cluster'] === 'string' ? source['cluster'] : DEFAULT_SETTINGS.cluster,
    validation: { enable: typeof enable === 'boolean' ? enable : DEFAULT_SETTINGS.validation.enable },
    maxFileSizeKB:
      typeof maxFileSizeKB === 'number' && Number.isFinite(maxFileSizeKB) && maxFileSizeKB >= 1
        ? maxFileSizeKB
        : DEFAULT_SETTINGS.maxFileSizeKB,
    scope: ANALYSIS_SCOPES.includes(scope as AnalysisScope)
      ? (scope as AnalysisScope)
      : DEFAULT_SETTINGS.scope,
    predictions: {
      enable:
        typeof predictionsEnable === 'boolean' ? predictionsEnable : DEFAULT_SETTINGS.predictions.enable,
    },
    defaultResources: {
      requests: resourceMap(defaultResources['requests'], DEFAULT_SETTINGS.defaultResources.requests),
      limits: resourceMap(defaultResources['limits'], DEFAULT_SETTINGS.defaultResources.limits),
    },
    kustomize: kustomizeSettings(source['kustomize']),
    ...(typeof source['kubernetesVersionSet'] === 'boolean'
      ? { isKubernetesVersionSet: source['kubernetesVersionSet'] }
      : {}),
  };
}

/** The kustomize settings from an untrusted value, each field kept when valid. */
function kustomizeSettings(raw: unknown): KustomizeSettings {
  const source = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const { path, allowRemote, overlays } = source;
  const defaults = DEFAULT_SETTINGS.kustomize;
  return {
    path: typeof path === 'string' ? path.trim() : defaults.path,
    allowRemote: typeof allowRemote === 'boolean' ? allowRemote : defaults.allowRemote,
    overlays:
      Array.isArray(overlays) && overlays.every((entry) => typeof entry === 'string')
        ? overlays.filter((entry) => entry.trim() !== '')
        : defaults.overlays,
  };
}

/** Resource names the defaults may set (a typo such as "cpus" would only produce a rejected manifest). */
const DEFAULT_RESOURCE_NAMES =
  /^(?:cpu|memory|ephemeral-storage|hugepages-[0-9A-Za-z]+|[a-z0-9.-]+\/[a-z0-9._-]+)$/;
/** A quantity as the API server reads it (number with an optional suffix). */
const QUANTITY = /^[+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+|[kMGTPE]i?|m|[munk])?$/;

/** A map of resource name to quantity, kept only when every entry is valid (else the default, whole). */
function resourceMap(value: unknown, fallback: Record<string, string>): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fallback;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const valid = entries.every(
    ([name, amount]) =>
      DEFAULT_RESOURCE_NAMES.test(name) &&
      (typeof amount === 'string' || typeof amount === 'number') &&
      QUANTITY.test(String(amount)),
  );
  return valid ? Object.fromEntries(entries.map(([name, amount]) => [name, String(amount)])) : fallback;
}

/**
 * The client's answer to workspace/configuration with `kubernetesVersionSet` added to each of its kubeForesight
 * sections: whether the user set kubernetesVersion for that scope (`isSet`, from VS Code's inspect()). A server
 * cannot tell a default from a value the user chose; the CLI can (--kubernetes-version), and the editor follows
 * the CLI: a capture's own version applies when the setting is not set. Other items and answers pass unchanged.
 */
export function withVersionSetFlags(
  items: readonly { readonly section?: string; readonly scopeUri?: string }[],
  answers: unknown,
  isSet: (scopeUri: string | undefined) => boolean,
): unknown {
  if (!Array.isArray(answers)) {
    return answers;
  }
  return answers.map((answer: unknown, index) => {
    const item = items[index];
    if (
      item?.section !== SETTINGS_SECTION ||
      typeof answer !== 'object' ||
      answer === null ||
      Array.isArray(answer)
    ) {
      return answer;
    }
    return { ...(answer as Record<string, unknown>), kubernetesVersionSet: isSet(item.scopeUri) };
  });
}
