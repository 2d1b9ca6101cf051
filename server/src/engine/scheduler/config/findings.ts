/**
 * Findings about a KubeSchedulerConfiguration: what kube-scheduler would refuse at start-up (worded as its field
 * errors, field-errors.ts) and what the engine cannot follow, as the one Finding (model/findings.ts engineFinding):
 * the configuration's source, the path inside it, a message.
 */
import type { FindingCode } from '../../../../../protocol/finding-codes';
import type { Finding } from '../../../../../protocol/finding';
import { engineFinding } from '../../model/findings';
import type { ObjectSource } from '../../model/source';
import type { ConfigPath } from './field-errors';

/** Collects findings about one configuration object. */
export class ConfigFindings {
  readonly list: Finding[] = [];

  constructor(private readonly source: ObjectSource) {}

  /** Records a finding with the severity of its code. */
  add(code: FindingCode, path: ConfigPath, message: string): void {
    this.list.push(engineFinding(code, this.source, path, message));
  }
}
