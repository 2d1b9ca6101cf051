/**
 * Findings about a KubeSchedulerConfiguration: what kube-scheduler would refuse at start-up (worded as its field
 * errors, field-errors.ts) and what the engine cannot follow. Same shape as the engine's findings
 * (model/findings.ts): a stable code, its severity, the configuration's source, the path inside it, a message.
 */
import { FINDING_CODES } from '../../../../../protocol/finding-codes';
import type { FindingCode } from '../../../../../protocol/finding-codes';
import type { EngineSeverity } from '../../model/findings';
import type { ObjectSource } from '../../model/source';
import type { ConfigPath } from './field-errors';

/** A finding code (protocol/finding-codes.ts, the product's one table). */
export type SchedulerConfigFindingCode = FindingCode;

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
      severity: FINDING_CODES[code],
      source: this.source,
      path,
      message,
    });
  }
}
