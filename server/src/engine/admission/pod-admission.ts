/**
 * The pod admission the simulated API server runs (the plugins that exist so far, in the API server's order),
 * and how a controller words a pod it could not create.
 */
import type { PriorityClassInfo } from '../model/snapshot/cluster';
import { PodAdmissionChain } from './admit-pod';
import { DEFAULT_TOLERATION_SECONDS_PLUGIN } from './plugins/default-toleration-seconds';
import { priorityPlugin } from './plugins/priority';
import { serviceAccountPlugin } from './plugins/service-account';
import { limitRangerPlugin } from './plugins/limit-ranger';
import { namespaceLifecyclePlugin } from './plugins/namespace-lifecycle';
import { resourceQuotaPlugin } from './plugins/resource-quota';
import { podSecurityPlugin } from './plugins/pod-security/pod-security';
import { knownObjects } from './known-objects';
import type { KnownObjects } from './known-objects';
import type { Refusal } from './rejected';

/**
 * The default-on plugins that are modelled, in the API server's order (names.ts): NamespaceLifecycle (a
 * terminating namespace; a missing one refuses the workload itself at apply: admit-manifests.ts), LimitRanger,
 * ServiceAccount, PodSecurity (over `namespaceLabels`), Priority, DefaultTolerationSeconds, ResourceQuota (last;
 * `podsIn` gives the pods a namespace already holds).
 */
export function defaultPodAdmission(
  priorityClasses: ReadonlyMap<string, PriorityClassInfo>,
  known: KnownObjects = knownObjects(null, []),
  podsIn: (namespace: string) => readonly Record<string, unknown>[] = () => [],
  podLevelResources = true,
  namespaceLabels: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map(),
): PodAdmissionChain {
  return new PodAdmissionChain([
    namespaceLifecyclePlugin(known),
    limitRangerPlugin(known.limitRanges),
    serviceAccountPlugin(known),
    podSecurityPlugin(namespaceLabels),
    priorityPlugin(priorityClasses),
    DEFAULT_TOLERATION_SECONDS_PLUGIN,
    resourceQuotaPlugin(known.quotas, podsIn, podLevelResources),
  ]);
}

/**
 * The FailedCreate event of the controller whose pod was refused: the ReplicaSet, Job and DaemonSet controllers
 * write "Error creating: <error>" (controller_utils.go, RealPodControl.createPods); the StatefulSet controller
 * "create Pod <name> in StatefulSet <set> failed error: <error>" (stateful_pod_control.go, recordPodEvent).
 */
export function failedCreateMessage(
  owner: { readonly kind: string; readonly name: string },
  podName: string,
  refusal: Refusal,
): string {
  return owner.kind === 'StatefulSet'
    ? `create Pod ${podName} in StatefulSet ${owner.name} failed error: ${refusal.message}`
    : `Error creating: ${refusal.message}`;
}
