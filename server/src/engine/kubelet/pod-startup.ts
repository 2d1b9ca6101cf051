/**
 * The arithmetic of a pod's start and stop, as the kubelet runs them: container by container, init containers
 * first and one at a time, then probes. Pure functions over plain numbers; the kubelet (kubelet.ts) turns them
 * into events.
 *
 * Probes (pkg/kubelet/prober/worker.go): a worker probes every periodSeconds from the container's start and once
 * more right when the container starts (readiness is triggered by the status update); a probe earlier than
 * initialDelaySeconds after the start is skipped; readiness is not probed until the startup probe succeeded;
 * successThreshold consecutive successes make a container ready. Without a readiness probe a container is ready
 * once started (and its startup probe, if any, succeeded). The real ticker starts at a random phase; here ticks
 * are aligned on the container's start.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/prober/worker.go
 */
import { listOf } from '../model/objects';

/** A probe's timing fields (API defaults: initialDelaySeconds 0, periodSeconds 10, successThreshold 1). */
interface ProbeTiming {
  readonly initialDelaySeconds?: number;
  readonly periodSeconds?: number;
  readonly successThreshold?: number;
  readonly failureThreshold?: number;
}

/** The parts of a container the kubelet's timing reads. */
export interface ContainerTiming {
  readonly name?: string;
  readonly image?: string;
  readonly imagePullPolicy?: string;
  readonly restartPolicy?: string;
  readonly startupProbe?: ProbeTiming;
  readonly readinessProbe?: ProbeTiming;
  readonly lifecycle?: { readonly preStop?: PreStopHook };
}

/** A preStop hook: sleep (PodLifecycleSleepAction), exec or httpGet. */
interface PreStopHook {
  readonly sleep?: { readonly seconds?: number };
  readonly exec?: { readonly command?: readonly string[] };
  readonly httpGet?: unknown;
}

/**
 * A container of a pod object as the timing reads it: each field kept only when it has the type the API gives it
 * (a probe's periodSeconds "10s" or .inf is left to its default), so no malformed manifest reaches the
 * arithmetic. The API server would reject such a pod; the schema validation reports it to the user.
 */
export function containerTimingOf(value: unknown): ContainerTiming {
  const raw = recordOf(value);
  const lifecycle = recordOf(raw['lifecycle']);
  const preStop = recordOf(lifecycle['preStop']);
  const sleep = recordOf(preStop['sleep']);
  const exec = recordOf(preStop['exec']);
  const command = Array.isArray(exec['command'])
    ? exec['command'].filter((part): part is string => typeof part === 'string')
    : undefined;
  const hook: PreStopHook = {
    ...(finiteOrUndefined(sleep['seconds']) === undefined
      ? {}
      : { sleep: { seconds: Number(sleep['seconds']) } }),
    ...(command === undefined ? {} : { exec: { command } }),
    ...(preStop['httpGet'] === undefined ? {} : { httpGet: preStop['httpGet'] }),
  };
  const startupProbe = probeTimingOf(raw['startupProbe']);
  const readinessProbe = probeTimingOf(raw['readinessProbe']);
  return {
    ...(typeof raw['name'] === 'string' ? { name: raw['name'] } : {}),
    ...(typeof raw['image'] === 'string' ? { image: raw['image'] } : {}),
    ...(typeof raw['imagePullPolicy'] === 'string' ? { imagePullPolicy: raw['imagePullPolicy'] } : {}),
    ...(typeof raw['restartPolicy'] === 'string' ? { restartPolicy: raw['restartPolicy'] } : {}),
    ...(startupProbe === undefined ? {} : { startupProbe }),
    ...(readinessProbe === undefined ? {} : { readinessProbe }),
    ...(Object.keys(preStop).length === 0 ? {} : { lifecycle: { preStop: hook } }),
  };
}

/**
 * The timing of every container of a list (a pod spec's `containers` or `initContainers`), read once per list
 * object: a ReplicaSet's pods share their template's lists, and the kubelet reads them when each pod starts and
 * stops. Pod JSON is never changed in place after it is built, so a list read once reads the same later.
 */
export function containerTimingsOf(list: readonly unknown[] | undefined): readonly ContainerTiming[] {
  if (!Array.isArray(list)) {
    return [];
  }
  let timings = TIMINGS_BY_LIST.get(list);
  if (timings === undefined) {
    timings = list.map(containerTimingOf);
    TIMINGS_BY_LIST.set(list, timings);
  }
  return timings;
}

const TIMINGS_BY_LIST = new WeakMap<readonly unknown[], readonly ContainerTiming[]>();

/** A probe's timing fields, each a finite number or left out; undefined when the probe is not an object. */
function probeTimingOf(value: unknown): ProbeTiming | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return undefined;
  }
  const raw = value as Record<string, unknown>;
  const timing: Record<string, number> = {};
  for (const field of ['initialDelaySeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    const number = finiteOrUndefined(raw[field]);
    if (number !== undefined) {
      timing[field] = number;
    }
  }
  return timing;
}

function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function finiteOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The first time a probe succeeds enough times, given when the app starts answering. */
function probeSuccessTime(
  containerStart: number,
  probe: ProbeTiming,
  answersFrom: number,
  firstTrigger: number,
): number {
  const period = positiveOr(probe.periodSeconds, 10);
  const threshold = positiveOr(probe.successThreshold, 1);
  const delay = probe.initialDelaySeconds;
  const earliest =
    containerStart + (typeof delay === 'number' && Number.isFinite(delay) ? Math.max(0, delay) : 0);
  const from = Math.max(earliest, answersFrom, firstTrigger);
  // Probes happen at the trigger and on every tick start + k*period; the first one at or after `from` counts.
  const first =
    firstTrigger >= from
      ? firstTrigger
      : containerStart + Math.max(0, Math.ceil((from - containerStart) / period)) * period;
  if (threshold === 1) {
    return first;
  }
  // Later successes come on the ticks after the first one.
  const nextTick = containerStart + (Math.floor((first - containerStart) / period) + 1) * period;
  return nextTick + (threshold - 2) * period;
}

/** When a started container becomes ready (its startup probe, then its readiness probe, passed). */
export function containerReadyTime(
  started: number,
  container: ContainerTiming,
  appStartSeconds: number,
): number {
  const answersFrom = started + appStartSeconds;
  const startupDone =
    container.startupProbe === undefined
      ? started
      : probeSuccessTime(started, container.startupProbe, answersFrom, started);
  if (container.readinessProbe === undefined) {
    return startupDone;
  }
  return probeSuccessTime(started, container.readinessProbe, Math.max(answersFrom, startupDone), startupDone);
}

/** When a started sidecar lets the next init container start: once its startup probe passed, if it has one. */
export function sidecarStartedTime(
  started: number,
  container: ContainerTiming,
  appStartSeconds: number,
): number {
  return container.startupProbe === undefined
    ? started
    : probeSuccessTime(started, container.startupProbe, started + appStartSeconds, started);
}

/** The API default of imagePullPolicy: Always for ":latest" or an untagged image, IfNotPresent otherwise. */
export function effectivePullPolicy(container: ContainerTiming): string {
  if (container.imagePullPolicy !== undefined && container.imagePullPolicy !== '') {
    return container.imagePullPolicy;
  }
  const image = typeof container.image === 'string' ? container.image : '';
  const withoutDigest = image.includes('@') ? '' : image;
  const tagStart = withoutDigest.lastIndexOf(':');
  const tag = tagStart > withoutDigest.lastIndexOf('/') ? withoutDigest.slice(tagStart + 1) : '';
  return image.includes('@') || (tag !== '' && tag !== 'latest') ? 'IfNotPresent' : 'Always';
}

/** The grace period of a deletion: terminationGracePeriodSeconds, 30 by default. */
export function gracePeriodSeconds(spec: { readonly terminationGracePeriodSeconds?: number }): number {
  const value = spec.terminationGracePeriodSeconds;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 30;
}

/**
 * How long a running pod takes to stop after its deletion: each container runs its preStop hook, then gets SIGTERM
 * and exits appStopSeconds later; the kubelet kills whatever still runs at the end of the grace period. Containers
 * stop in parallel, so the slowest one decides.
 */
export function stopDurationSeconds(
  spec: { readonly terminationGracePeriodSeconds?: number; readonly containers?: readonly ContainerTiming[] },
  settings: { readonly appStopSeconds: number; readonly preStopSeconds: number },
): number {
  const grace = gracePeriodSeconds(spec);
  let slowest = 0;
  for (const container of listOf(spec.containers)) {
    const preStop = container.lifecycle?.preStop;
    const hook = preStop === undefined ? 0 : preStopDurationSeconds(preStop, settings.preStopSeconds);
    slowest = Math.max(slowest, hook + settings.appStopSeconds);
  }
  return Math.min(grace, slowest);
}

/** A preStop hook's duration: `sleep.seconds`, the N of an exec `sleep N` (also under `sh -c`), else the default. */
export function preStopDurationSeconds(hook: PreStopHook, fallback: number): number {
  if (typeof hook.sleep?.seconds === 'number' && Number.isFinite(hook.sleep.seconds)) {
    return Math.max(0, hook.sleep.seconds);
  }
  const command = listOf(hook.exec?.command).join(' ');
  const match = /(?:^|[\s;&/])sleep\s+(\d+(?:\.\d+)?)(?:s)?(?:\s|;|&|$)/.exec(command);
  if (match !== null) {
    return Number(match[1]);
  }
  return fallback;
}

function positiveOr(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}
