/**
 * What a manifest cannot say about time, as documented, settable defaults: how long images take to pull, how long
 * a container takes to start, how long an app takes to answer its probes or to exit. Everything else comes from
 * the manifests (probes, minReadySeconds, terminationGracePeriodSeconds, preStop, progressDeadlineSeconds) or from
 * the Kubernetes components' own defaults (named below with their flag).
 */

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
] as const;

/** One of the numeric settings. */
export type NumericTimingKey = (typeof NUMERIC_TIMING_KEYS)[number];
