/**
 * The broken time axis in plain Node: which idle stretches become breaks, the least share each burst of activity
 * keeps, that the mapping goes back and forth without a jump, and that playing crosses a break quickly.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BREAK_CROSSING_SECONDS, Playback } from '../../../media/model/playback';
import { TimeScale } from '../../../media/model/time-scale';
import { Timeline } from '../../../media/model/timeline';
import type { TimelineEvent } from '../../../protocol/timeline';
import type { PanelReport } from '../../../protocol/webview-messages';

/** Event times: every `step` seconds from `from` to `to`. */
function burst(from: number, to: number, step = 1): number[] {
  const times: number[] = [];
  for (let time = from; time <= to; time += step) {
    times.push(time);
  }
  return times;
}

/** A report whose events (node changes on one node) happen at these times. */
function reportAt(times: readonly number[]): PanelReport {
  const events: TimelineEvent[] = times.map((time) => ({
    time,
    type: 'NodeTainted',
    object: { kind: 'Node', name: 'worker-1' },
    node: 'worker-1',
    message: `at ${time}`,
  }));
  return {
    apiVersion: 'foresight/v1',
    kubernetesVersion: '1.35',
    cluster: { source: 'test', nodes: [] },
    pods: [],
    findings: [],
    events,
  };
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

describe('the time axis compresses idle stretches into breaks', () => {
  const cases: readonly {
    name: string;
    times: number[];
    breaks: [number, number][];
    check?: (scale: TimeScale) => void;
  }[] = [
    {
      name: 'a run without an idle stretch is one linear segment',
      times: burst(0, 40, 2),
      breaks: [],
      check: (scale) => assert.equal(scale.positionOf(10), 0.25),
    },
    {
      name: 'a gap shorter than 30 s stays on the axis, even when it is most of a short run',
      times: [0, 1, 2, 27],
      breaks: [],
    },
    {
      name: 'a 22 s rollout then a drain at 5:00 (the issue’s run): one break, the rollout gets a readable share',
      times: [...burst(0, 22, 2), ...burst(300, 330, 5)],
      breaks: [[25.3, 296.7]],
      check: (scale) => {
        assert.ok(scale.positionOf(22) > 0.3, `22 s is at ${scale.positionOf(22)} (linear: 0.067)`);
        assert.equal(round((scale.breaks[0]?.end ?? 0) - (scale.breaks[0]?.start ?? 0)), 0.07);
      },
    },
    {
      name: 'an instant after a long pause (a drain at 300 s, nothing after) keeps the least share',
      times: [...burst(0, 40), 300],
      breaks: [[43, 297]],
      check: (scale) => {
        const last = scale.segments[1];
        assert.equal(round((last?.end ?? 0) - (last?.start ?? 0)), 0.1);
        assert.equal(last?.end, 1);
      },
    },
    {
      name: 'ten bursts 100 s apart: nine breaks within 30% of the axis, the bursts sharing the rest equally',
      times: burst(0, 900, 100),
      breaks: burst(0, 800, 100).map((time) => [time + 9, time + 91]),
      check: (scale) => {
        const shares = scale.segments.map((segment) => round(segment.end - segment.start));
        assert.deepEqual(new Set(shares), new Set([0.07]));
      },
    },
  ];
  for (const { name, times, breaks, check } of cases) {
    test(name, () => {
      const scale = new TimeScale(times, times[times.length - 1] ?? 0);
      assert.deepEqual(
        scale.breaks.map((piece) => [round(piece.from), round(piece.to)]),
        breaks,
      );
      for (const segment of scale.segments) {
        assert.ok(segment.end - segment.start >= 0.07 - 1e-9, `a burst of ${segment.end - segment.start}`);
      }
      assert.equal(scale.pieces[0]?.start, 0);
      assert.equal(scale.pieces[scale.pieces.length - 1]?.end, 1);
      check?.(scale);
    });
  }

  test('an empty run maps every time and position to 0', () => {
    const scale = new TimeScale([], 0);
    assert.equal(scale.positionOf(12), 0);
    assert.equal(scale.timeAt(0.5), 0);
  });

  test('the mapping is increasing and goes back to the same time, breaks included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 60 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (raw, a, b) => {
          const times = [...raw].sort((x, y) => x - y);
          const duration = times[times.length - 1] ?? 0;
          const scale = new TimeScale(times, duration);
          const [t1, t2] = [a * duration, b * duration].sort((x, y) => x - y) as [number, number];
          assert.ok(scale.positionOf(t1) <= scale.positionOf(t2) + 1e-12);
          if (duration > 0) {
            assert.ok(Math.abs(scale.timeAt(scale.positionOf(t1)) - t1) < 1e-6 * Math.max(1, duration));
          }
        },
      ),
    );
  });
});

describe('playing across a break', () => {
  test(`an idle stretch of 250 s is crossed in ${BREAK_CROSSING_SECONDS} s at 1×; a burst plays at 1×`, () => {
    const timeline = new Timeline(reportAt([...burst(0, 20), ...burst(270, 280)]));
    const [, idle] = timeline.scale.pieces;
    assert.ok(idle?.isBreak === true);
    const playback = new Playback(timeline);
    playback.setSpeed(1);
    playback.seekTime(10);
    playback.play();
    playback.advance(5);
    assert.equal(playback.time, 15, 'in a burst, simulated time goes at the speed');
    playback.seekTime(idle.from);
    playback.advance(BREAK_CROSSING_SECONDS);
    assert.ok(Math.abs(playback.time - idle.to) < 1e-9, `after the break: ${playback.time}`);
    playback.advance(2);
    assert.ok(Math.abs(playback.time - (idle.to + 2)) < 1e-9, 'then the speed again');
    assert.equal(playback.cursor, timeline.cursorAt(playback.time));
  });
});
