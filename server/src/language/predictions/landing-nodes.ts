/**
 * The nodes a pod can land on before its resources are counted: not cordoned and not tainted against it, as
 * kube-scheduler's first filters decide (NodeUnschedulable, then TaintToleration:
 * pkg/scheduler/framework/plugins/nodeunschedulable and tainttoleration). The hover's "largest free" and the
 * quick fix that lowers requests both choose among these nodes, so they name the same one. Left out: node
 * affinity, ports and volumes (a fix lowering requests only uses nodes whose one failing filter was the
 * resources, which passed those).
 */
import type { TaintObject, TolerationObject } from '../../engine/model/objects';
import { parseQuantity } from '../../engine/model/quantity';
import {
  findMatchingUntoleratedTaint,
  isDoNotScheduleTaint,
  TAINT_NODE_UNSCHEDULABLE,
  tolerationsTolerateTaint,
} from '../../engine/model/taints';
import type { ReportNode } from '../../engine/scenario/report/report-entries';

/** What the first filters read of the cluster's nodes: each node's taints, and the cordoned ones. */
export interface NodeFacts {
  readonly taints: ReadonlyMap<string, readonly TaintObject[]>;
  readonly cordoned: ReadonlySet<string>;
  /** Each node's labels, for a pod's nodeSelector and required node affinity (absent: not read). */
  readonly labels?: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

/** A node's free room after the simulated placements: millicores and bytes. */
export interface FreeRoom {
  readonly node: ReportNode;
  readonly cpuMilli: number;
  readonly memoryBytes: number;
}

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** The facts of the cluster's Node objects (lists already unwrapped). */
export function nodeFactsOf(nodes: readonly unknown[]): NodeFacts {
  const taints = new Map<string, TaintObject[]>();
  const cordoned = new Set<string>();
  const labels = new Map<string, Record<string, string>>();
  for (const node of nodes) {
    const metadata = asObject(asObject(node)['metadata']);
    const name = metadata['name'];
    if (typeof name !== 'string') {
      continue;
    }
    labels.set(
      name,
      Object.fromEntries(
        Object.entries(asObject(metadata['labels'])).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      ),
    );
    const spec = asObject(asObject(node)['spec']);
    if (spec['unschedulable'] === true) {
      cordoned.add(name);
    }
    const list = spec['taints'];
    taints.set(
      name,
      (Array.isArray(list) ? list : []).flatMap((taint: unknown) => {
        const { key, value, effect } = asObject(taint);
        return typeof key === 'string' && typeof effect === 'string'
          ? [{ key, effect, ...(typeof value === 'string' ? { value } : {}) } as TaintObject]
          : [];
      }),
    );
  }
  return { taints, cordoned, labels };
}

/** A pod spec's tolerations (the objects among them). */
export function tolerationsOf(podSpec: unknown): TolerationObject[] {
  const list = asObject(podSpec)['tolerations'];
  return (Array.isArray(list) ? list : []).filter(
    (item: unknown): item is TolerationObject => typeof item === 'object' && item !== null,
  );
}

/** kubectl's notation of a taint: key=value:effect. */
export function formatTaint(taint: TaintObject): string {
  return `${taint.key}${taint.value === undefined || taint.value === '' ? '' : `=${taint.value}`}:${taint.effect}`;
}

/** Why a pod with these tolerations cannot land on the node ("cordoned", "taint k=v:NoSchedule"), if it cannot. */
export function landingBlock(
  node: string,
  facts: NodeFacts | undefined,
  tolerations: readonly TolerationObject[],
): string | undefined {
  if (facts === undefined) {
    return undefined;
  }
  if (facts.cordoned.has(node) && !tolerationsTolerateTaint(tolerations, TAINT_NODE_UNSCHEDULABLE)) {
    return 'cordoned';
  }
  const taint = findMatchingUntoleratedTaint(facts.taints.get(node) ?? [], tolerations, isDoNotScheduleTaint);
  return taint === undefined ? undefined : `taint ${formatTaint(taint)}`;
}

/** The nodes the pod of `podSpec` can land on, in their order. */
export function landingNodes(
  nodes: readonly ReportNode[],
  facts: NodeFacts | undefined,
  podSpec: unknown,
): ReportNode[] {
  const tolerations = tolerationsOf(podSpec);
  return nodes.filter((node) => landingBlock(node.name, facts, tolerations) === undefined);
}

/** A node's free cpu and memory after the simulated placements. */
export function freeRoomOf(node: ReportNode): FreeRoom {
  return {
    node,
    cpuMilli: amount(node.allocatable['cpu'], true) - amount(node.requested['cpu'], true),
    memoryBytes: amount(node.allocatable['memory'], false) - amount(node.requested['memory'], false),
  };
}

/** The node with the most free cpu and the one with the most free memory among `nodes` (first wins a tie). */
export function largestFree(
  nodes: readonly ReportNode[],
): { readonly cpu: FreeRoom; readonly memory: FreeRoom } | undefined {
  const rooms = nodes.map(freeRoomOf);
  const [first] = rooms;
  if (first === undefined) {
    return undefined;
  }
  return {
    cpu: rooms.reduce((best, room) => (room.cpuMilli > best.cpuMilli ? room : best), first),
    memory: rooms.reduce((best, room) => (room.memoryBytes > best.memoryBytes ? room : best), first),
  };
}

/**
 * How many pods of these requests the nodes have room for, each node counted alone (a lower bound of what the
 * scheduler places: it also counts each node alone, and pods do not split).
 */
export function podsThatFit(
  nodes: readonly ReportNode[],
  requests: { readonly cpuMilli: number; readonly memoryBytes: number },
): number {
  return nodes.map(freeRoomOf).reduce((total, room) => {
    const byCpu = requests.cpuMilli > 0 ? Math.floor(room.cpuMilli / requests.cpuMilli) : Infinity;
    const byMemory =
      requests.memoryBytes > 0 ? Math.floor(room.memoryBytes / requests.memoryBytes) : Infinity;
    const fits = Math.max(0, Math.min(byCpu, byMemory));
    return total + (Number.isFinite(fits) ? fits : Number.MAX_SAFE_INTEGER);
  }, 0);
}

function amount(text: string | undefined, isCpu: boolean): number {
  const parsed = text === undefined ? undefined : parseQuantity(text);
  if (parsed === undefined || !parsed.ok) {
    return 0;
  }
  return isCpu ? parsed.quantity.milli : parsed.quantity.value;
}
