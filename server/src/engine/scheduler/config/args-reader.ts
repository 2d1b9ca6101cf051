/**
 * Reading plugin args (pluginConfig[].args) with kube-scheduler's defaults and validation: a problem is recorded
 * with its path and a field-error message, and the caller then uses the plugin's default args, as
 * `invalid-plugin-args` findings promise.
 */
import type { ConfigPath } from './field-errors';
import { fieldInvalid } from './field-errors';

/** A problem in a plugin's args. */
export interface ArgsProblem {
  /** Full path (from the configuration root, or from the args when read on their own). */
  readonly path: ConfigPath;
  readonly message: string;
}

/** Args read with defaults applied, plus the problems found (when any, `args` holds the defaults). */
export interface ParsedArgs<T> {
  readonly args: T;
  readonly problems: readonly ArgsProblem[];
}

/** Collects problems while reading one plugin's args. */
export class ArgsReader {
  readonly problems: ArgsProblem[] = [];

  /** `base` is the path of the args object itself (['profiles', 0, 'pluginConfig', 2, 'args'], or []). */
  constructor(readonly base: ConfigPath) {}

  /** The full path of a field inside the args. */
  at(...relative: ConfigPath): ConfigPath {
    return [...this.base, ...relative];
  }

  /** Records a problem whose message is already worded. */
  report(relative: ConfigPath, message: string): void {
    this.problems.push({ path: this.at(...relative), message });
  }

  /** An integer field: `fallback` when absent, a problem (and `fallback`) when not an integer. */
  integer(value: unknown, relative: ConfigPath, fallback: number): number {
    if (value === undefined || value === null) {
      return fallback;
    }
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.report(relative, fieldInvalid(this.at(...relative), value, 'must be an integer'));
      return fallback;
    }
    return value;
  }

  /** A string field: undefined when absent, a problem when not a string. */
  string(value: unknown, relative: ConfigPath): string | undefined {
    if (value === undefined || value === null) {
      return undefined;
    }
    if (typeof value !== 'string') {
      this.report(relative, fieldInvalid(this.at(...relative), value, 'must be a string'));
      return undefined;
    }
    return value;
  }

  /** A list field: [] when absent, a problem when not a list. */
  list(value: unknown, relative: ConfigPath): readonly unknown[] {
    if (value === undefined || value === null) {
      return [];
    }
    if (!Array.isArray(value)) {
      this.report(relative, fieldInvalid(this.at(...relative), value, 'must be a list'));
      return [];
    }
    return value;
  }

  /** The args to use: the parsed ones, or the defaults when a problem was found. */
  result<T>(parsed: T, defaults: T): ParsedArgs<T> {
    return { args: this.problems.length === 0 ? parsed : defaults, problems: this.problems };
  }
}

/** The value as a plain object, or an empty one. */
export function asArgsObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
