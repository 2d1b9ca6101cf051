/**
 * Findings about a KubeSchedulerConfiguration: what kube-scheduler would refuse at start-up (worded as its field
 * errors, field-errors.ts) and what the engine cannot follow. Same shape as the engine's findings
 * (model/findings.ts): a stable code, its severity, the configuration's source, the path inside it, a message.
 */
import type { EngineSeverity } from '../../model/findings';
import type { ObjectSource } from '../../model/source';
import type { ConfigPath } from './field-errors';

/** Stable codes of scheduler configuration findings, with their severity. */
export const SCHEDULER_CONFIG_FINDING_CODES = {
  /** apiVersion is not kubescheduler.config.k8s.io/v1 (v1beta2 and v1beta3 were removed in 1.28 and 1.29). */
  'scheduler-config-unsupported-version': 'error',
  /** A field has the wrong type or an out-of-range value; it is ignored. */
  'scheduler-config-invalid-field': 'error',
  /** Two profiles share a schedulerName, or a profile has none. */
  'scheduler-config-invalid-profile': 'error',
  /** A plugin name kube-scheduler does not know (it would not start); the engine leaves it out. */
  'scheduler-config-unknown-plugin': 'warning',
  /** A plugin removed from kube-scheduler (EBSLimits…); kube-scheduler would not start. */
  'scheduler-config-removed-plugin': 'error',
  /** A plugin enabled at an extension point it does not implement, or twice at one point. */
  'scheduler-config-misplaced-plugin': 'error',
  /** A score weight below zero; it is ignored. */
  'scheduler-config-invalid-weight': 'error',
  /** A plugin's args are invalid; that plugin's default args are used. */
  'scheduler-config-invalid-plugin-args': 'error',
} as const satisfies Record<string, EngineSeverity>;

/** A stable scheduler configuration finding code. */
export type SchedulerConfigFindingCode = keyof typeof SCHEDULER_CONFIG_FINDING_CODES;

/** One finding about a KubeSchedulerConfiguration. */
export interface SchedulerConfigFinding {
  readonly code: SchedulerConfigFindingCode;
  readonly severity: EngineSeverity;
  /** The KubeSchedulerConfiguration object. */
  readonly source: ObjectSource;
  /** The field inside it, e.g. ['profiles', 0, 'plugins', 'score', 'enabled', 1, 'weight']. */
  readonly path: ConfigPath;
  readonly message: string;
}

/** Collects findings about one configuration object. */
export class ConfigFindings {
  readonly list: SchedulerConfigFinding[] = [];

  constructor(private readonly source: ObjectSource) {}

  /** Records a finding with the severity of its code. */
  add(code: SchedulerConfigFindingCode, path: ConfigPath, message: string): void {
    this.list.push({
      code,
      severity: SCHEDULER_CONFIG_FINDING_CODES[code],
      source: this.source,
      path,
      message,
    });
  }
}
