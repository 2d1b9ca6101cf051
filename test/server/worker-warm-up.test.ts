/**
 * The prediction worker's warm-up (server/src/host/worker-warm-up.ts) on a host whose turns of the event loop the
 * test runs by hand: it runs a large scope's input again while no request waits, at most WARM_UP_RUNS times in
 * the worker's life, never a small scope's, never while a request is on its way, and gives up on an input whose
 * run was abandoned.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ScopeSimulationInput } from '../../server/src/language/service/scope-simulation';
import { WARM_UP_MIN_OBJECTS, WARM_UP_RUNS, WorkerWarmUp } from '../../server/src/host/worker-warm-up';

/** An input of `count` manifests (the warm-up reads only their number). */
function inputOf(count: number): ScopeSimulationInput {
  return {
    manifests: Array.from({ length: count }, (_, index) => ({
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${index}` } },
      source: { file: 'file:///a.yaml', documentIndex: index, path: [] },
    })),
    cluster: null,
    clusterFile: undefined,
    version: '1.35',
    forcedNotice: undefined,
    hasClusterSyntaxErrors: false,
  };
}

/** A host whose later turns run when the test says, counting the runs per input. */
class FakeHost {
  readonly runs: ScopeSimulationInput[] = [];
  readonly turns: (() => void)[] = [];
  requestWaiting = false;
  /** When set, a run asks `shouldStop` once and throws if it says stop (as the engine abandons a run). */
  stopsWhenAsked = false;
  readonly host = {
    run: (input: ScopeSimulationInput, shouldStop: () => boolean): void => {
      this.runs.push(input);
      if (this.stopsWhenAsked && shouldStop()) {
        throw new Error('abandoned');
      }
    },
    isRequestWaiting: () => this.requestWaiting,
    later: (step: () => void) => {
      this.turns.push(step);
    },
  };

  /** Runs the turns scheduled so far and those they schedule, up to `limit`; returns how many ran. */
  drain(limit = 100): number {
    let count = 0;
    while (this.turns.length > 0 && count < limit) {
      this.turns.shift()?.();
      count++;
    }
    return count;
  }
}

describe('The prediction worker warms up on a large scope while idle', () => {
  test('a large scope is run again WARM_UP_RUNS times, one run per turn, then never again', () => {
    const fake = new FakeHost();
    const warmUp = new WorkerWarmUp(fake.host);
    const large = inputOf(WARM_UP_MIN_OBJECTS);
    warmUp.answered(large);
    assert.equal(fake.runs.length, 0, 'nothing runs in the answer’s own turn');
    fake.drain(1);
    assert.equal(fake.runs.length, 1, 'one run per turn, so messages are read between runs');
    fake.drain();
    assert.equal(fake.runs.length, WARM_UP_RUNS);
    assert.ok(fake.runs.every((input) => input === large));
    assert.equal(warmUp.remaining, 0);
    warmUp.answered(inputOf(WARM_UP_MIN_OBJECTS + 1));
    fake.drain();
    assert.equal(fake.runs.length, WARM_UP_RUNS, 'the budget is the worker’s whole life');
  });

  test('a scope below WARM_UP_MIN_OBJECTS is not run again', () => {
    const fake = new FakeHost();
    const warmUp = new WorkerWarmUp(fake.host);
    warmUp.answered(inputOf(WARM_UP_MIN_OBJECTS - 1));
    fake.drain();
    assert.equal(fake.runs.length, 0);
    assert.equal(warmUp.remaining, WARM_UP_RUNS);
  });

  test('nothing runs while a request is on its way, nor on the input before a request', () => {
    const fake = new FakeHost();
    const warmUp = new WorkerWarmUp(fake.host);
    warmUp.answered(inputOf(WARM_UP_MIN_OBJECTS));
    fake.requestWaiting = true;
    fake.drain();
    assert.equal(fake.runs.length, 0, 'a posted request is waiting');
    fake.requestWaiting = false;
    warmUp.answered(inputOf(WARM_UP_MIN_OBJECTS));
    warmUp.requested();
    fake.drain();
    assert.equal(fake.runs.length, 0, 'the request arrived: its answer brings the next input');
    const next = inputOf(WARM_UP_MIN_OBJECTS);
    warmUp.answered(next);
    fake.drain(1);
    assert.deepEqual(fake.runs, [next], 'after the answer, the warm-up runs on the newest input');
  });

  test('a run abandoned for a request ends the warm-up on that input; the next answer resumes it', () => {
    const fake = new FakeHost();
    fake.stopsWhenAsked = true;
    const warmUp = new WorkerWarmUp(fake.host);
    warmUp.answered(inputOf(WARM_UP_MIN_OBJECTS));
    fake.drain(1);
    fake.requestWaiting = true;
    fake.drain(1);
    assert.equal(fake.runs.length, 1, 'the turn after a request arrived runs nothing');
    // A request posted during a run: the run asks, stops, and nothing more is scheduled.
    fake.requestWaiting = false;
    warmUp.answered(inputOf(WARM_UP_MIN_OBJECTS));
    const shouldStopAt = fake.runs.length + 1;
    fake.host.isRequestWaiting = (): boolean => fake.runs.length >= shouldStopAt;
    fake.drain();
    assert.equal(fake.runs.length, shouldStopAt, 'the abandoned run is the last one');
    assert.equal(fake.turns.length, 0);
    assert.equal(warmUp.remaining, WARM_UP_RUNS - 2);
  });
});
