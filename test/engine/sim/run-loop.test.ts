import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Simulation, SimulationAbandoned } from '../../../server/src/engine/sim/run-loop';
import { SeededRandom } from '../../../server/src/engine/sim/seeded-random';
import { TimelineRecorder } from '../../../server/src/engine/sim/timeline-recorder';

describe('Simulation', () => {
  test('tasks run in time order and may schedule more at the same instant', () => {
    const sim = new Simulation();
    const log: string[] = [];
    sim.at(5, 1, () => log.push(`b@${sim.now}`));
    sim.at(1, 2, () => {
      log.push(`a@${sim.now}`);
      sim.after(0, 0, () => log.push(`a2@${sim.now}`));
      sim.after(10, 0, () => log.push(`c@${sim.now}`));
    });
    const outcome = sim.run();
    assert.deepEqual(log, ['a@1', 'a2@1', 'b@5', 'c@11']);
    assert.deepEqual(outcome, { endTime: 11, stoppedAtLimit: false, tasksRun: 4 });
  });

  test('a run stops before the first task past its limit and says so', () => {
    const sim = new Simulation();
    const log: number[] = [];
    for (const time of [1, 2, 3, 10]) {
      sim.at(time, 0, () => log.push(time));
    }
    const outcome = sim.run(3);
    assert.deepEqual(log, [1, 2, 3]);
    assert.equal(outcome.stoppedAtLimit, true);
    assert.equal(outcome.endTime, 3);
    assert.equal(sim.pending, 1);
  });

  test('a host that abandons a run stops it between tasks; one that never does changes nothing', () => {
    /** 1,000 tasks, one a second, each recording its time. */
    const build = (): { sim: Simulation; ran: number[] } => {
      const sim = new Simulation();
      const ran: number[] = [];
      for (let i = 0; i < 1_000; i++) {
        sim.at(i, 0, () => ran.push(sim.now));
      }
      return { sim, ran };
    };
    const plain = build();
    const outcome = plain.sim.run();
    const asked = build();
    let questions = 0;
    assert.deepEqual(
      asked.sim.run(Number.POSITIVE_INFINITY, () => {
        questions++;
        return false;
      }),
      outcome,
    );
    assert.deepEqual(asked.ran, plain.ran);
    assert.ok(questions > 0 && questions < 1_000, `asked ${questions} times`);
    const abandoned = build();
    let checks = 0;
    assert.throws(
      () => abandoned.sim.run(Number.POSITIVE_INFINITY, () => ++checks === 2),
      (error: unknown) => error instanceof SimulationAbandoned && /abandoned at t=\d+s/.test(error.message),
    );
    assert.ok(abandoned.ran.length > 0 && abandoned.ran.length < 1_000, `${abandoned.ran.length} tasks ran`);
  });

  test('a task scheduled in the past runs now, never before', () => {
    const sim = new Simulation();
    const times: number[] = [];
    sim.at(4, 0, () => sim.at(1, 0, () => times.push(sim.now)));
    sim.run();
    assert.deepEqual(times, [4]);
  });
});

describe('SeededRandom', () => {
  test('the same seed gives the same numbers, in [0, 1)', () => {
    const a = new SeededRandom('cluster-1');
    const b = new SeededRandom('cluster-1');
    const first = Array.from({ length: 50 }, () => a.next());
    assert.deepEqual(
      first,
      Array.from({ length: 50 }, () => b.next()),
    );
    assert.ok(first.every((value) => value >= 0 && value < 1));
  });

  test('different seeds give different sequences and nextInt stays in bounds', () => {
    const a = new SeededRandom('a');
    const b = new SeededRandom('b');
    assert.notDeepEqual([a.next(), a.next()], [b.next(), b.next()]);
    const ints = Array.from({ length: 200 }, () => a.nextInt(7));
    assert.ok(ints.every((value) => Number.isInteger(value) && value >= 0 && value < 7));
    assert.equal(new Set(ints).size, 7);
  });
});

describe('TimelineRecorder', () => {
  const event = (time: number) =>
    ({
      time,
      type: 'NodeAdded',
      object: { kind: 'Node', name: 'n1' },
      node: 'n1',
      message: 'added',
    }) as const;

  test('records events in order', () => {
    const recorder = new TimelineRecorder();
    recorder.record(event(0));
    recorder.record(event(0));
    recorder.record(event(3));
    assert.deepEqual(
      recorder.events.map((entry) => entry.time),
      [0, 0, 3],
    );
  });

  test('refuses an event earlier than the last one, naming it', () => {
    const recorder = new TimelineRecorder();
    recorder.record(event(5));
    assert.throws(
      () => recorder.record(event(4)),
      /NodeAdded of Node n1 at 4s is before the previous event \(5s\)/,
    );
  });
});
