/**
 * The quick fixes of predictions that change one value: maxUnavailable 1 for the anti-affinity rollout deadlock,
 * and a request lowered to the most a rejecting node has free.
 */
import type { Node } from 'yaml';
import { isScalar } from 'yaml';
import { formatBytes, formatMilli } from '../../engine/model/quantity';
import { freeRoomOf } from './landing-nodes';
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
 * free after the simulated placements, among `nodes` (those the pod can land on: landing-nodes.ts). Only requests are lowered, never limits (that would change the QoS).
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
  // A set: on a capture of 5,000 nodes, looking each node up in the cause's list took 60 ms per keystroke.
  const rejected = new Set(cause.nodes);
  for (const node of nodes) {
    if (!rejected.has(node.name)) {
      continue;
    }
    const room = freeRoomOf(node);
    const free = resource === 'cpu' ? room.cpuMilli : room.memoryBytes;
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

/** A request a pod lacks room for: the cause, and the offsets of its value in the analysed text. */
export interface ShortRequest {
  readonly cause: RejectionCause;
  readonly path: readonly (string | number)[];
  readonly start: number;
  readonly end: number;
}

/**
 * When a pod lacks room for several requests (cpu and memory), one fix makes it fit one node: each request that
 * node is short of is lowered to what it has free, the others are left as they are. Only nodes that rejected the
 * pod for these requests and nothing else are candidates (a cordoned or tainted node never appears in an
 * Insufficient cause: kube-scheduler stops at a node's first failing filter). The node that needs the fewest
 * changes, then the smallest cut of the first request, is chosen. Undefined when no node can take the pod so.
 */
export function lowerRequestsFix(
  requests: readonly ShortRequest[],
  nodes: readonly ReportNode[],
): FixData | undefined {
  const resourceOf = (request: ShortRequest): 'cpu' | 'memory' | undefined => {
    const resource = request.path.at(-1);
    return request.cause.code === INSUFFICIENT_RESOURCE_CODE &&
      request.path.at(-2) === 'requests' &&
      (resource === 'cpu' || resource === 'memory')
      ? resource
      : undefined;
  };
  if (requests.length < 2 || requests.some((request) => resourceOf(request) === undefined)) {
    return undefined;
  }
  let best: { node: string; edits: { request: ShortRequest; text: string; free: number }[] } | undefined;
  const rejecting = requests.map((request) => new Set(request.cause.nodes));
  for (const node of nodes) {
    const short = requests.filter((_, index) => rejecting[index]?.has(node.name) === true);
    if (short.length === 0) {
      continue;
    }
    const edits = short.map((request) => {
      const resource = resourceOf(request) ?? 'cpu';
      const room = freeRoomOf(node);
      const free = resource === 'cpu' ? room.cpuMilli : room.memoryBytes;
      const text = resource === 'cpu' ? formatMilli(free) : formatBytes(Math.floor(free / 2 ** 20) * 2 ** 20);
      return { request, text, free };
    });
    if (edits.some((edit) => edit.free <= 0)) {
      continue;
    }
    const better =
      best === undefined ||
      edits.length < best.edits.length ||
      (edits.length === best.edits.length && (edits[0]?.free ?? 0) > (best.edits[0]?.free ?? 0));
    if (better) {
      best = { node: node.name, edits };
    }
  }
  if (best === undefined) {
    return undefined;
  }
  const said = best.edits.map(({ request, text }) => `the ${resourceOf(request) ?? ''} request to ${text}`);
  return {
    title: `Lower ${said.join(' and ')} (what ${best.node} has free)`,
    edits: best.edits.map(({ request, text }) => ({ start: request.start, end: request.end, newText: text })),
  };
}
