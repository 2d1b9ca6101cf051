import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { reportPod } from '../../../../server/src/engine/scenario/report/report-entries';
import type { UnschedulableMemo } from '../../../../server/src/engine/scenario/report/report-entries';
import { buildFramework } from '../../../../server/src/engine/scheduler/framework/build-framework';
import { DEFAULT_PROFILE } from '../../../../server/src/engine/scheduler/profile';
import { IN_TREE_REGISTRY } from '../../../../server/src/engine/scheduler/registry';
import { Scheduler } from '../../../../server/src/engine/scheduler/scheduler';
import { container, makeCluster, makeNode, makePod } from '../../scheduler/builders';

// The Pending pods of one template share a FitError (scheduler/equivalence-cache.ts); their report entries are
// formatted once through an UnschedulableMemo and must read as those formatted one by one.

describe('reportPod with an UnschedulableMemo', () => {
  test('the entries of Pending pods sharing a FitError equal the entries built without the memo', () => {
    const cluster = makeCluster([makeNode('n1', { cpu: '2' }), makeNode('n2', { cpu: '1' })]);
    const { framework } = buildFramework(DEFAULT_PROFILE, IN_TREE_REGISTRY, cluster, '1.35');
    const scheduler = new Scheduler(cluster, new Map([[DEFAULT_PROFILE.schedulerName, framework]]), {
      detail: 'compact',
      equivalence: { labelsAlwaysRead: false },
    });
    const pods = [
      ...Array.from({ length: 6 }, (_, index) =>
        makePod(`web-${index}`, { containers: [container({ cpu: '1', memory: '100Mi' })] }),
      ),
      makePod('big', { containers: [container({ cpu: '4', memory: '100Mi' })] }),
    ];
    const records = scheduler.scheduleAll(pods);
    const pending = records.filter((record) => record.nodeName === null);
    // Three fit (2 + 1 cpu); three replicas and the big pod stay Pending, the replicas with one shared FitError.
    assert.equal(pending.length, 4);
    assert.equal(new Set(pending.map((record) => record.fitError)).size, 2);
    const memo: UnschedulableMemo = new WeakMap();
    const withMemo = records.map((record) => reportPod({ record, qosClass: 'Burstable' }, cluster, memo));
    const without = records.map((record) => reportPod({ record, qosClass: 'Burstable' }, cluster));
    assert.deepEqual(withMemo, without);
    assert.match(withMemo[6]?.unschedulable?.message ?? '', /^0\/2 nodes are available: 2 Insufficient cpu/);
  });
});
