/**
 * Which nodes a DaemonSet runs on: NodeShouldRunDaemonPod in the DaemonSet controller. A node is eligible when
 * the pod's nodeName (if any) names it, the pod's nodeSelector and required node affinity match it
 * (nodeaffinity.GetRequiredNodeAffinity), and the pod, with the tolerations the controller adds, tolerates every
 * NoSchedule and NoExecute taint of the node (v1helper.FindMatchingUntoleratedTaint).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/daemon/daemon_controller.go
 * https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go
 *
 * Written on plain Node JSON here because the controller decides before any scheduler runs. Left out: the
 * alpha taint comparison operators (Gt/Lt tolerations), off by default in 1.35.
 */
import { asArray, asObject, isJsonObject, readString, readStringMap } from './json';

/** Why a node does not get a daemon pod. */
export type IneligibleReason = 'node-name' | 'node-affinity' | 'taint';

/** The verdict for one node. */
export type NodeEligibility =
  | { readonly shouldRun: true }
  | { readonly shouldRun: false; readonly reason: IneligibleReason; readonly detail: string };

/** Decides whether a daemon pod (its spec, with the daemon tolerations already added) belongs on a node. */
export function nodeShouldRunDaemonPod(podSpec: Record<string, unknown>, node: unknown): NodeEligibility {
  const metadata = asObject(asObject(node)['metadata']);
  const nodeName = readString(metadata['name']) ?? '';
  const wantedNode = readString(podSpec['nodeName']);
  if (wantedNode !== undefined && wantedNode !== nodeName) {
    return { shouldRun: false, reason: 'node-name', detail: `the template's nodeName is ${wantedNode}` };
  }
  const labels = readStringMap(metadata['labels']);
  if (!matchesRequiredNodeAffinity(podSpec, nodeName, labels)) {
    return {
      shouldRun: false,
      reason: 'node-affinity',
      detail: "the node doesn't match the node affinity/selector",
    };
  }
  const untolerated = findUntoleratedTaint(asArray(asObject(asObject(node)['spec'])['taints']), podSpec);
  if (untolerated !== undefined) {
    return { shouldRun: false, reason: 'taint', detail: `the taint ${untolerated} is not tolerated` };
  }
  return { shouldRun: true };
}

/** nodeSelector (every pair) and required node affinity (any term), as GetRequiredNodeAffinity(pod).Match. */
export function matchesRequiredNodeAffinity(
  podSpec: Record<string, unknown>,
  nodeName: string,
  labels: Readonly<Record<string, string>>,
): boolean {
  const nodeSelector = readStringMap(podSpec['nodeSelector']);
  if (!Object.entries(nodeSelector).every(([key, value]) => labels[key] === value)) {
    return false;
  }
  const nodeAffinity = asObject(asObject(podSpec['affinity'])['nodeAffinity']);
  const required = nodeAffinity['requiredDuringSchedulingIgnoredDuringExecution'];
  if (!isJsonObject(required)) {
    return true;
  }
  return asArray(required['nodeSelectorTerms']).some((term) => matchesTerm(asObject(term), nodeName, labels));
}

/** A term matches when it has at least one requirement and all of them hold; malformed terms match nothing. */
function matchesTerm(
  term: Record<string, unknown>,
  nodeName: string,
  labels: Readonly<Record<string, string>>,
) {
  const expressions = asArray(term['matchExpressions']);
  const fields = asArray(term['matchFields']);
  if (expressions.length === 0 && fields.length === 0) {
    return false;
  }
  return (
    expressions.every((requirement) => matchesLabelRequirement(asObject(requirement), labels)) &&
    fields.every((requirement) => matchesFieldRequirement(asObject(requirement), nodeName))
  );
}

function matchesLabelRequirement(
  requirement: Record<string, unknown>,
  labels: Readonly<Record<string, string>>,
) {
  const key = readString(requirement['key']);
  if (key === undefined) {
    return false;
  }
  const values = asArray(requirement['values']).filter((v): v is string => typeof v === 'string');
  const has = Object.prototype.hasOwnProperty.call(labels, key);
  const value = labels[key] ?? '';
  switch (requirement['operator']) {
    case 'In':
      return values.length > 0 && has && values.includes(value);
    case 'NotIn':
      return values.length > 0 && (!has || !values.includes(value));
    case 'Exists':
      return values.length === 0 && has;
    case 'DoesNotExist':
      return values.length === 0 && !has;
    case 'Gt':
    case 'Lt':
      return compareInteger(requirement['operator'], values, has ? value : undefined);
    default:
      return false;
  }
}

function compareInteger(
  operator: 'Gt' | 'Lt',
  values: readonly string[],
  label: string | undefined,
): boolean {
  const integer = /^[+-]?\d+$/;
  const wanted = values[0];
  if (values.length !== 1 || wanted === undefined || !integer.test(wanted) || label === undefined) {
    return false;
  }
  if (!integer.test(label)) {
    return false;
  }
  return operator === 'Gt' ? BigInt(label) > BigInt(wanted) : BigInt(label) < BigInt(wanted);
}

/** matchFields supports only metadata.name with In or NotIn and exactly one value. */
function matchesFieldRequirement(requirement: Record<string, unknown>, nodeName: string): boolean {
  const values = asArray(requirement['values']);
  if (requirement['key'] !== 'metadata.name' || values.length !== 1) {
    return false;
  }
  if (requirement['operator'] === 'In') {
    return values[0] === nodeName;
  }
  if (requirement['operator'] === 'NotIn') {
    return values[0] !== nodeName;
  }
  return false;
}

/** The first NoSchedule or NoExecute taint no toleration tolerates, as "key=value:Effect", or undefined. */
function findUntoleratedTaint(
  taints: readonly unknown[],
  podSpec: Record<string, unknown>,
): string | undefined {
  const tolerations = asArray(podSpec['tolerations']).map((t) => asObject(t));
  for (const item of taints) {
    const taint = asObject(item);
    const effect = taint['effect'];
    if (effect !== 'NoSchedule' && effect !== 'NoExecute') {
      continue;
    }
    if (!tolerations.some((toleration) => toleratesTaint(toleration, taint))) {
      const key = typeof taint['key'] === 'string' ? taint['key'] : '';
      const value = typeof taint['value'] === 'string' && taint['value'] !== '' ? `=${taint['value']}` : '';
      return `${key}${value}:${effect}`;
    }
  }
  return undefined;
}

/** Toleration.ToleratesTaint: effect and key match when set; Exists ignores the value, Equal compares it. */
export function toleratesTaint(toleration: Record<string, unknown>, taint: Record<string, unknown>): boolean {
  const effect = readString(toleration['effect']);
  if (effect !== undefined && effect !== taint['effect']) {
    return false;
  }
  const key = readString(toleration['key']);
  if (key !== undefined && key !== taint['key']) {
    return false;
  }
  const operator = toleration['operator'] ?? '';
  if (operator === 'Exists') {
    return true;
  }
  if (operator === '' || operator === 'Equal') {
    return (readString(toleration['value']) ?? '') === (readString(taint['value']) ?? '');
  }
  return false;
}
