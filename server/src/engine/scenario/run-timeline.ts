/**
 * The timeline simulation, end to end: the cluster file's running state (initial-state.ts), `kubectl apply` of the
 * manifests at time 0 (apply-manifests.ts), then the controllers, kubelets and scheduler react to each other over
 * simulated time, with the scenario's steps at their times, until nothing is left to do (or `until`). Pure and
 * deterministic: the same input gives the same events, in the same order.
 */
import type { TimelineEvent } from '../../../../protocol/timeline';
import { flattenLists, loadCluster } from '../model/load/cluster-load';
import type { PodLoadMemo } from '../model/load/pod-load-memo';
import type { SourcedObject } from '../model/load/cluster-load';
import {
  DEFAULT_CLUSTER_DESCRIPTION,
  DEFAULT_CLUSTER_PROFILE,
  defaultClusterObjects,
} from '../model/load/default-cluster';
import { profileNameOf } from '../model/load/profiles/cluster-profile';
import { DEFAULT_PROFILE } from '../scheduler/profile';
import type { SchedulerProfile } from '../scheduler/profile';
import type { RecordDetail, SchedulingRecord } from '../scheduler/record';
import { IN_TREE_REGISTRY } from '../scheduler/registry';
import type { PluginRegistry } from '../scheduler/registry';
import type { Scheduler } from '../scheduler/scheduler';
import { Simulation } from '../sim/run-loop';
import { TimelineRecorder } from '../sim/timeline-recorder';
import { DEFAULT_KUBERNETES_VERSION, isAtLeast } from '../version';
import { isActive } from '../apiserver/sim-pod';
import type { KubernetesMinor } from '../version';
import { indexAutoscalers } from '../workloads/autoscalers';
import { asObject, isJsonObject, readString } from '../model/json';
import { BudgetIndex } from '../apiserver/budget-index';
import { ClusterState } from '../apiserver/cluster-state';
import { DaemonSetController } from '../controllers/daemon/daemon-set-controller';
import { DeploymentController } from '../controllers/deployment/deployment-controller';
import { DisruptionController } from '../controllers/disruption/disruption-controller';
import { controllerClaimAdmission } from '../admission/admit-claim';
import { VolumeController } from '../controllers/volume/volume-controller';
import { readControllerRevisions } from './state/applied-template';
import type { LiveObjects } from './apply-manifests';
import { assumedStorageClasses } from '../model/load/assumed-storage';
import { captureHeaderOf } from '../model/load/capture-header';
import { withCaptureNotes } from '../model/load/capture-notes';
import type { StorageObjects } from '../model/snapshot/storage-objects';
import { Kubelets } from '../kubelet/kubelet';
import { NodeLifecycle } from '../controllers/nodelifecycle/node-lifecycle';
import { EvictionManager } from '../kubelet/eviction-manager';
import { HpaController } from '../controllers/podautoscaler/hpa-controller';
import { ScaleSubresource } from '../apiserver/scale-subresource';
import { PodFactory } from '../apiserver/pod-factory';
import { ReplicaSetController } from '../controllers/replicaset/replica-set-controller';
import { RolloutLog } from '../controllers/rollout-log';
import { SchedulerLoop, buildScheduler } from '../scheduler/queue/scheduler-loop';
import { StatefulSetController } from '../controllers/statefulset/stateful-set-controller';
import type { TimingSettings } from '../sim/timing-settings';
import { DEFAULT_TIMING, applyEpochSeconds } from '../sim/timing-settings';
import { startBatchControllers } from './batch-controllers';
import { checkJobs } from './report/job-checks';
import { readClusterJobs } from './state/read-jobs';
import { admitManifests } from '../admission/admit-manifests';
import type { ApiServing } from '../admission/api-discovery';
import { knownObjects } from '../admission/known-objects';
import { defaultPodAdmission } from '../admission/pod-admission';
import type { RejectedObject } from '../admission/rejected';
import { withRefusedReplicas } from './report/refused-replicas';
import { ObjectQuotaLedger } from '../admission/plugins/object-count-quota';
import { readConfigObjects } from '../model/load/config-objects';
import { applyManifests } from './apply-manifests';
import { noteOperatorObjects, operatorObjects } from './state/operator-objects';
import { buildInitialState } from './state/initial-state';
import { takeClusterPodNames } from './state/cluster-pod-names';
import { scheduleSteps } from './run-steps';
import type { AutoscalerLog } from '../autoscaler/autoscaler-log';
import { checkAutoscaler } from '../autoscaler/autoscaler-findings';
import { readNodeGroups, startAutoscaler } from '../autoscaler/start-autoscaler';
import type { ScenarioDrain } from './run-steps';
import type { Scenario } from './scenario-spec';
import { readScenario } from './scenario-spec';
import { splitClusterObjects } from './cluster-split';
import {
  checkBudgets,
  checkDrains,
  checkRollouts,
  checkStartFailures,
  checkPendingClaims,
  checkStuckStatefulPods,
} from './report/timeline-checks';
import type { Finding } from '../../../../protocol/finding';
import { appendAll, assignAll } from '../../../../protocol/collections';
import { PodClassKeys } from '../scheduler/equivalence-cache';

/** Kinds of a cluster file only the timeline reads (the scheduler's cluster loader ignores them). */
export const TIMELINE_ONLY_KINDS: ReadonlySet<string> = new Set([
  'DaemonSet',
  'HorizontalPodAutoscaler',
  'ControllerRevision',
  'Job',
  'CronJob',
]);

/** The kinds of a cluster file that describe running workloads (the timeline's initial state). */
const RUNNING_WORKLOAD_KINDS: ReadonlySet<string> = new Set([
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'PodDisruptionBudget',
  'HorizontalPodAutoscaler',
  'ControllerRevision',
  'Job',
  'CronJob',
]);

/** What to simulate over time. */
interface TimelineInput {
  readonly manifests: readonly SourcedObject[];
  /** The cluster file's objects, or null for the embedded default cluster. */
  readonly cluster: readonly SourcedObject[] | null;
  readonly clusterDescription?: string;
  readonly version?: KubernetesMinor;
  readonly profiles?: readonly SchedulerProfile[];
  readonly registry?: PluginRegistry;
  readonly detail?: RecordDetail;
  /** Steps from elsewhere (CLI flags), run with the cluster file's scenario. */
  readonly scenario?: Scenario;
  /** Stop at this time (seconds); by default the simulation runs until the cluster settles. */
  readonly until?: number | null;
  /** Timing overrides, over the scenario's and the defaults. */
  readonly timing?: Partial<TimingSettings>;
  /** Asked between tasks: true abandons the run (see Simulation.run). */
  readonly shouldStop?: () => boolean;
  /** Which apiVersion/kind pairs the simulated API server serves (all, when absent). */
  readonly apiServing?: ApiServing;
  /** Whether pods of one class share failed verdicts (scheduler/equivalence-cache.ts); default true. */
  readonly equivalenceCache?: boolean;
  /** The cluster file's pods as another load of the same simulation made them (model/load/pod-load-memo.ts). */
  readonly podMemo?: PodLoadMemo;
}

/** The outcome of a timeline simulation. */
export interface TimelineResult {
  readonly events: readonly TimelineEvent[];
  readonly state: ClusterState;
  readonly index: BudgetIndex;
  readonly rollouts: RolloutLog;
  readonly drains: readonly ScenarioDrain[];
  /** The last scheduling record of each pod, by key. */
  readonly records: ReadonlyMap<string, SchedulingRecord>;
  readonly findings: readonly Finding[];
  readonly settings: TimingSettings;
  readonly endTime: number;
  readonly stoppedAtLimit: boolean;
  /** What the API server refused: objects of the apply, and pods controllers tried to create. */
  readonly rejected: readonly RejectedObject[];
  /** Claims, volumes and classes as the run left them. */
  readonly storage: StorageObjects;
  /** What the cluster autoscaler did, or null when the cluster file has no NodeGroup. */
  readonly autoscaler: AutoscalerLog | null;
}

/** Runs the timeline simulation. */
export function simulateTimeline(input: TimelineInput): TimelineResult {
  const version = input.version ?? DEFAULT_KUBERNETES_VERSION;
  const findings: Finding[] = [];
  const timelineFindings: Finding[] = [];
  const workloadFindings: Finding[] = [];
  // The cluster file's lists expanded once: a capture's List holds 150,000 pods, and every reader below walks it.
  const clusterObjects = flattenLists(input.cluster ?? defaultClusterObjects());
  const fileObjects = input.cluster === null ? null : clusterObjects;
  // A capture without StorageClasses is given the classes it cannot show (model/load/assumed-storage.ts).
  const assumedClasses = assumedStorageClasses(fileObjects, flattenLists(input.manifests));
  appendAll(findings, assumedClasses.findings);
  // The API server's door: objects whose kind is not served are refused and never simulated.
  const known = knownObjects(fileObjects, flattenLists(input.manifests), assumedClasses.objects);
  const quotaLedger = new ObjectQuotaLedger(known.quotas, input.cluster === null ? [] : clusterObjects);
  const admission = admitManifests(flattenLists(input.manifests), input.apiServing, known, quotaLedger);
  const manifests = admission.admitted;
  const rejected: RejectedObject[] = [...admission.rejected];
  appendAll(findings, admission.findings);
  // The embedded default has node groups too (model/load/default-cluster.ts): it is the profile `default`.
  const { workloads, rest, ...split } = splitClusterObjects(
    clusterObjects,
    RUNNING_WORKLOAD_KINDS,
    TIMELINE_ONLY_KINDS,
  );
  const nodeGroups = readNodeGroups(split.nodeGroups, findings);
  const scenarios: Scenario[] = [];
  for (const { object, source } of split.scenarios) {
    if (isJsonObject(object)) {
      scenarios.push(readScenario(object, source, timelineFindings));
    }
  }
  if (input.scenario !== undefined) {
    scenarios.push(input.scenario);
  }
  // One Scenario object per document of the cluster file: any number of them, so no spread into a call.
  const scenarioTiming = assignAll<Partial<TimingSettings>>(
    {},
    scenarios.map((scenario) => scenario.timing),
  );
  // A capture's header says when it was taken: that is time 0, unless a Scenario or the caller sets applyTime.
  const header = captureHeaderOf(input.cluster === null ? null : clusterObjects);
  const capturedAt = header?.capturedAt ?? null;
  const captureTiming = capturedAt === null ? {} : { applyTime: capturedAt };
  const settings: TimingSettings = {
    ...DEFAULT_TIMING,
    ...captureTiming,
    ...scenarioTiming,
    ...input.timing,
  };
  const loaded = loadCluster(rest, {
    version,
    description:
      input.cluster === null ? DEFAULT_CLUSTER_DESCRIPTION : (input.clusterDescription ?? 'cluster file'),
    // Assumed classes are not the cluster file's: a finding about the cluster file never points at them.
    extraObjects: [...assumedClasses.objects, ...manifests],
    ...(input.podMemo === undefined ? {} : { podMemo: input.podMemo }),
  });
  appendAll(findings, loaded.findings);
  const cluster = loaded.cluster;
  const autoscalers = indexAutoscalers(
    [...workloads, ...manifests].map((entry) => entry.object).filter(isJsonObject),
  );

  // The running workloads as captured, and their ControllerRevisions: what an apply changes is read against them.
  const live: LiveObjects = {
    objects: new Map(
      workloads.flatMap(({ object }) => {
        if (!isJsonObject(object)) {
          return [];
        }
        const metadata = asObject(object['metadata']);
        const key = `${String(object['kind'])}/${readString(metadata['namespace']) ?? 'default'}/${readString(metadata['name']) ?? ''}`;
        return [[key, object] as const];
      }),
    ),
    revisions: readControllerRevisions(workloads),
  };
  const sim = new Simulation();
  const timeline = new TimelineRecorder();
  const state = new ClusterState(sim, timeline);
  // One walk over the cluster file's pods (150,000 in the largest capture): their names are taken, and the latest
  // start time read for the clock below.
  const { names, latestStart } = takeClusterPodNames(cluster, input.podMemo);
  // One clock: t=0 is the apply time (timing applyTime, which CronJob schedules read), moved after every start
  // time of the cluster file when the capture is newer, so that pods the simulation starts are the youngest.
  state.startEpoch = Math.max(applyEpochSeconds(settings), latestStart + 1);
  const podFindings: Finding[] = [];
  const factory = new PodFactory(
    state,
    names,
    version,
    cluster.priorityClasses,
    podFindings,
    rejected,
    defaultPodAdmission(
      cluster.priorityClasses,
      known,
      (namespace) =>
        [...state.pods.values()]
          .filter((pod) => pod.namespace === namespace && isActive(pod))
          .map((pod) => pod.info.pod as Record<string, unknown>),
      isAtLeast(version, '1.34'),
      cluster.namespaceLabels,
    ),
  );
  const setup = {
    profiles: input.profiles ?? [DEFAULT_PROFILE],
    registry: input.registry ?? IN_TREE_REGISTRY,
    version,
    detail: input.detail ?? 'compact',
    base: cluster,
    equivalenceCache: input.equivalenceCache ?? true,
    podClassKeys: new PodClassKeys(),
  };
  let placer: Scheduler | null = null;
  // The cluster file's pods exist already: they were admitted when they were created.
  factory.admitting = false;
  const pending = buildInitialState({
    state,
    cluster,
    workloads,
    autoscalers,
    factory,
    place: (pod) => {
      placer ??= buildScheduler(state, setup);
      return placer.scheduleOne(pod.info).nodeName;
    },
    findings: timelineFindings,
    revisions: live.revisions,
    finishedPods: loaded.finishedPods,
  });
  factory.admitting = true;
  readClusterJobs(state, workloads, state.startEpoch);
  const created = applyManifests({
    state,
    factory,
    manifests,
    autoscalers,
    nodes: cluster.nodes.map((node) => node.node),
    findings: timelineFindings,
    workloadFindings,
    live,
    applyEpoch: state.startEpoch,
  });

  const rollouts = new RolloutLog(state);
  const volumes = new VolumeController(
    state,
    cluster.objects.storage,
    known.defaultStorageClass,
    timelineFindings,
    controllerClaimAdmission(known, quotaLedger),
    rejected,
  );
  const context = { state, settings, version, pods: factory, rollouts, findings: timelineFindings, volumes };
  const configObjects = readConfigObjects(fileObjects, manifests);
  const kubelets = new Kubelets(
    state,
    settings,
    configObjects,
    timelineFindings,
    version,
    cluster.objects.storage,
  );
  const scheduler = new SchedulerLoop(state, settings, setup);
  scheduler.preBind = (pod, node) => volumes.preBind(pod, node);
  volumes.syncAll();
  const replicaSets = new ReplicaSetController(context);
  const deployments = new DeploymentController(context);
  const statefulSets = new StatefulSetController(context);
  const daemonSets = new DaemonSetController(context);
  for (const pod of state.pods.values()) {
    if (pod.controllerRef?.kind === 'DaemonSet' && pod.nodeName !== null) {
      daemonSets.adopt(pod, pod.nodeName);
    }
  }
  const index = new BudgetIndex(state);
  const disruption = new DisruptionController(
    state,
    index,
    replicationControllerScales([...clusterObjects, ...manifests]),
  );
  const lifecycle = new NodeLifecycle(state, settings);
  disruption.syncAllNow();
  lifecycle.evictForCapturedTaints(capturedAt === null ? null : state.startEpoch);

  for (const pod of [...pending, ...created]) {
    state.createPod(pod, `Created pod: ${pod.name}`);
  }
  replicaSets.syncAll();
  for (const key of state.deployments.keys()) {
    deployments.enqueue(key);
  }
  for (const key of state.statefulSets.keys()) {
    statefulSets.enqueue(key);
  }
  for (const key of state.daemonSets.keys()) {
    daemonSets.enqueue(key);
  }
  const scale = new ScaleSubresource(state, (kind, key) =>
    kind === 'Deployment' ? deployments.enqueue(key) : statefulSets.enqueue(key),
  );
  const steps = scenarios.flatMap((scenario) => scenario.steps);
  const drains = scheduleSteps(steps, {
    state,
    index,
    settings,
    lifecycle,
    scale,
    autoscalers: new HpaController(state, autoscalers, scale, timelineFindings),
    evictions: new EvictionManager(state),
    findings: timelineFindings,
  });
  const autoscaler = startAutoscaler(
    state,
    index,
    nodeGroups,
    scenarios.map((scenario) => scenario.autoscaler ?? {}),
    setup,
    [...(input.cluster === null ? [] : clusterObjects), ...manifests],
    timelineFindings,
  );
  const until =
    input.until ?? scenarios.map((scenario) => scenario.until).find((value) => value !== null) ?? null;
  startBatchControllers(context, kubelets, until);
  const outcome = sim.run(until ?? Number.POSITIVE_INFINITY, input.shouldStop);

  checkRollouts(state, rollouts, outcome.stoppedAtLimit, timelineFindings);
  const operators = operatorObjects(manifests);
  noteOperatorObjects(operators, timelineFindings);
  checkBudgets(state, index, operators, timelineFindings);
  checkDrains(drains, outcome.stoppedAtLimit, outcome.endTime, timelineFindings);
  checkStuckStatefulPods(state, timelineFindings);
  checkStartFailures(state, timelineFindings);
  checkPendingClaims(state, cluster.objects.storage, timelineFindings);
  checkJobs(state, timelineFindings);
  if (autoscaler !== null) {
    checkAutoscaler(state, autoscaler.log, timelineFindings, {
      profile: input.cluster === null ? DEFAULT_CLUSTER_PROFILE.name : profileNameOf(input.cluster),
      shapes: [
        ...cluster.nodes.map((node) => node.allocatable),
        ...nodeGroups.map((group) => group.template.allocatable),
      ],
    });
  }
  appendAll(findings, [...workloadFindings, ...podFindings, ...timelineFindings]);
  return {
    events: timeline.events,
    state,
    index,
    rollouts,
    drains,
    records: scheduler.records,
    findings: withCaptureNotes(findings, header),
    settings,
    endTime: outcome.endTime,
    stoppedAtLimit: outcome.stoppedAtLimit,
    rejected: withRefusedReplicas(rejected, state),
    storage: cluster.objects.storage,
    autoscaler: autoscaler?.log ?? null,
  };
}

/** spec.replicas (default 1) of each ReplicationController, by "namespace/name" (the apply's replace the cluster's). */
function replicationControllerScales(objects: readonly SourcedObject[]): Map<string, number> {
  const scales = new Map<string, number>();
  for (const { object } of objects) {
    if (!isJsonObject(object) || object['kind'] !== 'ReplicationController') {
      continue;
    }
    const metadata = asObject(object['metadata']);
    const replicas = asObject(object['spec'])['replicas'];
    scales.set(
      `${readString(metadata['namespace']) ?? 'default'}/${readString(metadata['name']) ?? ''}`,
      typeof replicas === 'number' && Number.isInteger(replicas) && replicas >= 0 ? replicas : 1,
    );
  }
  return scales;
}
