/**
 * The cluster autoscaler's settings, from the Scenario's `autoscaler` field. Defaults are cluster-autoscaler's own
 * flag defaults (--scan-interval 10s, --scale-down-unneeded-time 10m, --scale-down-utilization-threshold 0.5,
 * --scale-down-delay-after-add 10m, --expander random, --max-nodes-total 0 = no limit).
 * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/config/flags/flags.go
 * Durations are seconds or Go durations ("10s", "10m", "1h30m"). `priorities` is the priority expander's
 * ConfigMap data (`cluster-autoscaler-priority-expander`), as a map of priority to group-name regular expressions.
 */
import type { JsonObject } from '../model/json';
import { asArray, isJsonObject } from '../model/json';

/** The expanders modelled (--expander). */
export type ExpanderName = 'random' | 'most-pods' | 'least-waste' | 'priority';

const EXPANDERS: readonly ExpanderName[] = ['random', 'most-pods', 'least-waste', 'priority'];

/** The autoscaler's settings, in seconds where they are durations. */
export interface AutoscalerSettings {
  readonly scanInterval: number;
  readonly scaleDownUnneededTime: number;
  readonly scaleDownUtilizationThreshold: number;
  readonly scaleDownDelayAfterAdd: number;
  readonly expander: ExpanderName;
  /** 0: no limit. */
  readonly maxNodesTotal: number;
  /**
   * The priority expander's priorities: priority → regular expressions over group names; null when its ConfigMap
   * cannot be loaded (the expander then chooses nothing, priority-config-map.ts).
   */
  readonly priorities: ReadonlyMap<number, readonly string[]> | null;
}

/** cluster-autoscaler's defaults. */
export const DEFAULT_AUTOSCALER_SETTINGS: AutoscalerSettings = {
  scanInterval: 10,
  scaleDownUnneededTime: 600,
  scaleDownUtilizationThreshold: 0.5,
  scaleDownDelayAfterAdd: 600,
  expander: 'random',
  maxNodesTotal: 0,
  priorities: new Map(),
};

const DURATION_KEYS = ['scanInterval', 'scaleDownUnneededTime', 'scaleDownDelayAfterAdd'] as const;

/** Reads the Scenario's `autoscaler` field; what is wrong is reported through `problem` and left at its default. */
export function readAutoscalerSettings(
  raw: JsonObject,
  problem: (path: readonly (string | number)[], message: string) => void,
): Partial<AutoscalerSettings> {
  const result: { -readonly [K in keyof AutoscalerSettings]?: AutoscalerSettings[K] } = {};
  for (const [key, value] of Object.entries(raw)) {
    if ((DURATION_KEYS as readonly string[]).includes(key)) {
      const seconds = parseDuration(value);
      if (seconds === null) {
        problem([key], `autoscaler.${key} must be seconds or a duration such as "10m"`);
      } else {
        result[key as (typeof DURATION_KEYS)[number]] = seconds;
      }
    } else if (key === 'scaleDownUtilizationThreshold') {
      if (typeof value === 'number' && value >= 0 && value <= 1) {
        result.scaleDownUtilizationThreshold = value;
      } else {
        problem([key], 'autoscaler.scaleDownUtilizationThreshold must be a number from 0 to 1');
      }
    } else if (key === 'expander') {
      if (typeof value === 'string' && (EXPANDERS as readonly string[]).includes(value)) {
        result.expander = value as ExpanderName;
      } else {
        problem([key], `autoscaler.expander must be one of ${EXPANDERS.join(', ')}`);
      }
    } else if (key === 'maxNodesTotal') {
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
        result.maxNodesTotal = value;
      } else {
        problem([key], 'autoscaler.maxNodesTotal must be a non-negative integer (0: no limit)');
      }
    } else if (key === 'priorities' && isJsonObject(value)) {
      result.priorities = readPriorities(value, (message) => problem([key], message));
    } else {
      problem([key], `autoscaler.${key} is not a known setting`);
    }
  }
  return result;
}

function readPriorities(value: JsonObject, problem: (message: string) => void): Map<number, string[]> {
  const priorities = new Map<number, string[]>();
  for (const [key, list] of Object.entries(value)) {
    const priority = Number(key);
    const patterns = asArray(list).filter((item): item is string => typeof item === 'string');
    if (!Number.isInteger(priority)) {
      problem(`autoscaler.priorities: "${key}" is not an integer priority`);
      continue;
    }
    const valid = patterns.filter((pattern) => {
      try {
        new RegExp(pattern);
        return true;
      } catch {
        problem(`autoscaler.priorities[${key}]: "${pattern}" is not a regular expression`);
        return false;
      }
    });
    priorities.set(priority, valid);
  }
  return priorities;
}

/** Seconds from a number or a Go duration string ("90s", "10m", "1h30m", "1.5m"); null when neither. */
export function parseDuration(value: unknown): number | null {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0 ? value : null;
  }
  if (typeof value !== 'string' || value === '') {
    return null;
  }
  const units: Readonly<Record<string, number>> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  let rest = value;
  while (rest !== '') {
    const match = /^(\d+(?:\.\d*)?|\.\d+)(ms|h|m|s)/.exec(rest);
    if (match === null) {
      return null;
    }
    total += Number(match[1]) * (units[match[2] ?? ''] ?? 0);
    rest = rest.slice(match[0].length);
  }
  return total;
}
