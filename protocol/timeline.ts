/**
 * The timeline of a simulation: the `events` of the JSON report (schemas/report.schema.json), written by the
 * engine's simulated clock and replayed by the timeline panel. Plain data that crosses process boundaries
 * (engine → language server → extension → webview), so it lives here and is shared by all of them.
 *
 * The panel rebuilds the cluster at any time t by folding the events with `time <= t` in array order, so the
 * events must be complete (every change of a pod's phase or node, every node change) and ordered by time,
 * then by the order the engine processed them.
 *
 * The types are the engine's own. An event that a real cluster also records as a Kubernetes Event carries its
 * `reason`, `eventType`, `source` and `involvedObject` as `kubectl events` and `kubectl get events -o wide` print
 * them, and then `message` is the event's message; a Kubernetes Event that changes nothing the panel draws (the
 * kubelet's Pulled, Created, Killing; a controller's SuccessfulDelete) has the type `KubernetesEvent`. The events
 * with a `reason`, in order, are what `kubectl events` would list for the run.
 */

/** The phases the panel colours pods by: kubelet's phases plus the states people read in `kubectl get pods`. */
export type PodDisplayPhase =
  | 'Pending'
  | 'ContainerCreating'
  | 'CannotStart'
  | 'Running'
  | 'Ready'
  | 'Terminating'
  | 'Evicted'
  | 'Failed'
  | 'Succeeded'
  | 'Deleted';

/** What happened. */
export type TimelineEventType =
  // pods
  // a controller (or the user) created the pod: phase Pending, details.requests set. A pod that runs before the
  // simulation (a cluster file's, a capture's) is one PodCreated at time 0 with its `node` and `details.phase`
  // (Ready, or Running when not Ready), as a watch's initial list delivers it: no PodScheduled or PodPhaseChanged.
  | 'PodCreated'
  | 'PodScheduled' //     bound to `node`
  | 'PodUnschedulable' // a scheduling attempt failed: message is kube-scheduler's FitError message
  | 'PodPhaseChanged' //  details.phase is the new display phase (ContainerCreating, Running, Ready, …)
  | 'PodEvicted' //       evicted (drain, taint-based eviction, preemption): details.reason
  | 'PodDeleted' //       gone from the cluster
  // workloads
  | 'RolloutStep' //      details.rollout: the controller's step (new/old replicas, available, unavailable)
  | 'RolloutComplete'
  | 'ProgressDeadlineExceeded'
  | 'ScaleChanged'
  | 'FailedCreate' //     the controller's pod was refused by the API server: message is the controller's event
  // horizontal pod autoscalers
  | 'SuccessfulRescale' // an HPA wrote its target's replicas: message is its event, details.rescale
  | 'FailedGetResourceMetric' // an HPA could not compute (a container without a cpu request): upstream's error
  // jobs
  | 'JobComplete' //      a Job's Complete condition: details.reason (CompletionsReached, SuccessPolicy)
  | 'JobFailed' //        a Job's Failed condition: message is its message, details.reason (BackoffLimitExceeded…)
  | 'JobDeleted' //       a Job deleted (ttlSecondsAfterFinished, a CronJob's history limit or Replace)
  | 'CronJobScheduled' // a CronJob created a Job: message "Created job <name>"
  | 'CronJobSkipped' //   a CronJob did not create a due Job: details.reason (JobAlreadyActive, MissSchedule…)
  // storage
  | 'ClaimCreated' //     a controller created a PersistentVolumeClaim (a StatefulSet's volumeClaimTemplates)
  | 'ClaimBound' //       a claim was bound to a volume (provisioned or found); `node` when it was bound for a pod
  | 'ClaimDeleted' //     a StatefulSet's claim deleted with its scaled-down pod (whenScaled: Delete)
  | 'ProvisioningFailed' // the PV controller could not provision the claim's volume (its class does not exist)
  // nodes
  | 'NodeAdded'
  | 'NodeRemoved' //     the cluster autoscaler deleted the node (scale-down); pods still on it are gone with it
  | 'NodeCordoned'
  | 'NodeNotReady'
  | 'NodeTainted'
  | 'NodeUntainted' //   a taint a controller had added is removed (memory pressure over)
  | 'NodeHasInsufficientMemory' // the kubelet set the MemoryPressure condition True (eviction threshold met)
  | 'NodeHasSufficientMemory' //   MemoryPressure back to False (after the pressure transition period)
  | 'DrainStarted'
  | 'DrainCompleted'
  | 'DrainBlocked' //     an eviction refused by a PodDisruptionBudget: details.disruptionBudget
  // cluster autoscaler (cluster-autoscaler's event reasons and messages)
  | 'TriggeredScaleUp' // on a pod: "pod triggered scale-up: [{workers 2->3 (max: 5)}]"
  | 'NotTriggerScaleUp' // on a pod: "pod didn't trigger scale-up: 1 max node group size reached, …"
  | 'ScaleDown' //        on a node: "marked the node as toBeDeleted/unschedulable"; details.reason: why it was unneeded
  | 'ScaleDownFailed' //  on a node: an eviction of the scale-down was refused; the node stays
  // disruption budgets
  | 'EvictionAllowed'
  | 'EvictionBlocked'
  // a Kubernetes Event and nothing else: reason, source and involvedObject say what (Pulled, Killing, NoPods…)
  | 'KubernetesEvent'
  // what-if scenarios
  | 'ScenarioStep'; //   a step of the scenario ran (its effects follow): details.scenarioStep says where it was written

/** The object an event is about. */
export interface TimelineObjectRef {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/** The object a Kubernetes Event is about (involvedObject), with the container it names for the kubelet's. */
export interface KubernetesInvolvedObject extends TimelineObjectRef {
  /** The kubelet's container events: "spec.containers{app}", "spec.initContainers{init}". */
  readonly fieldPath?: string;
}

/** The component that records a Kubernetes Event (source.component, or reportingController), and its node. */
export interface KubernetesEventSource {
  /** "default-scheduler", "kubelet", "replicaset-controller", "cluster-autoscaler"… */
  readonly component: string;
  /** The kubelet's node (source.host): `kubectl get events -o wide` prints "kubelet, worker-1". */
  readonly host?: string;
}

/**
 * A rollout step as the deployment (or statefulset, daemonset) controller reaches it; on RolloutComplete and
 * ProgressDeadlineExceeded, the counts when the rollout ended.
 */
export interface RolloutStepDetails {
  readonly newReplicas: number;
  readonly oldReplicas: number;
  readonly available: number;
  readonly unavailable: number;
}

/** The actions of a scenario's steps (server/src/engine/scenario/scenario-spec.ts). */
export type ScenarioStepAction = 'drain' | 'failNode' | 'scale' | 'addNode' | 'load' | 'memoryPressure';

/**
 * Where a scenario step was written, so that a reader can tell a what-if of the cluster file (which every folder
 * simulated on that cluster gets) from one asked on the command line.
 */
export interface ScenarioStepDetails {
  readonly action: ScenarioStepAction;
  /** 'clusterFile': a `kind: Scenario` document of the cluster file; 'flag': a flag of `foresight simulate`. */
  readonly from: 'clusterFile' | 'flag';
  /** clusterFile: the file as the simulation named it (a path or a URI); flag: the flag as given ("--drain w1@60"). */
  readonly source: string;
  /** clusterFile: the Scenario document's metadata.name, when it has one. */
  readonly scenario?: string;
}

/** Structured details; which fields are set depends on the event type. */
export interface TimelineEventDetails {
  /** PodCreated: the workload that owns the pod (null for a bare pod). */
  readonly owner?: { readonly kind: string; readonly name: string } | null;
  /** PodCreated: which ReplicaSet generation (for a rollout: "old" or "new"). */
  readonly revision?: 'old' | 'new';
  /** PodCreated: effective requests, cpu in millicores and memory in bytes. */
  readonly requests?: { readonly cpuMilli: number; readonly memoryBytes: number };
  /** PodPhaseChanged: the new phase; PodCreated of a pod running before the simulation: its phase. */
  readonly phase?: PodDisplayPhase;
  /** PodEvicted, DrainBlocked, EvictionBlocked, JobComplete, JobFailed, CronJobSkipped: why. */
  readonly reason?: string;
  /** DrainBlocked, EvictionBlocked, EvictionAllowed: the PodDisruptionBudget, "namespace/name". */
  readonly disruptionBudget?: string;
  /** RolloutStep: the controller's numbers; RolloutComplete, ProgressDeadlineExceeded: the numbers at the end. */
  readonly rollout?: RolloutStepDetails;
  /** ScenarioStep: the step's action and where it was written. */
  readonly scenarioStep?: ScenarioStepDetails;
  /** SuccessfulRescale: the scale target ("Kind/name") and its replicas before and after. */
  readonly rescale?: { readonly target: string; readonly from: number; readonly to: number };
  /** NodeAdded: allocatable cpu (millicores) and memory (bytes). */
  readonly allocatable?: { readonly cpuMilli: number; readonly memoryBytes: number; readonly pods: number };
}

/** One event of the timeline. */
export interface TimelineEvent {
  /** Seconds since the simulation started. */
  readonly time: number;
  readonly type: TimelineEventType;
  readonly object: TimelineObjectRef;
  /** The node involved, if any. */
  readonly node: string | null;
  /**
   * A sentence for people (kube-scheduler's and controllers' wording where they have one); with a `reason`, the
   * Kubernetes Event's message.
   */
  readonly message: string;
  readonly details?: TimelineEventDetails;
  /** The Kubernetes Event's reason (Scheduled, FailedScheduling, SuccessfulCreate, Pulling…), when there is one. */
  readonly reason?: string;
  /** Its type, Normal or Warning (kubectl events' TYPE). */
  readonly eventType?: 'Normal' | 'Warning';
  /** Who records it. */
  readonly source?: KubernetesEventSource;
  /** What it is about (kubectl events' OBJECT): a ReplicaSet for SuccessfulCreate, where `object` is the pod. */
  readonly involvedObject?: KubernetesInvolvedObject;
}
