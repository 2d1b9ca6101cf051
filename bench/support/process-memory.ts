/**
 * Peak resident memory of a process as Linux records it: VmHWM ("high water mark") in /proc/<pid>/status.
 * Unlike sampling process.memoryUsage(), it misses no short peak, and it reads any process, not only our own.
 */
import { readFileSync } from 'node:fs';

/** The peak resident set size of a running process, in bytes; NaN where /proc is not there (not Linux). */
export function readPeakResidentBytes(pid: number | 'self'): number {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return NaN;
  }
  const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
  return match?.[1] === undefined ? NaN : Number(match[1]) * 1024;
}

/** Bytes as MiB, rounded to one decimal. */
export function toMiB(bytes: number): number {
  return Math.round((bytes / 2 ** 20) * 10) / 10;
}
