/**
 * The QoS class of a pod (Guaranteed, Burstable, BestEffort), computed by the rules of ComputePodQOS:
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/v1/helper/qos/qos.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/helper/qos/qos.go
 *
 * Only cpu and memory count (supportedQoSComputeResources); a quantity counts when it is above zero. Init
 * containers count like containers; ephemeral containers cannot set resources. When pod-level resources
 * (spec.resources, PodLevelResources: beta and on by default from 1.34) set cpu, memory or hugepages, they alone
 * decide. The class is computed on the pod as the API server stores it, so its defaults are applied first: a
 * container's missing request takes its limit (SetDefaults_Pod), and a missing pod-level request takes the
 * containers' effective request, else the pod-level limit (defaultPodRequests).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/v1/defaults.go
 *
 * Left out: status.qosClass (we never read status), pod-level limit defaulting from container limits (newer than
 * 1.35), and quantities that do not parse, which count as unset (the API server would reject the pod).
 */
import { formatBytes, formatMilli, parseQuantity } from './quantity';

/** The three QoS classes of Kubernetes. */
export type QosClassName = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** A pod's QoS class and, in words a person understands, why. */
interface QosClassResult {
  readonly qosClass: QosClassName;
  readonly reason: string;
}

/** Feature switches that depend on the Kubernetes version. */
interface QosOptions {
  /** Whether pod-level resources (spec.resources) are honoured; true from 1.34 (PodLevelResources beta). */
  readonly podLevelResources?: boolean;
}

type QosResource = 'cpu' | 'memory';

const QOS_RESOURCES: readonly QosResource[] = ['cpu', 'memory'];

/** Amounts in thousandths (MilliValue), the scale the API server rounds every quantity up to. */
type Amounts = Map<QosResource, number>;

interface ContainerResources {
  /** "container app" or "init container setup": how the reason names it. */
  readonly label: string;
  readonly requests: Amounts;
  readonly limits: Amounts;
  readonly isInit: boolean;
  readonly isRestartable: boolean;
}

/**
 * The classes computed so far, by spec object, with pod-level resources counted and not. The pods of a template
 * share their spec object (apiserver/pod-factory.ts) and nothing mutates a spec once read, so a simulation of 1,000
 * pods asked the same question of the same spec for every pod (the report's QoS column, each container's
 * oom_score_adj); the answer is plain data and never changed by a caller. One map per setting keeps an entry a
 * single reference (a capture's 150,000 pods have a spec each).
 */
const classesWithPodLevel = new WeakMap<object, QosClassResult>();
const classesWithout = new WeakMap<object, QosClassResult>();

/** Computes the QoS class of a pod from its spec (plain Kubernetes PodSpec JSON). Never throws. */
export function computeQosClass(podSpec: unknown, options: QosOptions = {}): QosClassResult {
  if (typeof podSpec !== 'object' || podSpec === null) {
    return classify(podSpec, options);
  }
  const known = (options.podLevelResources ?? true) ? classesWithPodLevel : classesWithout;
  let result = known.get(podSpec);
  if (result === undefined) {
    result = classify(podSpec, options);
    known.set(podSpec, result);
  }
  return result;
}

function classify(podSpec: unknown, options: QosOptions): QosClassResult {
  const spec = asRecord(podSpec);
  const containers = [
    ...readContainers(spec['containers'], 'container'),
    ...readContainers(spec['initContainers'], 'init container'),
  ];
  const podResources = asRecord(spec['resources']);
  if ((options.podLevelResources ?? true) && isPodLevelResourcesSet(podResources)) {
    return classifyPodLevel(podResources, containers);
  }
  return classifyContainers(containers);
}

function classifyContainers(containers: readonly ContainerResources[]): QosClassResult {
  const requests: Amounts = new Map();
  const limits: Amounts = new Map();
  let hasAllLimits = true;
  for (const container of containers) {
    addPositive(requests, container.requests);
    addPositive(limits, container.limits);
    if (!QOS_RESOURCES.every((name) => (container.limits.get(name) ?? 0) > 0)) {
      hasAllLimits = false;
    }
  }
  if (requests.size === 0 && limits.size === 0) {
    return { qosClass: 'BestEffort', reason: 'no container sets any cpu or memory request or limit' };
  }
  if (hasAllLimits && isEqualAmounts(requests, limits)) {
    return { qosClass: 'Guaranteed', reason: 'every container sets cpu and memory limits equal to requests' };
  }
  return { qosClass: 'Burstable', reason: explainContainersBurstable(containers) };
}

function classifyPodLevel(
  podResources: Record<string, unknown>,
  containers: ContainerResources[],
): QosClassResult {
  const limits = readAmounts(podResources['limits']);
  const requests = defaultPodLevelRequests(readAmounts(podResources['requests']), limits, containers);
  const positiveRequests: Amounts = new Map();
  const positiveLimits: Amounts = new Map();
  addPositive(positiveRequests, requests);
  addPositive(positiveLimits, limits);
  if (positiveRequests.size === 0 && positiveLimits.size === 0) {
    return {
      qosClass: 'BestEffort',
      reason:
        'the pod-level resources set no cpu or memory request or limit (they replace the containers’ own)',
    };
  }
  const missing = QOS_RESOURCES.filter((name) => !positiveLimits.has(name));
  if (missing.length > 0) {
    return { qosClass: 'Burstable', reason: `the pod-level resources set no ${missing.join(' or ')} limit` };
  }
  if (isEqualAmounts(positiveRequests, positiveLimits)) {
    return {
      qosClass: 'Guaranteed',
      reason: 'the pod-level resources set cpu and memory limits equal to requests',
    };
  }
  const mismatch = explainMismatch('the pod-level resources request', positiveRequests, positiveLimits);
  return { qosClass: 'Burstable', reason: mismatch || 'the pod-level requests differ from the limits' };
}

/**
 * The API server's defaultPodRequests, for cpu and memory: only when pod-level limits are set, a missing pod-level
 * request becomes the containers' effective request for that resource, or else the pod-level limit.
 */
function defaultPodLevelRequests(
  requests: Amounts,
  limits: Amounts,
  containers: ContainerResources[],
): Amounts {
  if (limits.size === 0) {
    return requests;
  }
  const defaulted = new Map(requests);
  const aggregated = aggregateContainerRequests(containers);
  for (const name of QOS_RESOURCES) {
    const fromContainers = aggregated.get(name);
    const limit = limits.get(name);
    if (!defaulted.has(name) && fromContainers !== undefined) {
      defaulted.set(name, fromContainers);
    } else if (!defaulted.has(name) && limit !== undefined) {
      defaulted.set(name, limit);
    }
  }
  return defaulted;
}

/** Containers summed, then the sidecar-aware maximum with init containers (AggregateContainerRequests). */
function aggregateContainerRequests(containers: readonly ContainerResources[]): Amounts {
  const result: Amounts = new Map();
  const sidecars: Amounts = new Map();
  const initPeak: Amounts = new Map();
  for (const container of containers) {
    if (!container.isInit) {
      addAll(result, container.requests);
    } else if (container.isRestartable) {
      addAll(result, container.requests);
      addAll(sidecars, container.requests);
      maxAll(initPeak, sidecars);
    } else {
      const inUse = new Map(container.requests);
      addAll(inUse, sidecars);
      maxAll(initPeak, inUse);
    }
  }
  maxAll(result, initPeak);
  return result;
}

function explainContainersBurstable(containers: readonly ContainerResources[]): string {
  for (const container of containers) {
    const missing = QOS_RESOURCES.filter((name) => (container.limits.get(name) ?? 0) <= 0);
    if (missing.length > 0) {
      return `${container.label} has no ${missing.join(' or ')} limit`;
    }
  }
  for (const container of containers) {
    const reason = explainMismatch(`${container.label} requests`, container.requests, container.limits);
    if (reason !== '') {
      return reason;
    }
  }
  return 'the cpu and memory requests of the containers do not add up to their limits';
}

/** Names the first resource whose request differs from its limit, or '' when they all agree. */
function explainMismatch(subject: string, requests: Amounts, limits: Amounts): string {
  for (const name of QOS_RESOURCES) {
    const request = requests.get(name) ?? 0;
    const limit = limits.get(name) ?? 0;
    if (request !== limit) {
      const relation = request < limit ? 'less than' : 'more than';
      return `${subject} ${formatAmount(name, request)} ${name}, ${relation} its limit ${formatAmount(name, limit)}`;
    }
  }
  return '';
}

function formatAmount(name: QosResource, milli: number): string {
  if (name === 'cpu') {
    return formatMilli(milli);
  }
  return milli % 1000 === 0 ? formatBytes(milli / 1000) : formatMilli(milli);
}

function readContainers(value: unknown, kind: 'container' | 'init container'): ContainerResources[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.map((item: unknown, index) => {
    const container = asRecord(item);
    const resources = asRecord(container['resources']);
    const limits = readAmounts(resources['limits']);
    const requests = readAmounts(resources['requests']);
    // SetDefaults_Pod: a limit without a request makes the request equal to the limit.
    for (const [name, amount] of limits) {
      if (!requests.has(name)) {
        requests.set(name, amount);
      }
    }
    const name = container['name'];
    const label = typeof name === 'string' && name !== '' ? `${kind} ${name}` : `${kind} #${index + 1}`;
    const isRestartable = container['restartPolicy'] === 'Always';
    return { label, requests, limits, isInit: kind === 'init container', isRestartable };
  });
}

/** Reads cpu and memory of a resource list in thousandths; other resources and unparsable values are skipped. */
function readAmounts(value: unknown): Amounts {
  const list = asRecord(value);
  const amounts: Amounts = new Map();
  for (const name of QOS_RESOURCES) {
    const raw = list[name];
    if (typeof raw === 'string' || typeof raw === 'number') {
      const parsed = parseQuantity(raw);
      if (parsed.ok) {
        amounts.set(name, parsed.quantity.milli);
      }
    }
  }
  return amounts;
}

/** isPodLevelResourcesSet: spec.resources names cpu, memory or hugepages-* in its requests or limits. */
function isPodLevelResourcesSet(resources: Record<string, unknown>): boolean {
  return ['requests', 'limits'].some((field) =>
    Object.keys(asRecord(resources[field])).some(
      (name) => name === 'cpu' || name === 'memory' || name.startsWith('hugepages-'),
    ),
  );
}

function addPositive(target: Amounts, source: Amounts): void {
  for (const [name, amount] of source) {
    if (amount > 0) {
      target.set(name, (target.get(name) ?? 0) + amount);
    }
  }
}

function addAll(target: Amounts, source: Amounts): void {
  for (const [name, amount] of source) {
    target.set(name, (target.get(name) ?? 0) + amount);
  }
}

function maxAll(target: Amounts, source: Amounts): void {
  for (const [name, amount] of source) {
    if (amount > (target.get(name) ?? Number.NEGATIVE_INFINITY)) {
      target.set(name, amount);
    }
  }
}

function isEqualAmounts(requests: Amounts, limits: Amounts): boolean {
  if (requests.size !== limits.size) {
    return false;
  }
  return [...requests].every(([name, amount]) => limits.get(name) === amount);
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
