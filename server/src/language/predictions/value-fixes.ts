/**
 * The quick fixes of predictions that change one value: maxUnavailable 1 for the anti-affinity rollout deadlock,
 * and a request lowered to the most a rejecting node has free.
 */
import type { Node } from 'yaml';
import { isScalar } from 'yaml';
import { formatBytes, formatMilli, parseQuantity } from '../../engine/model/quantity';
import { INSUFFICIENT_RESOURCE_CODE } from '../../engine/scheduler/plugins/node-resources-fit';
import type { ReportNode } from '../../engine/scenario/report/report-entries';
import type { FixData } from '../../../../protocol/finding';
import { nodeAtPath, rangeForValue } from '../yaml/node-at-path';
import type { RejectionCause } from './workload-predictions';
import type { Finding } from '../../../../protocol/finding';

/**
 * The classic rollout deadlock: required pod anti-affinity with as many replicas as nodes and maxUnavailable 0
 * leaves no node for the surge pod. Allowing one unavailable pod lets the controller replace pods one by one.
 */
export function antiAffinityDeadlockFix(
  root: Node | undefined,
  finding: Finding,
  offset: number,
): FixData | undefined {
  // The engine says the surge pods cannot be placed (data, not message text); the manifest says whether required
  // pod anti-affinity is what keeps them off every node.
  const antiAffinity = nodeAtPath(root, [
    ...(finding.object?.path ?? []),
    'spec',
    'template',
    'spec',
    'affinity',
    'podAntiAffinity',
    'requiredDuringSchedulingIgnoredDuringExecution',
  ]);
  if (finding.data?.['surgeBlocked'] !== 'true' || antiAffinity === undefined) {
    return undefined;
  }
  const path = [...(finding.object?.path ?? []), 'spec', 'strategy', 'rollingUpdate', 'maxUnavailable'];
  const node = nodeAtPath(root, path);
  if (!isScalar(node) || (node.value !== 0 && node.value !== '0' && node.value !== '0%')) {
    return undefined;
  }
  const range = rangeForValue(root, path);
  return range === undefined
    ? undefined
    : {
        title: 'Set maxUnavailable to 1 (replace pods one at a time instead of surging)',
        edits: [{ start: range[0] + offset, end: range[1] + offset, newText: '1' }],
      };
}

/**
 * For "Insufficient cpu" (or memory) on a request: lower it to the most that any of the rejecting nodes has
 * free after the simulated placements. Only requests are lowered, never limits (that would change the QoS).
 */
export function lowerRequestFix(
  cause: RejectionCause,
  path: readonly (string | number)[],
  nodes: readonly ReportNode[],
): FixData | undefined {
  const resource = path.at(-1);
  if (
    cause.code !== INSUFFICIENT_RESOURCE_CODE ||
    path.at(-2) !== 'requests' ||
    (resource !== 'cpu' && resource !== 'memory')
  ) {
    return undefined;
  }
  let best: { node: string; free: number } | undefined;
  for (const node of nodes) {
    if (!cause.nodes.includes(node.name)) {
      continue;
    }
    const free = amount(node.allocatable[resource], resource) - amount(node.requested[resource], resource);
    if (best === undefined || free > best.free) {
      best = { node: node.name, free };
    }
  }
  if (best === undefined || best.free <= 0) {
    return undefined;
  }
  const replacement =
    resource === 'cpu' ? formatMilli(best.free) : formatBytes(Math.floor(best.free / 2 ** 20) * 2 ** 20);
  return {
    replacement,
    title: `Lower the ${resource} request to ${replacement} (the most free on ${best.node})`,
  };
}

function amount(text: string | undefined, resource: string): number {
  const parsed = text === undefined ? undefined : parseQuantity(text);
  if (parsed === undefined || !parsed.ok) {
    return 0;
  }
  return resource === 'cpu' ? parsed.quantity.milli : parsed.quantity.value;
}
