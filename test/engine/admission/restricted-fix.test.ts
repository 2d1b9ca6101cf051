import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLevelVersion } from '../../../server/src/engine/admission/plugins/pod-security/namespace-policy';
import { restrictedAdditions } from '../../../server/src/engine/admission/plugins/pod-security/restricted-fix';

// The fields a Pod Security fix may add: only unset ones, and only when the pod then passes the same level and
// version.

const RESTRICTED = parseLevelVersion('restricted:latest');
const spec = (container: Record<string, unknown>, pod: Record<string, unknown> = {}) => ({
  ...pod,
  containers: [{ name: 'web', image: 'nginx', ...container }],
});

describe('the restricted fix', () => {
  test('a container without a securityContext gets one, and the pod its runAsNonRoot and seccomp profile', () => {
    assert.ok(RESTRICTED);
    assert.deepEqual(restrictedAdditions(RESTRICTED, {}, spec({})), [
      {
        at: ['containers', 0],
        key: 'securityContext',
        value: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      },
      {
        at: [],
        key: 'securityContext',
        value: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      },
    ]);
  });

  test('what the user wrote otherwise is never changed: no fix', () => {
    assert.ok(RESTRICTED);
    for (const container of [
      { securityContext: { runAsNonRoot: false } },
      { securityContext: { allowPrivilegeEscalation: true } },
      { securityContext: { capabilities: { add: ['SYS_ADMIN'] } } },
      { securityContext: { privileged: true } },
    ]) {
      assert.equal(restrictedAdditions(RESTRICTED, {}, spec(container)), null, JSON.stringify(container));
    }
    // A hostPath volume is not a securityContext field either.
    assert.equal(
      restrictedAdditions(RESTRICTED, {}, spec({}, { volumes: [{ name: 'h', hostPath: { path: '/' } }] })),
      null,
    );
  });

  test('a pod that passes needs nothing; at baseline the restricted fields do not help', () => {
    const baseline = parseLevelVersion('baseline:v1.30');
    assert.ok(RESTRICTED && baseline);
    const fine = spec({
      securityContext: {
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      },
    });
    assert.equal(restrictedAdditions(RESTRICTED, {}, fine), null);
    assert.equal(restrictedAdditions(baseline, {}, spec({}, { hostNetwork: true })), null);
  });

  test('a drop list without ALL gets ALL appended', () => {
    assert.ok(RESTRICTED);
    const additions = restrictedAdditions(
      RESTRICTED,
      {},
      spec(
        { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['NET_RAW'] } } },
        {
          securityContext: {
            runAsNonRoot: true,
            seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' },
          },
        },
      ),
    );
    assert.deepEqual(additions, [
      { at: ['containers', 0, 'securityContext', 'capabilities', 'drop'], item: 'ALL' },
    ]);
  });
});
