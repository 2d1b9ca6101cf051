/**
 * One call from Kubernetes objects to a prediction: load the cluster (a cluster file's objects, or the embedded
 * default cluster), read its KubeSchedulerConfiguration if any (scheduler/config), then run the one simulation
 * (scenario/run-timeline.ts): `kubectl apply` at t=0, the controllers create the pods, the scheduler places them,
 * the kubelets start them, over simulated time. The report's pods are those of that run at its end, so the pods
 * table, the rollouts and the events cannot disagree. Pure and deterministic.
 *
 * PriorityClasses and Namespaces in the manifests count.
 */
import { flattenLists, loadCluster } from '../model/load/cluster-load';
import { PodLoadMemo } from '../model/load/pod-load-memo';
import type { SourcedObject } from '../model/load/cluster-load';
import {
  DEFAULT_CLUSTER_DESCRIPTION,
  DEFAULT_CLUSTER_PROFILE,
  defaultClusterObjects,
} from '../model/load/default-cluster';
import { profileNameOf } from '../model/load/profiles/cluster-profile';
import { captureVersionNote } from './capture-version';
import { engineFinding } from '../model/findings';
import { withoutNullListItems } from '../model/load/null-items';
import { keptCluster } from './kept-cluster';
import { MAX_EXPANDED_PODS } from '../workloads/types';
import { indexAutoscalers } from '../workloads/autoscalers';
import { isJsonObject } from '../model/json';
import { podLimitFinding } from '../scenario/pod-limit';
import type { ApiServing } from '../admission/api-discovery';
import { buildFramework } from '../scheduler/framework/build-framework';
import type { SchedulerFramework } from '../scheduler/framework/framework';
import { parseSchedulerConfiguration } from '../scheduler/config';
import { DEFAULT_PROFILE } from '../scheduler/profile';
import type { SchedulerProfile } from '../scheduler/profile';
import type { RecordDetail, SchedulingRecord } from '../scheduler/record';
import { IN_TREE_REGISTRY } from '../scheduler/registry';
import type { PluginRegistry } from '../scheduler/registry';
import { isAtLeast, DEFAULT_KUBERNETES_VERSION } from '../version';
import type { KubernetesMinor } from '../version';
import { runTimelineForReport } from '../scenario/attach-timeline';
import type { DrainCoverage } from '../scenario/report/timeline-report';
import type { TimelineOptions } from '../scenario/attach-timeline';
import { REPORT_API_VERSION } from './report';
import { reportNode } from '../scenario/report/report-entries';
import type { ReportCluster, SimulationReport } from './report';
import type { Finding } from '../../../../protocol/finding';
import { appendAll } from '../../../../protocol/collections';

/** What to simulate. */
interface SimulationInput {
  /** The user's manifests (workloads, pods, PriorityClasses, Namespaces…). */
  readonly manifests: readonly SourcedObject[];
  /** The cluster file's objects, or null for the embedded default cluster. */
  readonly cluster: readonly SourcedObject[] | null;
  /** How reports name the cluster source (file names); defaults to the embedded cluster's description. */
  readonly clusterDescription?: string;
  readonly version?: KubernetesMinor;
  /** 'compact' (default) keeps what explains failures; 'full' every node's filter outcome and scores. */
  readonly detail?: RecordDetail;
  /** Plugins available to profiles (defaults to the in-tree registry). */
  readonly registry?: PluginRegistry;
  /** The timeline's scenario steps, end time and timing. */
  readonly timeline?: TimelineOptions;
  /**
   * Which apiVersion/kind pairs the simulated API server serves (from the API history of `version`); an object of
   * a kind not served is refused as kubectl refuses it. When absent, every kind is taken as served.
   */
  readonly apiServing?: ApiServing;
  /**
   * The most pods simulated (default MAX_EXPANDED_PODS): beyond it nothing is scheduled or replayed and a
   * finding says so, instead of the memory and minutes `replicas: 1000000` would take.
   */
  readonly maxPods?: number;
  /**
   * Whether pods of one class that fail on an unchanged cluster share one verdict (scheduler/equivalence-cache.ts;
   * default true). The report is the same either way; false computes every cycle, as the differential test's
   * reference.
   */
  readonly equivalenceCache?: boolean;
  /**
   * Which nodes the report's drains cover: 'every-node' (default) analyses a drain of each node; 'budget-held'
   * only of the nodes running a pod a PodDisruptionBudget selects, the only drains a budget can hold up (the
   * editor shows no other: on a 5,000-node capture the analyses were about 130 ms of each keystroke's run). A
   * drain the scenario runs is always reported.
   */
  readonly drains?: DrainCoverage;
}

/** The outcome: the report, the detailed records (input order) and every finding. */
export interface SimulationResult {
  readonly report: SimulationReport;
  readonly records: readonly SchedulingRecord[];
  readonly findings: readonly Finding[];
}

/** Runs the simulation. */
export function simulate(rawInput: SimulationInput): SimulationResult {
  const inputFindings: Finding[] = [];
  const manifests = withoutNullListItems(rawInput.manifests, inputFindings);
  // A cluster array given before: its objects, findings and pod binding as the first call made them.
  const kept = rawInput.cluster === null ? null : keptCluster(rawInput.cluster);
  appendAll(inputFindings, kept?.findings ?? []);
  const input: SimulationInput = { ...rawInput, manifests, cluster: kept?.objects ?? null };
  const version = input.version ?? DEFAULT_KUBERNETES_VERSION;
  const findings: Finding[] = [...inputFindings];
  const clusterObjects = kept === null ? defaultClusterObjects() : kept.modelObjects;
  // The timeline loads the cluster again for its run: the pods loaded here are reused there (and by later calls
  // with the same cluster array, kept-cluster.ts).
  const podMemo = kept?.podMemo ?? new PodLoadMemo();
  const loaded = loadCluster(clusterObjects, {
    podMemo,
    // This cluster is read, never run: its profiles, plugin findings, node count and the report's base (the
    // timeline runs on a cluster of its own).
    isReadOnly: true,
    version,
    description:
      input.cluster === null ? DEFAULT_CLUSTER_DESCRIPTION : (input.clusterDescription ?? 'cluster file'),
    extraObjects: input.manifests,
  });
  appendAll(findings, loaded.findings);
  const versionNote = captureVersionNote(loaded.captureHeader, version);
  if (versionNote !== null) {
    findings.push(versionNote);
  }
  const cluster = loaded.cluster;
  const profile = input.cluster === null ? DEFAULT_CLUSTER_PROFILE.name : profileNameOf(input.cluster);
  const clusterKind: Pick<ReportCluster, 'kind' | 'profile'> =
    profile !== null
      ? { kind: 'profile', profile }
      : { kind: loaded.captureHeader === null ? 'file' : 'capture' };

  const profiles = readProfiles(loaded.schedulerConfigurations, version, findings);
  const frameworks = new Map<string, SchedulerFramework>();
  for (const profile of profiles) {
    const built = buildFramework(profile, input.registry ?? IN_TREE_REGISTRY, cluster, version);
    appendAll(findings, built.findings);
    frameworks.set(profile.schedulerName, built.framework);
  }

  const maxPods = input.maxPods ?? MAX_EXPANDED_PODS;
  const autoscalers = indexAutoscalers([
    ...flattenLists(input.manifests)
      .map((entry) => entry.object)
      .filter(isJsonObject),
    ...(kept?.autoscalers ?? []),
  ]);
  const limit = podLimitFinding(flattenLists(input.manifests), autoscalers, cluster.nodes.length, maxPods);
  if (limit !== null) {
    findings.push(limit);
  }
  const clusterReplicas = kept?.declaredReplicas ?? 0;
  if (clusterReplicas > maxPods) {
    findings.push(
      engineFinding(
        'too-many-pods',
        input.cluster?.[0]?.source ?? { file: '', documentIndex: 0, path: [] },
        [],
        `The cluster file's workloads declare ${clusterReplicas.toLocaleString('en-US')} replicas, more than the ${maxPods.toLocaleString('en-US')} pods one simulation creates; nothing was simulated.`,
      ),
    );
  }
  if (limit !== null || clusterReplicas > maxPods) {
    return {
      report: {
        apiVersion: REPORT_API_VERSION,
        kubernetesVersion: version,
        cluster: { ...clusterKind, source: cluster.description, nodes: cluster.nodes.map(reportNode) },
        pods: [],
        rejected: [],
        findings,
      },
      records: [],
      findings,
    };
  }
  // One simulation: kubectl apply at t=0, then the controllers, the scheduler and the kubelets over simulated
  // time. The report's pods, nodes, rollouts, budgets and events all come from this one run.
  const timeline = runTimelineForReport(
    { ...input, version, profiles, options: input.timeline ?? {}, podMemo },
    cluster,
    isAtLeast(version, '1.34'),
    findings,
  );
  appendAll(findings, timeline.findings);
  const report: SimulationReport = {
    apiVersion: REPORT_API_VERSION,
    kubernetesVersion: version,
    cluster: { ...clusterKind, source: cluster.description, nodes: timeline.pods.nodes },
    pods: timeline.pods.pods,
    rejected: timeline.rejected,
    findings,
    ...timeline.sections,
  };
  return { report, records: timeline.pods.records, findings };
}

function readProfiles(
  configurations: readonly SourcedObject[],
  version: KubernetesMinor,
  findings: Finding[],
): readonly SchedulerProfile[] {
  const [first, ...others] = configurations;
  for (const other of others) {
    const message = 'only the first KubeSchedulerConfiguration is used; this one is ignored';
    findings.push(engineFinding('ignored-object', other.source, [], message));
  }
  if (first === undefined) {
    return [DEFAULT_PROFILE];
  }
  const parsed = parseSchedulerConfiguration(first.object, first.source, { version });
  appendAll(findings, parsed.findings);
  return parsed.profiles.length > 0 ? parsed.profiles : [DEFAULT_PROFILE];
}
