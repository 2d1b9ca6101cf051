/**
 * What a manifest cannot say about time, as documented, settable defaults: how long images take to pull, how long
 * a container takes to start, how long an app takes to answer its probes or to exit. Everything else comes from
 * the manifests (probes, minReadySeconds, terminationGracePeriodSeconds, preStop, progressDeadlineSeconds) or from
 * the Kubernetes components' own defaults (named below with their flag).
 */
import { parseRfc3339 } from '../model/rfc3339-time';

/** How a Job's pods fail (timing jobPodFailures): their first `count` runs exit with `exitCode`. */
export interface JobPodFailure {
  /** How many runs fail, per Job (per completion index of an Indexed Job); null: every run. */
  readonly count: number | null;
  /** The failing container's exit code (not 0). */
  readonly exitCode: number;
}

/** Timing assumptions of a simulation. All durations are in seconds. */
export interface TimingSettings {
  /** Pull time of an image no setting names. */
  readonly imagePullSeconds: number;
  /** Pull time per image, by the name written in the manifest ("nginx:1.27"). */
  readonly imagePullSecondsByImage: Readonly<Record<string, number>>;
  /** Images already present on every node, besides those a Node lists in status.images. */
  readonly presentImages: readonly string[];
  /** Images already present per node name. */
  readonly presentImagesByNode: Readonly<Record<string, readonly string[]>>;
  /** kubelet's serializeImagePulls (default true): a node pulls one image at a time. */
  readonly serializeImagePulls: boolean;
  /** From image present to container running: sandbox, create, start. */
  readonly containerStartSeconds: number;
  /** How long each (non-sidecar) init container runs before it exits successfully. */
  readonly initContainerSeconds: number;
  /** How long after its container starts an app answers its startup and readiness probes. */
  readonly appStartSeconds: number;
  /** How long after SIGTERM (and preStop) an app exits, at most terminationGracePeriodSeconds. */
  readonly appStopSeconds: number;
  /** A preStop exec or httpGet hook's duration when it is not a recognisable `sleep N`. */
  readonly preStopSeconds: number;
  /** kube-controller-manager --node-monitor-grace-period: 50s since 1.29 (40s before). */
  readonly nodeMonitorGracePeriodSeconds: number;
  /** kube-scheduler podInitialBackoffSeconds (1) and podMaxBackoffSeconds (10). */
  readonly podInitialBackoffSeconds: number;
  readonly podMaxBackoffSeconds: number;
  /** kubectl drain's wait before retrying an eviction a disruption budget refused (5s). */
  readonly drainRetrySeconds: number;
  /** How long a Job pod's containers run before they exit (from the moment they run). */
  readonly jobPodRunSeconds: number;
  /** The same per image, by the name written in the manifest; a pod runs as long as its slowest container. */
  readonly jobPodRunSecondsByImage: Readonly<Record<string, number>>;
  /**
   * Job pods that fail, by "<namespace>/<Job name>" or "<namespace>/<CronJob name>" (then for each Job it
   * creates). Job pods not named here succeed.
   */
  readonly jobPodFailures: Readonly<Record<string, JobPodFailure>>;
  /**
   * The wall-clock instant of time 0 (the apply), RFC 3339: CronJob schedules are read against it, so a run is
   * the same whatever day it runs on. When the cluster file's pods started later, time 0 is just after the last of
   * them (pods the simulation starts are the youngest: preemption weighs start times).
   */
  readonly applyTime: string;
  /**
   * Without an end time (--until, spec.until), CronJobs create the Jobs due within this many seconds of the
   * apply, so that the simulation still ends.
   */
  readonly cronJobHorizonSeconds: number;
}

/** The defaults. */
export const DEFAULT_TIMING: TimingSettings = {
  imagePullSeconds: 10,
  imagePullSecondsByImage: {},
  presentImages: [],
  presentImagesByNode: {},
  serializeImagePulls: true,
  containerStartSeconds: 1,
  initContainerSeconds: 5,
  appStartSeconds: 0,
  appStopSeconds: 1,
  preStopSeconds: 0,
  nodeMonitorGracePeriodSeconds: 50,
  podInitialBackoffSeconds: 1,
  podMaxBackoffSeconds: 10,
  drainRetrySeconds: 5,
  jobPodRunSeconds: 30,
  jobPodRunSecondsByImage: {},
  jobPodFailures: {},
  applyTime: '2026-01-01T00:00:00Z',
  cronJobHorizonSeconds: 3600,
};

/** The names of the numeric settings a scenario may set. */
export const NUMERIC_TIMING_KEYS = [
  'imagePullSeconds',
  'containerStartSeconds',
  'initContainerSeconds',
  'appStartSeconds',
  'appStopSeconds',
  'preStopSeconds',
  'nodeMonitorGracePeriodSeconds',
  'podInitialBackoffSeconds',
  'podMaxBackoffSeconds',
  'drainRetrySeconds',
  'jobPodRunSeconds',
  'cronJobHorizonSeconds',
] as const;

/** One of the numeric settings. */
export type NumericTimingKey = (typeof NUMERIC_TIMING_KEYS)[number];

/** The epoch second of time 0: applyTime, or the default's when it is not an RFC 3339 time. */
export function applyEpochSeconds(settings: Pick<TimingSettings, 'applyTime'>): number {
  return parseRfc3339(settings.applyTime) ?? parseRfc3339(DEFAULT_TIMING.applyTime) ?? 0;
}
