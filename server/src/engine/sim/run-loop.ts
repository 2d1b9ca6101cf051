/**
 * The discrete-event run loop: tasks scheduled at a simulated time run in queue order (time, priority, insertion
 * sequence), each task may schedule more, and the clock jumps from one event to the next. The loop stops when no
 * task is left (the cluster settled), or before the first task past `until`.
 */
import { EventQueue } from './event-queue';

/** A unit of work at a simulated time. */
type SimTask = () => void;

/** How a run ended. */
interface RunOutcome {
  /** The time of the last task run (or the start time). */
  readonly endTime: number;
  /** Whether tasks were left because they were due after `until`. */
  readonly stoppedAtLimit: boolean;
  /** How many tasks ran. */
  readonly tasksRun: number;
}

/** Guard against a controller loop that never settles: no real scenario comes near it. */
const MAX_TASKS = 20_000_000;

/** How many tasks run between two questions to `shouldStop` (asking is a call into the host). */
const TASKS_PER_STOP_CHECK = 64;

/**
 * Thrown when the host abandons a run (its `shouldStop` said so): the language server's prediction worker stops
 * simulating a version of a document that was edited meanwhile. Not an outcome: the run has no result.
 */
export class SimulationAbandoned extends Error {
  constructor(time: number) {
    super(`the simulation was abandoned at t=${time}s`);
    this.name = 'SimulationAbandoned';
  }
}

/** The simulated clock and its queue of tasks. */
export class Simulation {
  private readonly queue = new EventQueue<SimTask>();
  private current = 0;

  /** The current simulated time, in seconds. */
  get now(): number {
    return this.current;
  }

  /** How many tasks wait. */
  get pending(): number {
    return this.queue.size;
  }

  /** Schedules a task at an absolute time (never before now). */
  at(time: number, priority: number, task: SimTask): void {
    this.queue.push(Math.max(time, this.current), priority, task);
  }

  /** Schedules a task `delay` seconds from now. */
  after(delay: number, priority: number, task: SimTask): void {
    this.at(this.current + Math.max(0, delay), priority, task);
  }

  /**
   * Runs tasks in order until none is left or the next one is due after `until`. `shouldStop`, asked every
   * TASKS_PER_STOP_CHECK tasks, abandons the run (SimulationAbandoned); it never changes what a run does.
   */
  run(until: number = Number.POSITIVE_INFINITY, shouldStop?: () => boolean): RunOutcome {
    let tasksRun = 0;
    for (;;) {
      const next = this.queue.peek();
      if (next === undefined) {
        return { endTime: this.current, stoppedAtLimit: false, tasksRun };
      }
      if (next.time > until) {
        this.current = Math.max(this.current, until);
        return { endTime: this.current, stoppedAtLimit: true, tasksRun };
      }
      this.queue.pop();
      this.current = next.time;
      next.payload();
      tasksRun++;
      if (shouldStop !== undefined && tasksRun % TASKS_PER_STOP_CHECK === 0 && shouldStop()) {
        throw new SimulationAbandoned(this.current);
      }
      if (tasksRun > MAX_TASKS) {
        throw new Error(
          `the simulation ran more than ${MAX_TASKS} tasks by t=${this.current}s without settling`,
        );
      }
    }
  }
}
