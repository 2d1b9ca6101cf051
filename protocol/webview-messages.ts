/**
 * What travels between the extension host and the timeline panel's webview: the report the panel replays, and
 * one discriminated union of messages per direction, keyed by `type`. Used by the host (client/src/panel/) and
 * the page (media/) alike. The host treats every message from the page as untrusted input and checks its shape
 * (client/src/panel/webview-message-check.ts); the page's state comes back to the host on reload, so it is
 * checked there too.
 */
import type { Finding } from './finding';
import type { TimelineEvent } from './timeline';

/** A node as the report lists it: quantities in Kubernetes notation ("1500m", "16Gi", "110"). */
export interface PanelNode {
  readonly name: string;
  readonly allocatable: Readonly<Record<string, string>>;
  readonly requested: Readonly<Record<string, string>>;
}

/** Why no node fits a pod: kube-scheduler's FitError message and the reasons behind it. */
interface PanelUnschedulable {
  readonly message: string;
  /** How many nodes gave each reason. */
  readonly reasons: Readonly<Record<string, number>>;
  /** Each node's reasons (those of its first failing filter plugin). */
  readonly nodes: Readonly<Record<string, readonly string[]>>;
  /** How many nodes each filter plugin rejected. */
  readonly plugins: Readonly<Record<string, number>>;
}

/** One node's outcome in a pod's scheduling cycle. */
interface PanelNodeOutcome {
  readonly node: string;
  /** null when the node passed every filter; else the plugin that rejected it and its reasons. */
  readonly rejectedBy: { readonly plugin: string; readonly reasons: readonly string[] } | null;
  /** Weighted scores, one per `scorePlugins` entry; null when the node was not scored. */
  readonly scores: readonly number[] | null;
  /** The sum of the weighted scores; null when the node was not scored. */
  readonly total: number | null;
}

/** A pod's scheduling cycle node by node: what the panel shows when a pod is clicked. */
export interface PanelSchedulingExplanation {
  /** Names of the score plugins, the columns of each node's scores. */
  readonly scorePlugins: readonly string[];
  /** Nodes whose filters ran, in cluster order. */
  readonly nodes: readonly PanelNodeOutcome[];
}

/** Where a pod's manifest is: a document URI and a zero-based position. */
export interface PanelManifestLocation {
  readonly uri: string;
  readonly line: number;
  readonly character: number;
}

/** A pod as the report lists it, plus what the language server adds for the panel. */
export interface PanelPod {
  readonly namespace: string;
  readonly name: string;
  readonly owner: { readonly kind: string; readonly name: string } | null;
  readonly qosClass: string;
  readonly priority: number;
  readonly nodeName: string | null;
  readonly tiedNodes: readonly string[];
  readonly unschedulable: PanelUnschedulable | null;
  readonly preempted: readonly string[];
  /** Per-node filter outcomes and scores, when the simulation recorded them in full. */
  readonly explanation?: PanelSchedulingExplanation;
  /** The manifest the pod comes from (for "Reveal manifest"), when known. */
  readonly location?: PanelManifestLocation;
  /** The claims its volumes use. */
  readonly claims?: readonly string[];
  /** Placed but never started: the container's waiting reason and the kubelet's message. */
  readonly waiting?: { readonly reason: string; readonly message: string };
}

/** A PersistentVolumeClaim at the end of the simulation (report.persistentVolumeClaims). */
export interface PanelClaim {
  readonly namespace: string;
  readonly name: string;
  readonly phase: string;
  readonly volumeName: string | null;
  readonly storageClassName: string;
  readonly zone: string | null;
}

/** An object the API server refused (report.rejected): never created, so nothing of it is in the timeline. */
export interface PanelRejected {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  /** discovery (kind not served), validation, or admission (`plugin` names it). */
  readonly stage: string;
  readonly plugin: string;
  readonly message: string;
}

/** A kustomization that includes the simulated folder (a kustomize base) and is applied on its own. */
export interface PanelOverlay {
  /** Its folder. */
  readonly uri: string;
  /** Its folder relative to the workspace folder ("overlays/prod"). */
  readonly label: string;
}

/** A document left out of the simulation: it has an error the API server would refuse (kubectl apply fails it). */
export interface PanelLeftOut {
  /** The file's URI. */
  readonly file: string;
  /** The error's line, from 1. */
  readonly line: number;
  readonly message: string;
}

/**
 * The simulation report the panel replays: the JSON report of `foresight simulate --output json`
 * (schemas/report.schema.json); the engine's SimulationReport is assignable to it. Fields the panel does not
 * read (rollouts, disruption budgets, drains) may be present: the panel derives all it shows from `events`.
 */
export interface PanelReport {
  readonly apiVersion: string;
  readonly kubernetesVersion: string;
  readonly cluster: { readonly source: string; readonly nodes: readonly PanelNode[] };
  readonly pods: readonly PanelPod[];
  /** The run's findings (the one Finding, protocol/finding.ts); the panel does not show them yet. */
  readonly findings: readonly Finding[];
  /** The claims, where each binds (absent in reports without storage). */
  readonly persistentVolumeClaims?: readonly PanelClaim[];
  /** The timeline, in time order (protocol/timeline.ts). Absent: a report without simulated time. */
  readonly events?: readonly TimelineEvent[];
  /** What the API server refused (the engine's report has it; an older recording may not). */
  readonly rejected?: readonly PanelRejected[];
  /** Documents of the folder left out before the simulation (the language server adds them). */
  readonly leftOut?: readonly PanelLeftOut[];
  /**
   * Files of the folder (URIs) that are kustomize resources whose workloads' selector a kustomization including
   * them supplies (`labels` with `includeSelectors`): as written, they run no pod; their overlay's render does.
   */
  readonly selectorFromOverlay?: readonly string[];
  /**
   * The kustomizations that include the folder, when it is a kustomize base read as written: `kubectl apply -k`
   * applies it only through their renders, which their own timelines replay.
   */
  readonly includedBy?: readonly PanelOverlay[];
  /** The kustomization (its folder, as labelled) whose render was replayed, when the folder is one. */
  readonly renderOf?: string;
}

/** The folder whose manifests were simulated. */
export interface PanelFolder {
  readonly uri: string;
  /** A short name for the title: the folder's name. */
  readonly name: string;
}

/** Host → webview. */
export type HostToWebviewMessage =
  /** A simulation is being computed for this folder. */
  | { readonly type: 'loading'; readonly folder: PanelFolder }
  /**
   * The simulation to show. `isUpdate`: the same folder's manifests changed; the page keeps its playhead and
   * selection (clamped to the new timeline).
   */
  | {
      readonly type: 'simulation';
      readonly folder: PanelFolder;
      readonly report: PanelReport;
      readonly isUpdate: boolean;
    }
  /** Nothing to show: no manifest folder, or the simulation failed (isError). */
  | { readonly type: 'unavailable'; readonly message: string; readonly isError: boolean }
  /** Select the first pod of a workload (the Replay code lens names it); kept until a simulation has it. */
  | { readonly type: 'focusWorkload'; readonly workload: PanelWorkload };

/** A workload, as the Replay lens names it: pods carry it as their owner (a bare Pod: its own name). */
export interface PanelWorkload {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** Whether a pod belongs to a workload: its owner is the workload, or it is the bare Pod itself. */
export function isPodOfWorkload(
  pod: {
    readonly namespace: string;
    readonly name: string;
    readonly owner: { kind: string; name: string } | null;
  },
  workload: PanelWorkload,
): boolean {
  if (pod.namespace !== workload.namespace) {
    return false;
  }
  return workload.kind === 'Pod'
    ? pod.owner === null && pod.name === workload.name
    : pod.owner !== null && pod.owner.kind === workload.kind && pod.owner.name === workload.name;
}

/** A workload passed as a command argument (untrusted: from a lens, or anything that runs the command). */
export function readPanelWorkload(value: unknown): PanelWorkload | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const { kind, namespace, name } = value as Record<string, unknown>;
  const isName = (text: unknown): text is string =>
    typeof text === 'string' && text.length > 0 && text.length <= 253;
  return isName(kind) && isName(namespace) && isName(name) ? { kind, namespace, name } : undefined;
}

/** Webview → host. */
export type WebviewToHostMessage =
  /** The page has loaded and listens: the host may send data. */
  | { readonly type: 'ready' }
  /** Open the manifest of a pod of the current report beside the panel. */
  | { readonly type: 'revealPod'; readonly namespace: string; readonly name: string }
  /** Compute the simulation again (after an error, or on request). */
  | { readonly type: 'reload' }
  /** Replay a kustomization that includes the folder instead: its position in the report's `includedBy`. */
  | { readonly type: 'openOverlay'; readonly index: number };

/** The `type` of every webview → host message, for the host's shape check. */
export const WEBVIEW_TO_HOST_TYPES: readonly WebviewToHostMessage['type'][] = [
  'ready',
  'revealPod',
  'reload',
  'openOverlay',
];

/** Playback speeds offered by the panel, in simulated seconds per second. */
export const PLAYBACK_SPEEDS: readonly number[] = [1, 2, 5, 10, 30, 60];

/**
 * The page's view state, kept with the webview's setState and handed back to the host's serializer when VS Code
 * restores the panel after a reload.
 */
export interface PanelViewState {
  /** The folder shown, so that a restored panel loads it again. */
  readonly folderUri: string | null;
  /** The playhead: simulated seconds. */
  readonly time: number;
  /** How many events are applied at the playhead (events at `time` can be stepped through one by one). */
  readonly cursor: number;
  readonly speed: number;
  /** The selected pod, "namespace/name", or null. */
  readonly selectedPod: string | null;
  /** The event list's text filter. */
  readonly eventFilter: string;
}

/**
 * A view state read back from storage (untrusted: the page wrote it, the host reads it on restore), or null
 * when it does not have the expected shape.
 */
export function readPanelViewState(value: unknown): PanelViewState | null {
  if (typeof value !== 'object' || value === null) {
    return null;
  }
  const state = value as Record<string, unknown>;
  const folderUri = state['folderUri'];
  const selectedPod = state['selectedPod'];
  const numbers = [state['time'], state['cursor'], state['speed']];
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) {
    return null;
  }
  return {
    folderUri: typeof folderUri === 'string' ? folderUri : null,
    time: state['time'] as number,
    cursor: state['cursor'] as number,
    speed: state['speed'] as number,
    selectedPod: typeof selectedPod === 'string' ? selectedPod : null,
    eventFilter: typeof state['eventFilter'] === 'string' ? state['eventFilter'] : '',
  };
}
