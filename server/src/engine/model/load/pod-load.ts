/**
 * Turns a plain Pod object into a PodInfo: resolves its priority (priority.ts), computes its requests for the
 * selected version, and reports malformed or negative quantities as findings naming the pod and the field.
 */
import type { PriorityClassInfo } from '../snapshot/cluster';
import { engineFinding } from '../findings';
import { isRecord } from '../objects';
import type { PodObject } from '../objects';
import { createPodInfo } from '../snapshot/pod-info';
import type { PodInfo, PodOwner } from '../snapshot/pod-info';
import type { PodResourceProblem } from '../snapshot/pod-requests';
import { resolvePodPriority } from './priority';
import type { ObjectSource } from '../source';
import { isAtLeast } from '../../version';
import type { KubernetesMinor } from '../../version';
import { formatFieldPath } from '../../../../../protocol/finding';
import type { Finding } from '../../../../../protocol/finding';

/** What loading a pod needs besides the pod. */
interface PodLoadContext {
  readonly version: KubernetesMinor;
  readonly priorityClasses: ReadonlyMap<string, PriorityClassInfo>;
  readonly findings: Finding[];
}

/** A pod's display name for messages: `Pod "ns/name"`. */
export function describePod(pod: PodObject): string {
  const namespace = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? pod.metadata?.generateName ?? '';
  return `Pod "${namespace}/${name}"`;
}

/**
 * Builds a PodInfo. `strictPriority`: a PriorityClass that does not exist is an error (admission would reject a
 * new pod) and the pod is not returned; otherwise (pods already running) spec.priority or 0 is used quietly.
 */
export function loadPod(
  object: Record<string, unknown>,
  source: ObjectSource,
  owner: PodOwner | null,
  context: PodLoadContext,
  strictPriority: boolean,
): PodInfo | null {
  const pod = object as PodObject;
  const describe = describePod(pod);
  if (object['spec'] !== undefined && !isRecord(object['spec'])) {
    context.findings.push(
      engineFinding('invalid-pod', source, ['spec'], `${describe}: spec must be an object`),
    );
    return null;
  }
  const spec = pod.spec ?? {};
  let priority = typeof spec.priority === 'number' ? spec.priority : 0;
  const resolution = resolvePodPriority(spec, context.priorityClasses, source, describe);
  if (resolution.ok) {
    priority = resolution.priority;
  } else if (strictPriority) {
    context.findings.push(resolution.finding);
    return null;
  }
  const problems: PodResourceProblem[] = [];
  const info = createPodInfo(
    { pod, source, owner, priority, podLevelResources: isAtLeast(context.version, '1.34') },
    problems,
  );
  for (const problem of problems) {
    const code = problem.kind === 'negative' ? 'negative-quantity' : 'invalid-quantity';
    const message = `${describe}: ${formatFieldPath(problem.path)} ${problem.message}`;
    context.findings.push(engineFinding(code, source, problem.path, message));
  }
  return info;
}
