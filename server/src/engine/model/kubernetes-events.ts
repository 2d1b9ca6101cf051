/**
 * Kubernetes Events as the simulated components record them: the reason, Normal or Warning, the reporting
 * component (and the kubelet's node) and the involved object, the fields `kubectl events` and
 * `kubectl get events -o wide` print. Each component names its events beside its code (the reason and the message
 * are its own); this file holds only the shape and the components' names as their event recorders set them:
 * - default-scheduler: the scheduler profile's name (reportingController, events.k8s.io), pkg/scheduler/schedule_one.go
 * - kubelet: EventSource{Component: "kubelet", Host: nodeName}, pkg/kubelet/kubelet.go
 * - replicaset-, deployment-, statefulset-, daemonset-, job-, cronjob-controller, horizontal-pod-autoscaler,
 *   node-controller, taint-eviction-controller, persistentvolume-controller: each controller's NewRecorder source
 *   (pkg/controller/…); the disruption controller records as "controllermanager" (pkg/controller/disruption)
 * - cluster-autoscaler: its LogRecorder and event recorder (cluster-autoscaler/utils/kubernetes/events.go)
 * https://github.com/kubernetes/kubectl/blob/master/pkg/cmd/events/events.go
 */
import type {
  KubernetesEventSource,
  KubernetesInvolvedObject,
  TimelineEvent,
  TimelineEventDetails,
  TimelineEventType,
  TimelineObjectRef,
} from '../../../../protocol/timeline';

/** The reporting components of the events the engine models. */
export const EVENT_COMPONENT = {
  scheduler: 'default-scheduler',
  kubelet: 'kubelet',
  replicaSet: 'replicaset-controller',
  deployment: 'deployment-controller',
  statefulSet: 'statefulset-controller',
  daemonSet: 'daemonset-controller',
  job: 'job-controller',
  cronJob: 'cronjob-controller',
  horizontalPodAutoscaler: 'horizontal-pod-autoscaler',
  nodeController: 'node-controller',
  taintEviction: 'taint-eviction-controller',
  disruption: 'controllermanager',
  persistentVolume: 'persistentvolume-controller',
  clusterAutoscaler: 'cluster-autoscaler',
} as const;

/** A reporting component's name. */
export type EventComponent = (typeof EVENT_COMPONENT)[keyof typeof EVENT_COMPONENT];

/** The Kubernetes Event an engine event stands for (the message is the engine event's). */
export interface KubeEvent {
  readonly reason: string;
  readonly component: EventComponent;
  /** A Warning event (default Normal). */
  readonly warning?: boolean;
  /** The kubelet's node. */
  readonly host?: string;
  /** What it is about, when it is not the engine event's object (a pod's controller for SuccessfulCreate). */
  readonly involvedObject?: KubernetesInvolvedObject;
}

/** A Kubernetes Event whose involved object is set (what a KubernetesEvent timeline event records). */
export type InvolvedKubeEvent = KubeEvent & { readonly involvedObject: KubernetesInvolvedObject };

/**
 * One `source` object per reporting component and host, shared by the timeline events that name it: a rollout
 * records tens of thousands of kubelet and controller events, and each kept its own copy.
 */
export class EventSources {
  private readonly byComponent = new Map<string, KubernetesEventSource>();
  private readonly byHost = new Map<string, Map<string, KubernetesEventSource>>();

  /** The source of an event: its component, and the kubelet's node when set. */
  of(event: KubeEvent): KubernetesEventSource {
    const { component, host } = event;
    if (host === undefined) {
      let source = this.byComponent.get(component);
      if (source === undefined) {
        source = { component };
        this.byComponent.set(component, source);
      }
      return source;
    }
    let hosts = this.byHost.get(component);
    if (hosts === undefined) {
      hosts = new Map();
      this.byHost.set(component, hosts);
    }
    let source = hosts.get(host);
    if (source === undefined) {
      source = { component, host };
      hosts.set(host, source);
    }
    return source;
  }
}

/**
 * A timeline event, with the fields of the Kubernetes Event it stands for when there is one (reason, eventType,
 * source, involvedObject: the event's object unless it names another). Each shape is one object literal, its keys
 * in the timeline's order (time, type, object, node, message, details, then the Kubernetes Event's), so no partial
 * object is built and spread per event.
 */
export function timelineEvent(
  time: number,
  type: TimelineEventType,
  object: TimelineObjectRef,
  node: string | null,
  message: string,
  details: TimelineEventDetails | undefined,
  kube: KubeEvent | undefined,
  sources: EventSources,
): TimelineEvent {
  if (kube === undefined) {
    return details === undefined
      ? { time, type, object, node, message }
      : { time, type, object, node, message, details };
  }
  const reason = kube.reason;
  const eventType = kube.warning === true ? 'Warning' : 'Normal';
  const source = sources.of(kube);
  const involvedObject = kube.involvedObject ?? object;
  return details === undefined
    ? { time, type, object, node, message, reason, eventType, source, involvedObject }
    : { time, type, object, node, message, details, reason, eventType, source, involvedObject };
}

/** The event of a pod's controller about one of its pods (SuccessfulCreate, FailedCreate, SuccessfulDelete). */
export function controllerEvent(
  reason: string,
  owner: { readonly kind: string; readonly name: string },
  namespace: string,
  warning = false,
): KubeEvent | undefined {
  const component = CONTROLLER_COMPONENTS[owner.kind];
  return component === undefined
    ? undefined
    : { reason, component, warning, involvedObject: { kind: owner.kind, namespace, name: owner.name } };
}

/**
 * The event a pod's controller records about it (RealPodControl in controller_utils.go: SuccessfulCreate "Created
 * pod: x", SuccessfulDelete "Deleted pod: x"; the StatefulSet's own wording, stateful_pod_control.go), on the
 * controller; none for a pod without one.
 */
export function podControlEvent(
  reason: 'SuccessfulCreate' | 'SuccessfulDelete',
  pod: {
    readonly namespace: string;
    readonly controllerRef: { readonly kind: string; readonly name: string } | null;
  },
): KubeEvent | undefined {
  return pod.controllerRef === null ? undefined : controllerEvent(reason, pod.controllerRef, pod.namespace);
}

/** The component of each pod controller the engine runs. */
const CONTROLLER_COMPONENTS: Readonly<Record<string, EventComponent>> = {
  ReplicaSet: EVENT_COMPONENT.replicaSet,
  StatefulSet: EVENT_COMPONENT.statefulSet,
  DaemonSet: EVENT_COMPONENT.daemonSet,
  Job: EVENT_COMPONENT.job,
};
