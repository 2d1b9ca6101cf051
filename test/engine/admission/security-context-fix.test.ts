import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLevelVersion } from '../../../server/src/engine/admission/plugins/pod-security/namespace-policy';
import type { LevelVersion } from '../../../server/src/engine/admission/plugins/pod-security/namespace-policy';
import { securityContextFix } from '../../../server/src/engine/admission/plugins/pod-security/security-context-fix';
import type { SecurityChange } from '../../../server/src/engine/admission/plugins/pod-security/security-context-fix';

// The securityContext changes a Pod Security fix makes: unset fields added, forbidden values changed, forbidden
// capabilities removed; what securityContext cannot change is returned as still failing. Rows name the
// pod-security-admission check test (policy/check_*_test.go) whose case they follow.

const policy = (text: string): LevelVersion => {
  const parsed = parseLevelVersion(text);
  assert.ok(parsed !== null, text);
  return parsed;
};
const RESTRICTED = policy('restricted:latest');
const BASELINE = policy('baseline:latest');
const spec = (container: Record<string, unknown>, pod: Record<string, unknown> = {}) => ({
  ...pod,
  containers: [{ name: 'web', image: 'nginx', ...container }],
});
const CONTEXT = ['containers', 0, 'securityContext'];
/** A container already restricted, and the pod fields restricted asks for, so one change shows at a time. */
const RESTRICTED_CONTAINER = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
const RESTRICTED_POD = {
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
};

describe('the securityContext fix of a Pod Security refusal', () => {
  const rows: {
    name: string;
    level: LevelVersion;
    spec: Record<string, unknown>;
    changes: SecurityChange[] | null;
    remaining?: string[];
  }[] = [
    {
      name: 'TestPrivileged "privileged=true": baseline sets it to false',
      level: BASELINE,
      spec: spec({ securityContext: { privileged: true } }),
      changes: [{ op: 'set', at: [...CONTEXT, 'privileged'], value: false }],
    },
    {
      name: 'TestCapabilitiesBaseline "multiple containers": baseline removes the added capabilities outside its set',
      level: BASELINE,
      spec: spec({ securityContext: { capabilities: { add: ['CHOWN', 'SYS_ADMIN', 'NET_RAW'] } } }),
      changes: [{ op: 'remove', at: [...CONTEXT, 'capabilities', 'add'], indexes: [1, 2] }],
    },
    {
      name: 'TestSeccompProfile_Baseline "pod seccomp Unconfined": baseline sets RuntimeDefault',
      level: BASELINE,
      spec: spec({}, { securityContext: { seccompProfile: { type: 'Unconfined' } } }),
      changes: [{ op: 'set', at: ['securityContext', 'seccompProfile', 'type'], value: 'RuntimeDefault' }],
    },
    {
      name: 'TestHostNamespaces with a privileged container: privileged goes, hostNetwork remains refused',
      level: BASELINE,
      spec: spec({ securityContext: { privileged: true } }, { hostNetwork: true }),
      changes: [{ op: 'set', at: [...CONTEXT, 'privileged'], value: false }],
      remaining: ['host namespaces'],
    },
    {
      name: 'TestHostPathVolumes alone: no securityContext change helps, no fix',
      level: BASELINE,
      spec: spec({}, { volumes: [{ name: 'h', hostPath: { path: '/' } }] }),
      changes: null,
    },
    {
      name: 'restricted: a container without a securityContext gets one, and the pod runAsNonRoot and a seccomp profile',
      level: RESTRICTED,
      spec: spec({}),
      changes: [
        {
          op: 'add',
          at: ['containers', 0],
          key: 'securityContext',
          value: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
        {
          op: 'add',
          at: [],
          key: 'securityContext',
          value: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
        },
      ],
    },
    {
      name: 'TestAllowPrivilegeEscalation_1_25 "allowPrivilegeEscalation=true": restricted sets it to false',
      level: RESTRICTED,
      spec: spec(
        { securityContext: { ...RESTRICTED_CONTAINER, allowPrivilegeEscalation: true } },
        RESTRICTED_POD,
      ),
      changes: [{ op: 'set', at: [...CONTEXT, 'allowPrivilegeEscalation'], value: false }],
    },
    {
      name: 'TestCapabilitiesRestricted_1_22 "forbidden add": restricted keeps NET_BIND_SERVICE only',
      level: RESTRICTED,
      spec: spec(
        {
          securityContext: {
            ...RESTRICTED_CONTAINER,
            capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'CHOWN'] },
          },
        },
        RESTRICTED_POD,
      ),
      changes: [{ op: 'remove', at: [...CONTEXT, 'capabilities', 'add'], indexes: [1] }],
    },
    {
      name: 'TestCapabilitiesRestricted_1_22 "drop missing ALL": ALL is appended to the drop list',
      level: RESTRICTED,
      spec: spec(
        { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['NET_RAW'] } } },
        RESTRICTED_POD,
      ),
      changes: [{ op: 'append', at: [...CONTEXT, 'capabilities', 'drop'], item: 'ALL' }],
    },
    {
      name: 'TestRunAsNonRoot "container runAsNonRoot=false": restricted sets it to true',
      level: RESTRICTED,
      spec: spec({ securityContext: { ...RESTRICTED_CONTAINER, runAsNonRoot: false } }, RESTRICTED_POD),
      changes: [{ op: 'set', at: [...CONTEXT, 'runAsNonRoot'], value: true }],
    },
    {
      name: 'TestRunAsUser "container runAsUser=0": the uid is not a securityContext default to guess, so it remains',
      level: RESTRICTED,
      spec: spec(
        { securityContext: { ...RESTRICTED_CONTAINER, privileged: true, runAsUser: 0 } },
        RESTRICTED_POD,
      ),
      changes: [{ op: 'set', at: [...CONTEXT, 'privileged'], value: false }],
      remaining: ['runAsUser=0'],
    },
    {
      name: 'a pod that passes needs nothing',
      level: RESTRICTED,
      spec: spec({ securityContext: RESTRICTED_CONTAINER }, RESTRICTED_POD),
      changes: null,
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const fix = securityContextFix(row.level, {}, row.spec);
      assert.deepEqual(fix?.changes ?? null, row.changes);
      assert.deepEqual(
        (fix?.remaining ?? []).map((failure) => failure.reason),
        row.remaining ?? [],
      );
    });
  }
});
