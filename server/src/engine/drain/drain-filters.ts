/**
 * Which pods `kubectl drain` evicts, skips or refuses (staging/src/k8s.io/kubectl/pkg/drain/filters.go), with
 * kubectl's messages: DaemonSet pods are refused without --ignore-daemonsets and skipped with it, mirror (static)
 * pods are skipped, pods with emptyDir need --delete-emptydir-data, pods without a controller need --force.
 * Any refusal fails the whole drain before a single eviction.
 */
import type { SimPod } from '../apiserver/sim-pod';

/** kubectl drain's flags the simulation honours. */
export interface DrainOptions {
  readonly ignoreDaemonSets: boolean;
  readonly deleteEmptyDirData: boolean;
  readonly force: boolean;
}

/** What scenarios and the per-node analysis use unless told otherwise: `--ignore-daemonsets --delete-emptydir-data`. */
export const DEFAULT_DRAIN_OPTIONS: DrainOptions = {
  ignoreDaemonSets: true,
  deleteEmptyDirData: true,
  force: false,
};

/** kubectl's filter messages. */
export const DRAIN_FILTER_MESSAGES = {
  daemonSetFatal: 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)',
  daemonSetWarning: 'ignoring DaemonSet-managed Pods',
  localStorageFatal: 'Pods with local storage (use --delete-emptydir-data to override)',
  localStorageWarning: 'deleting Pods with local storage',
  unmanagedFatal: 'cannot delete Pods that declare no controller (use --force to override)',
  unmanagedWarning: 'deleting Pods that declare no controller',
} as const;

/** The pods of a node sorted out. */
interface DrainSelection {
  /** Pods to evict, by namespace/name as the API lists them. */
  readonly evict: readonly SimPod[];
  /** Skipped pods with why (mirror pods, ignored DaemonSet pods). */
  readonly skipped: readonly { readonly pod: SimPod; readonly reason: string }[];
  /** "cannot delete <reason>: ns/a, ns/b" per reason, as kubectl reports them; any of these fails the drain. */
  readonly errors: readonly string[];
}

/** Sorts out the pods on a node (GetPodsForDeletion with the base filters). */
export function selectPodsForDrain(pods: readonly SimPod[], options: DrainOptions): DrainSelection {
  const evict: SimPod[] = [];
  const skipped: { pod: SimPod; reason: string }[] = [];
  const failures = new Map<string, string[]>();
  const fail = (pod: SimPod, message: string): void => {
    failures.set(message, [...(failures.get(message) ?? []), pod.key]);
  };
  const sorted = [...pods]
    .filter((pod) => !pod.isGone)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const pod of sorted) {
    if (pod.controllerRef?.kind === 'DaemonSet') {
      if (!options.ignoreDaemonSets) {
        fail(pod, DRAIN_FILTER_MESSAGES.daemonSetFatal);
      } else {
        skipped.push({ pod, reason: DRAIN_FILTER_MESSAGES.daemonSetWarning });
      }
      continue;
    }
    if (pod.isMirror) {
      skipped.push({ pod, reason: 'mirror pod' });
      continue;
    }
    if (pod.hasLocalStorage && !options.deleteEmptyDirData) {
      fail(pod, DRAIN_FILTER_MESSAGES.localStorageFatal);
      continue;
    }
    if (pod.controllerRef === null && !options.force) {
      fail(pod, DRAIN_FILTER_MESSAGES.unmanagedFatal);
      continue;
    }
    evict.push(pod);
  }
  const errors = [...failures].map(([message, keys]) => `cannot delete ${message}: ${keys.join(', ')}`);
  return { evict, skipped, errors };
}
