/**
 * What a process has cost so far, as Linux records it in /proc: peak resident memory (VmHWM, the "high water
 * mark", which misses no short peak, unlike sampling) and CPU time (user + system, every thread, garbage
 * collector included). Both read any process, not only our own.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on every Linux this runs on). */
const CLOCK_TICKS_PER_SECOND = 100;

function readProc(pid: number | 'self', file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** The peak resident set size of a running process, in bytes; NaN where /proc is not there (not Linux). */
export function readPeakResidentBytes(pid: number | 'self'): number {
  const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readProc(pid, 'status') ?? '');
  return match?.[1] === undefined ? NaN : Number(match[1]) * 1024;
}

/** The CPU time a running process has used (user + system), in ms, to 10 ms; NaN where /proc is not there. */
export function readCpuMs(pid: number | 'self'): number {
  const stat = readProc(pid, 'stat');
  // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields?.[11]);
  const system = Number(fields?.[12]);
  return ((user + system) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Bytes as MiB, rounded to one decimal. */
export function toMiB(bytes: number): number {
  return Math.round((bytes / 2 ** 20) * 10) / 10;
}
