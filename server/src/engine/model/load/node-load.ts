/**
 * Reads one Node object (as `kubectl get node -o yaml` prints it, or hand-written) into a NodeInfo, checking what
 * scheduling depends on: metadata.name, labels, spec.taints (key and a valid effect), spec.unschedulable and
 * status.allocatable (well-formed, non-negative quantities). A node that cannot be used yields error findings
 * and no NodeInfo; the rest of the cluster still loads.
 */
import { engineFinding } from '../findings';
import { NodeInfo } from '../snapshot/node-info';
import { isRecord } from '../objects';
import type { ResourceListObject, TaintObject } from '../objects';
import { RESOURCE_PODS, readResourceList, toResources } from '../resources';
import type { ResourceListProblem } from '../resources';
import type { ObjectSource } from '../source';
import type { Finding } from '../../../../../protocol/finding';

const TAINT_EFFECTS = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

/** Reads a Node; returns null when it cannot be scheduled onto (the findings say why). */
export function loadNode(
  object: Record<string, unknown>,
  source: ObjectSource,
  findings: Finding[],
): NodeInfo | null {
  const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
  const name = metadata['name'];
  if (typeof name !== 'string' || name === '') {
    findings.push(engineFinding('missing-name', source, ['metadata', 'name'], 'Node has no metadata.name'));
    return null;
  }
  const describe = `Node "${name}"`;
  let isUsable = true;
  const labels = metadata['labels'];
  if (labels !== undefined && labels !== null && !isStringMap(labels)) {
    findings.push(
      engineFinding(
        'invalid-field',
        source,
        ['metadata', 'labels'],
        `${describe}: metadata.labels must map strings to strings`,
      ),
    );
    isUsable = false;
  }
  const spec = isRecord(object['spec']) ? object['spec'] : {};
  const taints = spec['taints'];
  if (taints !== undefined && taints !== null) {
    if (!Array.isArray(taints)) {
      findings.push(
        engineFinding('invalid-taint', source, ['spec', 'taints'], `${describe}: spec.taints must be a list`),
      );
      isUsable = false;
    } else {
      (taints as unknown[]).forEach((taint, index) => {
        const problem = taintProblem(taint);
        if (problem !== null) {
          const path = ['spec', 'taints', index, problem.field];
          findings.push(
            engineFinding(
              'invalid-taint',
              source,
              path,
              `${describe}: spec.taints[${index}] ${problem.message}`,
            ),
          );
          isUsable = false;
        }
      });
    }
  }
  const status = isRecord(object['status']) ? object['status'] : {};
  const allocatable = status['allocatable'];
  if (!isRecord(allocatable)) {
    const message = `${describe}: status.allocatable is missing, so the scheduler cannot know what fits on it`;
    findings.push(engineFinding('node-missing-allocatable', source, ['status', 'allocatable'], message));
    return null;
  }
  const problems: ResourceListProblem[] = [];
  const amounts = readResourceList(allocatable as ResourceListObject, problems);
  for (const problem of problems) {
    const code = problem.kind === 'negative' ? 'negative-quantity' : 'invalid-quantity';
    const path = ['status', 'allocatable', problem.resource];
    findings.push(
      engineFinding(
        code,
        source,
        path,
        `${describe}: status.allocatable.${problem.resource} ${problem.message}`,
      ),
    );
    isUsable = false;
  }
  if (!amounts.has(RESOURCE_PODS) && problems.every((problem) => problem.resource !== RESOURCE_PODS)) {
    const message = `${describe}: status.allocatable.pods is missing, so the node accepts no pod ("Too many pods")`;
    findings.push(engineFinding('node-allocatable-incomplete', source, ['status', 'allocatable'], message));
  }
  if (!isUsable) {
    return null;
  }
  return new NodeInfo(object, source, toResources(amounts));
}

function taintProblem(taint: unknown): { field: string; message: string } | null {
  if (!isRecord(taint)) {
    return { field: 'key', message: 'must be an object with key and effect' };
  }
  const key = (taint as Partial<TaintObject>).key;
  if (typeof key !== 'string' || key === '') {
    return { field: 'key', message: 'has no key' };
  }
  const effect = taint['effect'];
  if (effect === undefined || effect === null || effect === '') {
    return {
      field: 'effect',
      message: `(${key}) has no effect: use NoSchedule, PreferNoSchedule or NoExecute`,
    };
  }
  if (typeof effect !== 'string' || !TAINT_EFFECTS.has(effect)) {
    return {
      field: 'effect',
      message: `(${key}) has effect ${JSON.stringify(effect)}: use NoSchedule, PreferNoSchedule or NoExecute`,
    };
  }
  const value = taint['value'];
  if (value !== undefined && value !== null && typeof value !== 'string') {
    return { field: 'value', message: `(${key}) value must be a string` };
  }
  return null;
}

function isStringMap(value: unknown): boolean {
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string');
}
