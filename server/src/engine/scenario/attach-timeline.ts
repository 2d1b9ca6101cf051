/**
 * How `simulate()` (simulate/simulate.ts) runs the one simulation for its report: the cluster file's objects are
 * split between the scheduler's cluster (nodes, pods, PriorityClasses…) and the running workloads and scenario the
 * timeline reads; the timeline runs with the profiles simulate() read; its sections, its findings (those the
 * cluster's loading already made are not repeated) and its pods and nodes at the end make the report.
 */
import type { ApiServing } from '../admission/api-discovery';
import type { RejectedObject } from '../admission/rejected';
import type { Cluster } from '../model/snapshot/cluster';
import { flattenLists } from '../model/load/cluster-load';
import type { SourcedObject } from '../model/load/cluster-load';
import type { PodLoadMemo } from '../model/load/pod-load-memo';
import type { SchedulerProfile } from '../scheduler/profile';
import type { RecordDetail } from '../scheduler/record';
import type { PluginRegistry } from '../scheduler/registry';
import type { KubernetesMinor } from '../version';
import { asObject, isJsonObject, readString } from '../model/json';
import type { TimingSettings } from '../sim/timing-settings';
import { TIMELINE_ONLY_KINDS, simulateTimeline } from './run-timeline';
import type { Scenario } from './scenario-spec';
import { isScenarioObject } from './scenario-spec';
import { buildTimelineReport } from './report/timeline-report';
import type { DrainCoverage } from './report/timeline-report';
import type { TimelineReport } from './report/timeline-report';
import { timelinePods } from './report/timeline-pods';
import type { ManifestWorkloads, TimelinePods } from './report/timeline-pods';
import type { Finding } from '../../../../protocol/finding';

/** What the timeline adds to a simulation: steps from elsewhere (CLI), an end time, timing overrides. */
export interface TimelineOptions {
  readonly scenario?: Scenario;
  readonly until?: number | null;
  readonly timing?: Partial<TimingSettings>;
  /** Asked between tasks: true abandons the run (see Simulation.run). */
  readonly shouldStop?: () => boolean;
}

/**
 * The cluster file's objects for the scheduler's cluster: all but what only the timeline reads (scenarios,
 * DaemonSets, HorizontalPodAutoscalers), which the cluster loader would otherwise report as ignored. Services,
 * ReplicaSets, StatefulSets, Deployments and PodDisruptionBudgets stay: scheduler plugins list them.
 */
export function clusterModelObjects(objects: readonly SourcedObject[]): SourcedObject[] {
  return flattenLists(objects).filter(
    (entry) =>
      !isScenarioObject(entry.object) &&
      !(isJsonObject(entry.object) && TIMELINE_ONLY_KINDS.has(String(entry.object['kind']))),
  );
}

/** What the timeline needs from simulate(). */
interface TimelineRequest {
  readonly manifests: readonly SourcedObject[];
  readonly cluster: readonly SourcedObject[] | null;
  readonly clusterDescription?: string;
  readonly version: KubernetesMinor;
  readonly profiles: readonly SchedulerProfile[];
  readonly registry?: PluginRegistry;
  readonly detail?: RecordDetail;
  readonly options: TimelineOptions;
  readonly apiServing?: ApiServing;
  readonly drains?: DrainCoverage;
  readonly equivalenceCache?: boolean;
  readonly podMemo?: PodLoadMemo;
}

/** The timeline's contribution to the report. */
interface TimelineAttachment {
  readonly sections: TimelineReport;
  /** Findings the cluster's loading did not already make. */
  readonly findings: readonly Finding[];
  /** The manifests' pods and the nodes at the end of the run. */
  readonly pods: TimelinePods;
  /** What the API server refused. */
  readonly rejected: readonly RejectedObject[];
}

/** Runs the timeline for simulate(). `known` are the findings already reported. */
export function runTimelineForReport(
  request: TimelineRequest,
  base: Cluster,
  podLevelResources: boolean,
  known: readonly Finding[],
): TimelineAttachment {
  const { options } = request;
  const result = simulateTimeline({
    manifests: request.manifests,
    cluster: request.cluster,
    ...(request.clusterDescription === undefined ? {} : { clusterDescription: request.clusterDescription }),
    version: request.version,
    profiles: request.profiles,
    ...(request.registry === undefined ? {} : { registry: request.registry }),
    ...(request.detail === undefined ? {} : { detail: request.detail }),
    ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
    ...(options.until === undefined ? {} : { until: options.until }),
    ...(options.timing === undefined ? {} : { timing: options.timing }),
    ...(options.shouldStop === undefined ? {} : { shouldStop: options.shouldStop }),
    ...(request.apiServing === undefined ? {} : { apiServing: request.apiServing }),
    ...(request.equivalenceCache === undefined ? {} : { equivalenceCache: request.equivalenceCache }),
    ...(request.podMemo === undefined ? {} : { podMemo: request.podMemo }),
  });
  const seen = new Set(known.map(findingKey));
  const findings = result.findings.filter((finding) => {
    const key = findingKey(finding);
    if (seen.has(key)) {
      return false;
    }
    seen.add(key);
    return true;
  });
  const manifestFiles = new Set(request.manifests.map((entry) => entry.source.file));
  return {
    sections: buildTimelineReport(result, request.drains),
    findings,
    pods: timelinePods(result, manifestFiles, base, podLevelResources, manifestWorkloads(request.manifests)),
    rejected: result.rejected,
  };
}

/** The workloads the manifests name, with where (timeline-pods.ts lists their pods, whatever made them). */
function manifestWorkloads(manifests: readonly SourcedObject[]): ManifestWorkloads {
  const result = new Map<string, { file: string; documentIndex: number }>();
  for (const { object, source } of manifests) {
    if (!isJsonObject(object)) {
      continue;
    }
    const kind = readString(object['kind']);
    const metadata = asObject(object['metadata']);
    const name = readString(metadata['name']);
    if (kind === undefined || name === undefined || !WORKLOAD_KINDS.has(kind)) {
      continue;
    }
    const key = `${readString(metadata['namespace']) ?? 'default'}/${kind}/${name}`;
    if (!result.has(key)) {
      result.set(key, { file: source.file, documentIndex: source.documentIndex });
    }
  }
  return result;
}

const WORKLOAD_KINDS: ReadonlySet<string> = new Set([
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'ReplicationController',
]);

function findingKey(finding: Finding): string {
  const { object } = finding;
  return [
    finding.code,
    object?.file,
    object?.documentIndex,
    object?.path.join('.'),
    finding.path?.join('.'),
    finding.message,
  ].join('|');
}
