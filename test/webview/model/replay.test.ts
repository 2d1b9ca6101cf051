/**
 * The page's replay model in plain Node (no browser): folding events into the cluster state, seeking with
 * snapshots, and the playhead's rules. The examples' fixture folded to its end must agree with the report's own
 * node totals; seeking anywhere, in any order, must equal folding from the start.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { applyNextEvent, initialState, NODE_FLAGS } from '../../../media/model/cluster-state';
import type { ClusterState } from '../../../media/model/cluster-state';
import { phaseName } from '../../../media/model/phases';
import { Playback } from '../../../media/model/playback';
import { StateSeeker } from '../../../media/model/state-seeker';
import { Timeline } from '../../../media/model/timeline';
import type { PanelReport } from '../../../protocol/webview-messages';
import { parseQuantity } from '../../../server/src/engine/model/quantity';
import { largeReport } from '../support/large-report';

const EXAMPLES = JSON.parse(
  readFileSync(join(__dirname, '../../fixtures/webview/examples-timeline.json'), 'utf8'),
) as PanelReport;

function foldTo(timeline: Timeline, cursor: number): ClusterState {
  const state = initialState(timeline);
  while (state.cursor < cursor) {
    applyNextEvent(timeline, state);
  }
  return state;
}

function quantity(text: string | undefined, unit: 'milli' | 'value'): number {
  const parsed = parseQuantity(text ?? '0');
  assert.ok(parsed.ok);
  return parsed.quantity[unit];
}

describe('replaying the examples timeline', () => {
  const timeline = new Timeline(EXAMPLES);
  const end = foldTo(timeline, timeline.events.length);

  for (const node of EXAMPLES.cluster.nodes) {
    test(`folded to the end, ${node.name}'s requested cpu, memory and pods equal the report's`, () => {
      const index = timeline.nodeIndexOf(node.name);
      assert.equal(end.nodeCpuMilli[index], quantity(node.requested['cpu'], 'milli'));
      assert.equal(end.nodeMemoryBytes[index], quantity(node.requested['memory'], 'value'));
      assert.equal(end.nodePods[index], quantity(node.requested['pods'], 'value'));
      assert.equal(end.nodeAllocCpuMilli[index], quantity(node.allocatable['cpu'], 'milli'));
    });
  }

  test('folded to the end, every reported pod is on its reported node and the rollout’s old pods are gone', () => {
    for (const pod of EXAMPLES.pods) {
      const entry = timeline.podByKey(`${pod.namespace}/${pod.name}`);
      assert.ok(entry !== undefined);
      const node = end.podNode[entry.index] ?? -1;
      assert.equal(node < 0 ? null : timeline.nodes[node]?.name, pod.nodeName, pod.name);
    }
    assert.equal(
      phaseName(end.podPhase[timeline.podByKey('default/storefront-659c8dc46c-z4tv7')?.index ?? -1] ?? 0),
      'Deleted',
    );
  });

  test('during the drain, the evicted pod is Terminating, still holds its requests, and the node is blocked', () => {
    const state = foldTo(timeline, timeline.cursorAt(72));
    const evicted = timeline.podByKey('default/storefront-7d9c5b8f4d-q7wnm');
    assert.equal(phaseName(state.podPhase[evicted?.index ?? -1] ?? 0), 'Terminating');
    const worker2 = timeline.nodeIndexOf('worker-2');
    assert.equal(state.nodeCpuMilli[worker2], 100 + 500 + 500);
    const flags = state.nodeFlags[worker2] ?? 0;
    assert.ok(flags & NODE_FLAGS.draining && flags & NODE_FLAGS.drainBlocked && flags & NODE_FLAGS.cordoned);
  });

  test('the Pending pod keeps its last PodUnschedulable event, whose message is the FitError', () => {
    const pod = timeline.podByKey('default/analytics-engine-8465c758f-95tk6');
    const event = timeline.events[end.podUnschedulable[pod?.index ?? -1] ?? -1];
    assert.match(event?.message ?? '', /^0\/4 nodes are available: /);
    assert.equal(end.podNode[pod?.index ?? -1], -1);
  });

  test('the rollout and the budget verdicts are indexed from the events', () => {
    assert.deepEqual(
      timeline.rollouts.map((rollout) => [rollout.key, rollout.steps.length]),
      [['Deployment default/storefront', 7]],
    );
    // Two allowed and two refused evictions, and the drain that reports one refusal.
    assert.equal(timeline.budgetEvents.length, 5);
  });
});

describe('seeking', () => {
  test('on the large timeline, seeking to any cursors in any order equals folding from the start', () => {
    const timeline = new Timeline(largeReport(7));
    const seeker = new StateSeeker(timeline);
    const count = timeline.events.length;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: count }), { minLength: 1, maxLength: 6 }), (cursors) => {
        for (const cursor of cursors) {
          const sought = seeker.seek(cursor);
          const folded = foldTo(timeline, cursor);
          assert.equal(sought.cursor, cursor);
          assert.deepEqual(sought.podPhase, folded.podPhase);
          assert.deepEqual(sought.podNode, folded.podNode);
          assert.deepEqual(sought.nodeCpuMilli, folded.nodeCpuMilli);
          assert.deepEqual(sought.nodeFlags, folded.nodeFlags);
        }
      }),
      { numRuns: 15 },
    );
  });

  test('a report without events shows its outcome from the start: pods bound as reported', () => {
    const timeline = new Timeline({ ...EXAMPLES, events: undefined });
    const state = new StateSeeker(timeline).seek(0);
    const pod = EXAMPLES.pods.find((entry) => entry.nodeName !== null);
    const entry = timeline.podByKey(`${pod?.namespace}/${pod?.name}`);
    assert.equal(timeline.nodes[state.podNode[entry?.index ?? -1] ?? -1]?.name, pod?.nodeName);
    assert.equal(timeline.duration, 0);
  });

  test('events out of time order are replayed in time order, and negative or missing times read as 0', () => {
    const base = EXAMPLES.events ?? [];
    const shuffled = [base[40], base[0], base[1]].flatMap((event) => (event === undefined ? [] : [event]));
    const timeline = new Timeline({ ...EXAMPLES, events: [...shuffled, { ...base[2]!, time: -3 }] });
    assert.deepEqual([...timeline.times], [0, 0, 0, base[40]?.time]);
  });
});

describe('the playhead', () => {
  const timeline = new Timeline(EXAMPLES);
  const atZero = timeline.cursorAt(0);
  const cases: readonly { name: string; act: (playback: Playback) => void; time: number; cursor: number }[] =
    [
      {
        name: 'seeking to 0 applies every event at time 0',
        act: (p) => p.seekTime(0),
        time: 0,
        cursor: atZero,
      },
      {
        name: 'seeking past the end stops at the end',
        act: (p) => p.seekTime(1e9),
        time: 110,
        cursor: timeline.events.length,
      },
      { name: 'seeking to a negative time stops at 0', act: (p) => p.seekTime(-5), time: 0, cursor: atZero },
      {
        name: 'stepping forward from 0 applies exactly the next event and moves to its time',
        act: (p) => {
          p.seekTime(0);
          p.stepNext();
        },
        time: timeline.times[atZero] ?? 0,
        cursor: atZero + 1,
      },
      {
        name: 'stepping back takes back one event and moves to the time of the one before',
        act: (p) => {
          p.seekTime(0);
          p.stepNext();
          p.stepPrevious();
        },
        time: 0,
        cursor: atZero,
      },
      {
        name: 'jumping to an event puts the playhead just after it, even among events at the same time',
        act: (p) => p.seekEvent(5),
        time: 0,
        cursor: 6,
      },
      {
        name: 'playing 2 s at 10× advances 20 simulated seconds',
        act: (p) => {
          p.seekTime(0);
          p.setSpeed(10);
          p.play();
          p.advance(2);
        },
        time: 20,
        cursor: timeline.cursorAt(20),
      },
      {
        name: 'playing from the end starts again from the beginning',
        act: (p) => {
          p.seekTime(110);
          p.play();
          p.advance(0);
        },
        time: 0,
        cursor: atZero,
      },
      {
        name: 'a restored cursor inside the events at its time is kept',
        act: (p) => p.restore(0, 3),
        time: 0,
        cursor: 3,
      },
      {
        name: 'a restored cursor that does not fit its time is replaced by the time’s',
        act: (p) => p.restore(0, 99),
        time: 0,
        cursor: atZero,
      },
    ];
  for (const { name, act, time, cursor } of cases) {
    test(name, () => {
      const playback = new Playback(timeline);
      act(playback);
      assert.equal(playback.time, time);
      assert.equal(playback.cursor, cursor);
    });
  }

  test('playing to the end stops playing there', () => {
    const playback = new Playback(timeline);
    playback.seekTime(100);
    playback.setSpeed(60);
    playback.play();
    playback.advance(1);
    assert.equal(playback.isPlaying, false);
    assert.ok(playback.isAtEnd());
  });

  test('speeds snap to the offered ones', () => {
    const playback = new Playback(timeline);
    playback.setSpeed(45);
    assert.equal(playback.speed, 30);
    playback.setSpeed(1000);
    assert.equal(playback.speed, 60);
  });
});

describe("replaying the engine's recorded report of the examples", () => {
  const report = JSON.parse(
    readFileSync(join(__dirname, '../../fixtures/webview/engine-examples.json'), 'utf8'),
  ) as PanelReport;
  const timeline = new Timeline(report);
  const end = foldTo(timeline, timeline.events.length);

  test("folded to the end, every node's requested cpu, memory and pods equal the report's", () => {
    for (const node of report.cluster.nodes) {
      const index = timeline.nodeIndexOf(node.name);
      assert.equal(end.nodeCpuMilli[index], quantity(node.requested['cpu'], 'milli'), node.name);
      assert.equal(end.nodeMemoryBytes[index], quantity(node.requested['memory'], 'value'), node.name);
      assert.equal(end.nodePods[index], quantity(node.requested['pods'], 'value'), node.name);
    }
  });

  test('folded to the end, every reported pod is on its reported node', () => {
    for (const pod of report.pods) {
      const entry = timeline.podByKey(`${pod.namespace}/${pod.name}`);
      const node = end.podNode[entry?.index ?? -1] ?? -1;
      assert.equal(node < 0 ? null : timeline.nodes[node]?.name, pod.nodeName, pod.name);
    }
  });

  test('at time 0, each pod running before the simulation (one PodCreated with a node) is on it in its phase', () => {
    const atZero = foldTo(timeline, timeline.cursorAt(0));
    const running = timeline.events.filter((event) => event.type === 'PodCreated' && event.node !== null);
    assert.ok(running.length >= 2, `${running.length} pods run before the simulation`);
    const cpuOn = new Map<string, number>();
    for (const event of running) {
      const entry = timeline.podByKey(`${event.object.namespace ?? 'default'}/${event.object.name}`);
      const node = atZero.podNode[entry?.index ?? -1] ?? -1;
      assert.equal(node < 0 ? null : timeline.nodes[node]?.name, event.node, event.object.name);
      assert.equal(
        phaseName(atZero.podPhase[entry?.index ?? -1] ?? 0),
        event.details?.phase,
        event.object.name,
      );
      cpuOn.set(
        event.node ?? '',
        (cpuOn.get(event.node ?? '') ?? 0) + (event.details?.requests?.cpuMilli ?? 0),
      );
    }
    for (const [name, cpu] of cpuOn) {
      assert.ok((atZero.nodeCpuMilli[timeline.nodeIndexOf(name)] ?? 0) >= cpu, name);
    }
  });
});
