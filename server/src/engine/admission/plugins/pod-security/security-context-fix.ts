/**
 * What a pod spec's securityContext fields must become for the pod to pass Pod Security at a level, following
 * the checks of pod-security-admission (staging/src/k8s.io/pod-security-admission/policy/*.go):
 * - baseline: privileged true → false (check_privileged.go), capabilities beyond the baseline set removed from
 *   capabilities.add (check_capabilities_baseline.go), procMount → Default (check_procMount.go), an Unconfined
 *   seccomp or AppArmor profile → RuntimeDefault (check_seccompProfile_baseline.go, check_appArmorProfile.go),
 *   windowsOptions.hostProcess true → false (check_windowsHostProcess.go);
 * - restricted, besides: allowPrivilegeEscalation false (check_allowPrivilegeEscalation.go), capabilities.drop
 *   ALL and nothing added but NET_BIND_SERVICE (check_capabilities_restricted.go), runAsNonRoot true
 *   (check_runAsNonRoot.go), seccompProfile RuntimeDefault where none is set (check_seccompProfile_restricted.go).
 * A field the user left unset is added; one set to a forbidden value is changed. What securityContext cannot
 * change (host namespaces, hostPath and other volume types, host ports, sysctls, runAsUser 0, SELinux options,
 * probe hosts) is left as written and returned as the checks still failing, so the fix can say what remains.
 */
import { isRecord } from '../../../model/objects';
import { asJson, type CheckFailure, type Json } from './check-helpers';
import { evaluatePod } from './check-registry';
import { isBaselineCapability } from './baseline-checks';
import type { LevelVersion } from './namespace-policy';
import { appendAll } from '../../../../../../protocol/collections';

type Path = readonly (string | number)[];

/**
 * One change, relative to the pod spec: a key added under the existing map at `at`, an item appended to the list
 * at `at`, the scalar at `at` set to a value, or the listed items of the list at `at` removed (by index).
 */
export type SecurityChange =
  | { readonly op: 'add'; readonly at: Path; readonly key: string; readonly value: unknown }
  | { readonly op: 'append'; readonly at: Path; readonly item: string }
  | { readonly op: 'set'; readonly at: Path; readonly value: string | boolean }
  | { readonly op: 'remove'; readonly at: Path; readonly indexes: readonly number[] };

/** The changes, and the checks the spec still fails with them made (empty when the pod then passes). */
export interface SecurityContextFix {
  readonly changes: readonly SecurityChange[];
  readonly remaining: readonly CheckFailure[];
}

/**
 * The securityContext changes that make the spec pass `policy`, or null when it passes already, the level is
 * privileged, or no securityContext change would make any check pass.
 */
export function securityContextFix(
  policy: LevelVersion,
  metadata: Json,
  spec: Json,
): SecurityContextFix | null {
  if (policy.level === 'privileged') {
    return null;
  }
  const before = evaluatePod(policy.level, policy.minor, metadata, spec);
  if (before.length === 0) {
    return null;
  }
  const restricted = policy.level === 'restricted';
  const changes: SecurityChange[] = [];
  let unsetNonRoot = false;
  let unsetSeccomp = false;
  for (const list of ['initContainers', 'containers']) {
    const containers = Array.isArray(spec[list]) ? (spec[list] as unknown[]) : [];
    containers.forEach((container, index) => {
      if (!isRecord(container)) {
        return;
      }
      const context = container['securityContext'];
      const contextAt = [list, index, 'securityContext'];
      unsetNonRoot ||= asJson(context)['runAsNonRoot'] === undefined;
      unsetSeccomp ||= asJson(context)['seccompProfile'] === undefined;
      if (context === undefined) {
        if (restricted) {
          changes.push({
            op: 'add',
            at: [list, index],
            key: 'securityContext',
            value: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
          });
        }
        return;
      }
      if (isRecord(context)) {
        appendAll(changes, containerChanges(context, contextAt, restricted));
      }
    });
  }
  const podContext = spec['securityContext'];
  if (isRecord(podContext)) {
    appendAll(changes, profileChanges(podContext, ['securityContext']));
    if (
      podContext['windowsOptions'] !== undefined &&
      asJson(podContext['windowsOptions'])['hostProcess'] === true
    ) {
      changes.push({ op: 'set', at: ['securityContext', 'windowsOptions', 'hostProcess'], value: false });
    }
  }
  if (restricted) {
    appendAll(changes, podRestrictedChanges(podContext, unsetNonRoot, unsetSeccomp));
  }
  if (changes.length === 0) {
    return null;
  }
  const remaining = evaluatePod(policy.level, policy.minor, metadata, withChanges(spec, changes));
  // A fix that leaves every check failing as before fixes nothing a user would see.
  return JSON.stringify(remaining) === JSON.stringify(before) ? null : { changes, remaining };
}

/** The changes of one container's securityContext. */
function containerChanges(context: Json, at: Path, restricted: boolean): SecurityChange[] {
  const changes: SecurityChange[] = [];
  if (context['privileged'] === true) {
    changes.push({ op: 'set', at: [...at, 'privileged'], value: false });
  }
  if (
    context['procMount'] !== undefined &&
    context['procMount'] !== null &&
    context['procMount'] !== 'Default'
  ) {
    changes.push({ op: 'set', at: [...at, 'procMount'], value: 'Default' });
  }
  if (asJson(context['windowsOptions'])['hostProcess'] === true) {
    changes.push({ op: 'set', at: [...at, 'windowsOptions', 'hostProcess'], value: false });
  }
  appendAll(changes, profileChanges(context, at));
  if (restricted) {
    if (context['allowPrivilegeEscalation'] === undefined) {
      changes.push({ op: 'add', at, key: 'allowPrivilegeEscalation', value: false });
    } else if (context['allowPrivilegeEscalation'] !== false) {
      changes.push({ op: 'set', at: [...at, 'allowPrivilegeEscalation'], value: false });
    }
    if (context['runAsNonRoot'] === false) {
      changes.push({ op: 'set', at: [...at, 'runAsNonRoot'], value: true });
    }
  }
  const capabilities = context['capabilities'];
  if (capabilities === undefined) {
    if (restricted) {
      changes.push({ op: 'add', at, key: 'capabilities', value: { drop: ['ALL'] } });
    }
    return changes;
  }
  if (!isRecord(capabilities)) {
    return changes;
  }
  const allowed = (name: unknown): boolean =>
    restricted ? name === 'NET_BIND_SERVICE' : isBaselineCapability(name);
  const add = capabilities['add'];
  if (Array.isArray(add)) {
    const indexes = add.flatMap((name, index) => (allowed(name) ? [] : [index]));
    if (indexes.length > 0) {
      changes.push({ op: 'remove', at: [...at, 'capabilities', 'add'], indexes });
    }
  }
  if (restricted) {
    const drop = capabilities['drop'];
    if (drop === undefined) {
      changes.push({ op: 'add', at: [...at, 'capabilities'], key: 'drop', value: ['ALL'] });
    } else if (Array.isArray(drop) && !drop.includes('ALL')) {
      changes.push({ op: 'append', at: [...at, 'capabilities', 'drop'], item: 'ALL' });
    }
  }
  return changes;
}

/** An Unconfined seccomp or AppArmor profile becomes RuntimeDefault (baseline forbids Unconfined). */
function profileChanges(context: Json, at: Path): SecurityChange[] {
  return ['seccompProfile', 'appArmorProfile'].flatMap((key): SecurityChange[] =>
    asJson(context[key])['type'] === 'Unconfined'
      ? [{ op: 'set', at: [...at, key, 'type'], value: 'RuntimeDefault' }]
      : [],
  );
}

/** The pod-level fields restricted requires where the containers leave them unset. */
function podRestrictedChanges(
  podContext: unknown,
  unsetNonRoot: boolean,
  unsetSeccomp: boolean,
): SecurityChange[] {
  const pod = asJson(podContext);
  const changes: SecurityChange[] = [];
  const podFields: Record<string, unknown> = {
    ...(unsetNonRoot && pod['runAsNonRoot'] === undefined ? { runAsNonRoot: true } : {}),
    ...(unsetSeccomp && pod['seccompProfile'] === undefined
      ? { seccompProfile: { type: 'RuntimeDefault' } }
      : {}),
  };
  if (pod['runAsNonRoot'] === false) {
    changes.push({ op: 'set', at: ['securityContext', 'runAsNonRoot'], value: true });
  }
  if (podContext === undefined) {
    if (Object.keys(podFields).length > 0) {
      changes.push({ op: 'add', at: [], key: 'securityContext', value: podFields });
    }
  } else if (isRecord(podContext)) {
    for (const [key, value] of Object.entries(podFields)) {
      changes.push({ op: 'add', at: ['securityContext'], key, value });
    }
  }
  return changes;
}

/** A copy of the spec with the changes made. */
export function withChanges(spec: Json, changes: readonly SecurityChange[]): Json {
  const copy = structuredClone(spec);
  const walk = (path: Path): unknown => {
    let target: unknown = copy;
    for (const step of path) {
      target =
        isRecord(target) || Array.isArray(target) ? (target as Record<string, unknown>)[step] : undefined;
    }
    return target;
  };
  for (const change of changes) {
    if (change.op === 'set') {
      const parent = walk(change.at.slice(0, -1));
      const key = change.at.at(-1);
      if (isRecord(parent) && typeof key === 'string') {
        parent[key] = change.value;
      }
      continue;
    }
    const target = walk(change.at);
    if (change.op === 'append' && Array.isArray(target)) {
      target.push(change.item);
    } else if (change.op === 'remove' && Array.isArray(target)) {
      for (const index of [...change.indexes].sort((a, b) => b - a)) {
        target.splice(index, 1);
      }
    } else if (change.op === 'add' && isRecord(target)) {
      target[change.key] = structuredClone(change.value);
    }
  }
  return copy;
}
