/**
 * A namespace's Pod Security policy from its labels, as pod-security-admission v0.35 reads them
 * (api/helpers.go PolicyToEvaluate): `pod-security.kubernetes.io/<mode>` is privileged, baseline or restricted
 * and `<mode>-version` is `latest` or `v1.<minor>`. An invalid enforce level fails closed (restricted), an
 * invalid warn or audit level fails open (privileged), an invalid version is latest; the API server refuses a
 * Namespace whose labels are invalid. Without a warn label, warn follows a stricter enforce level (and its
 * version). The cluster-wide defaults are privileged:latest (no AdmissionConfiguration is modelled).
 */

/** A Pod Security level. */
export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

/** A level at a policy version; `minor` null is latest. */
export interface LevelVersion {
  readonly level: PodSecurityLevel;
  readonly minor: number | null;
  /** As the messages print it: `restricted:latest`, `baseline:v1.25`. */
  readonly name: string;
}

/** The policy a namespace's labels set, per mode. */
export interface NamespacePolicy {
  readonly enforce: LevelVersion;
  readonly warn: LevelVersion;
  readonly audit: LevelVersion;
}

const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const LEVELS: readonly PodSecurityLevel[] = ['privileged', 'baseline', 'restricted'];
const VERSION = /^v1\.([0-9]|[1-9][0-9]*)$/;

const levelVersion = (level: PodSecurityLevel, minor: number | null): LevelVersion => ({
  level,
  minor,
  name: `${level}:${minor === null ? 'latest' : `v1.${minor}`}`,
});

const isLevel = (value: string): value is PodSecurityLevel => (LEVELS as readonly string[]).includes(value);

/** A version label's minor version (null: latest, also for an invalid value). */
const parseVersion = (value: string | undefined): number | null => {
  const match = value === undefined ? null : VERSION.exec(value);
  return match === null ? null : Number(match[1]);
};

/** The field errors of a namespace's Pod Security labels, worded as the API server's Invalid error. */
export function podSecurityLabelErrors(labels: Readonly<Record<string, string>>): string[] {
  const errors: string[] = [];
  for (const mode of ['enforce', 'audit', 'warn']) {
    for (const [suffix, isValid, expected] of [
      ['', isLevel, `must be one of ${LEVELS.join(', ')}`],
      [
        '-version',
        (value: string) => value === 'latest' || VERSION.test(value),
        'must be "latest" or "v1.x"',
      ],
    ] as const) {
      const key = `${LABEL_PREFIX}${mode}${suffix}`;
      const value = labels[key];
      if (value !== undefined && !isValid(value)) {
        errors.push(`metadata.labels[${key}]: Invalid value: ${JSON.stringify(value)}: ${expected}`);
      }
    }
  }
  return errors;
}

/** The policy of a namespace with these labels. */
export function namespacePolicy(labels: Readonly<Record<string, string>>): NamespacePolicy {
  const read = (
    mode: string,
    failed: PodSecurityLevel,
  ): { level: PodSecurityLevel; minor: number | null } => {
    const level = labels[`${LABEL_PREFIX}${mode}`];
    return {
      level: level === undefined ? 'privileged' : isLevel(level) ? level : failed,
      minor: parseVersion(labels[`${LABEL_PREFIX}${mode}-version`]),
    };
  };
  const enforce = read('enforce', 'restricted');
  const audit = read('audit', 'privileged');
  let warn = read('warn', 'privileged');
  const enforceLabel = labels[`${LABEL_PREFIX}enforce`];
  const hasValidEnforce = enforceLabel !== undefined && isLevel(enforceLabel);
  if (
    labels[`${LABEL_PREFIX}warn`] === undefined &&
    hasValidEnforce &&
    LEVELS.indexOf(enforce.level) > LEVELS.indexOf(warn.level)
  ) {
    warn = {
      level: enforce.level,
      minor: labels[`${LABEL_PREFIX}warn-version`] === undefined ? enforce.minor : warn.minor,
    };
  }
  return {
    enforce: levelVersion(enforce.level, enforce.minor),
    warn: levelVersion(warn.level, warn.minor),
    audit: levelVersion(audit.level, audit.minor),
  };
}

/** A policy as the messages print it ("restricted:latest", "baseline:v1.25"), or null when it is not one. */
export function parseLevelVersion(name: string): LevelVersion | null {
  const match = /^(privileged|baseline|restricted):(latest|v1\.([0-9]|[1-9][0-9]*))$/.exec(name);
  if (match === null) {
    return null;
  }
  return levelVersion(match[1] as PodSecurityLevel, match[3] === undefined ? null : Number(match[3]));
}
