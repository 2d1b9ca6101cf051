/**
 * The kubelet's container events, worded as v1.33–v1.35 word them, on the pod with the container's field path
 * (recordContainerEvent: "spec.containers{app}"), from the kubelet of the pod's node:
 * - Pulling `Pulling image "nginx:1.27"`, Pulled `Successfully pulled image "nginx:1.27" in 10s (10s including
 *   waiting)` or `Container image "nginx:1.27" already present on machine` (v1.35, KubeletEnsureSecretPulledImages
 *   beta and on: `… already present on machine and can be accessed by the pod`), ErrImageNeverPull
 *   `Container image "x" is not present with pull policy of Never` (pkg/kubelet/images/image_manager.go);
 * - Created `Created container: app`, Started `Started container app`, Killing `Stopping container app`
 *   (pkg/kubelet/kuberuntime/kuberuntime_container.go);
 * - FailedMount and Failed (`Error: …`) come with the start failure (container-config.ts).
 * Left out: the image size a Pulled message ends with ("Image size: N bytes.", unknown here), BackOff (its message
 * names the pod's UID), the sandbox events.
 */
import { EVENT_COMPONENT } from '../model/kubernetes-events';
import type { InvolvedKubeEvent } from '../model/kubernetes-events';
import type { KubernetesMinor } from '../version';
import type { KubernetesInvolvedObject } from '../../../../protocol/timeline';
import { isAtLeast } from '../version';

/** The container lists a kubelet event can name. */
export type ContainerList = 'initContainers' | 'containers';

/**
 * The containers of pods as kubelet events name them (the involvedObject with its fieldPath): one object per pod
 * and container, shared by the container's Pulling, Pulled, Created, Started and Killing events, and one fieldPath
 * text per list and name. A rollout of 10,000 pods recorded 50,000 copies.
 */
export class ContainerRefs {
  private readonly byPod = new WeakMap<object, KubernetesInvolvedObject[]>();
  private readonly fieldPaths = new Map<ContainerList, Map<string, string>>();

  /** The involved object of a pod's container. */
  of(
    pod: { readonly namespace: string; readonly name: string },
    container: { readonly list: ContainerList; readonly name: string },
  ): KubernetesInvolvedObject {
    const fieldPath = this.fieldPathOf(container.list, container.name);
    let refs = this.byPod.get(pod);
    if (refs === undefined) {
      refs = [];
      this.byPod.set(pod, refs);
    }
    for (const ref of refs) {
      if (ref.fieldPath === fieldPath) {
        return ref;
      }
    }
    const ref = { kind: 'Pod', namespace: pod.namespace, name: pod.name, fieldPath };
    refs.push(ref);
    return ref;
  }

  /** recordContainerEvent's field path: "spec.containers{app}". */
  private fieldPathOf(list: ContainerList, name: string): string {
    let byName = this.fieldPaths.get(list);
    if (byName === undefined) {
      byName = new Map();
      this.fieldPaths.set(list, byName);
    }
    let fieldPath = byName.get(name);
    if (fieldPath === undefined) {
      fieldPath = `spec.${list}{${name}}`;
      byName.set(name, fieldPath);
    }
    return fieldPath;
  }
}

/** A kubelet event about a container of a pod, on its node (its involved object from `refs`). */
export function containerEvent(
  reason: string,
  refs: ContainerRefs,
  pod: { readonly namespace: string; readonly name: string },
  node: string,
  container: { readonly list: ContainerList; readonly name: string },
  warning = false,
): InvolvedKubeEvent {
  return {
    reason,
    component: EVENT_COMPONENT.kubelet,
    host: node,
    warning,
    involvedObject: refs.of(pod, container),
  };
}

/** The Pulling message. */
export function pullingMessage(image: string): string {
  return `Pulling image "${image}"`;
}

/** The Pulled message of an image pulled now: the pull itself, and since the kubelet asked for it. */
export function pulledMessage(image: string, pullSeconds: number, sinceRequestSeconds: number): string {
  return `Successfully pulled image "${image}" in ${goDuration(pullSeconds)} (${goDuration(sinceRequestSeconds)} including waiting)`;
}

/** The Pulled message of an image already on the node. */
export function alreadyPresentMessage(image: string, version: KubernetesMinor): string {
  return isAtLeast(version, '1.35')
    ? `Container image "${image}" already present on machine and can be accessed by the pod`
    : `Container image "${image}" already present on machine`;
}

/** The ErrImageNeverPull message. */
export function neverPullMessage(image: string): string {
  return `Container image "${image}" is not present with pull policy of Never`;
}

/** The Created message. */
export function createdMessage(name: string): string {
  return `Created container: ${name}`;
}

/** The Started message. */
export function startedMessage(name: string): string {
  return `Started container ${name}`;
}

/** The Killing message of a deletion. */
export function killingMessage(name: string): string {
  return `Stopping container ${name}`;
}

/** Go's time.Duration.String() of a number of seconds, to the millisecond (the kubelet truncates to it). */
export function goDuration(seconds: number): string {
  const millis = Math.max(0, Math.floor(seconds * 1000));
  if (millis === 0) {
    return '0s';
  }
  if (millis < 1000) {
    return `${millis}ms`;
  }
  const hours = Math.floor(millis / 3_600_000);
  const minutes = Math.floor((millis % 3_600_000) / 60_000);
  const rest = (millis % 60_000) / 1000;
  const secondsText = `${Number.isInteger(rest) ? rest : rest.toFixed(3).replace(/0+$/, '')}s`;
  if (hours > 0) {
    return `${hours}h${minutes}m${secondsText}`;
  }
  return minutes > 0 ? `${minutes}m${secondsText}` : secondsText;
}
