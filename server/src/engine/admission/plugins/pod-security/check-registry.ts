/**
 * The check registry of pod-security-admission v0.35 (policy/registry.go): which checks run for a level and
 * version, and in what order. Baseline runs the baseline checks; restricted runs the baseline checks that no
 * restricted check overrides at that version, then the restricted ones. Checks run in the order of their IDs,
 * baseline IDs first. A version newer than the newest check's (and `latest`) evaluates as the newest.
 */
import { BASELINE_CHECKS } from './baseline-checks';
import type { CheckFailure, CheckPod, Json } from './check-helpers';
import { RESTRICTED_CHECKS } from './restricted-checks';
import { maxOf } from '../../../../../../protocol/collections';

/** One version of a check: from which policy minor version (1.x) it applies, and the baseline checks it replaces. */
interface VersionedCheck {
  readonly minimum: number;
  readonly check: CheckPod;
  readonly overrides?: readonly string[];
}

/** A check: its ID and its versions, oldest first. */
export interface PodSecurityCheck {
  readonly id: string;
  readonly versions: readonly VersionedCheck[];
}

/** The newest policy version any check names: `latest` evaluates as this one. */
export const NEWEST_POLICY_MINOR = maxOf(
  [...BASELINE_CHECKS, ...RESTRICTED_CHECKS].flatMap((check) => check.versions.map((v) => v.minimum)),
);

const byId = (a: PodSecurityCheck, b: PodSecurityCheck): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const ORDERED_BASELINE = [...BASELINE_CHECKS].sort(byId);
const ORDERED_RESTRICTED = [...RESTRICTED_CHECKS].sort(byId);

/** The version of a check that applies at a policy minor version, or undefined before its first. */
const versionAt = (check: PodSecurityCheck, minor: number): VersionedCheck | undefined =>
  [...check.versions].reverse().find((version) => version.minimum <= minor);

/** The failures of a pod at a level and policy minor version (null: latest), in the registry's order. */
export function evaluatePod(
  level: 'baseline' | 'restricted',
  minor: number | null,
  metadata: Json,
  spec: Json,
): CheckFailure[] {
  const at = minor === null ? NEWEST_POLICY_MINOR : Math.min(minor, NEWEST_POLICY_MINOR);
  const restricted =
    level === 'restricted'
      ? ORDERED_RESTRICTED.map((check) => versionAt(check, at)).filter(
          (version): version is VersionedCheck => version !== undefined,
        )
      : [];
  const overridden = new Set(restricted.flatMap((version) => version.overrides ?? []));
  const baseline = ORDERED_BASELINE.filter((check) => !overridden.has(check.id))
    .map((check) => versionAt(check, at))
    .filter((version): version is VersionedCheck => version !== undefined);
  return [...baseline, ...restricted]
    .map((version) => version.check(metadata, spec))
    .filter((failure): failure is CheckFailure => failure !== null);
}
