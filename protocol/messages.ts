/**
 * Custom messages between the extension (client) and the language server, declared once here: method string,
 * typed params, who sends it and why.
 */
import type { PanelFolder, PanelReport } from './webview-messages';

/**
 * Server → client notification, sent after settings are read and whenever they change: which Kubernetes version
 * and which cluster the analysis uses, for the status-bar item.
 */
export const STATUS_NOTIFICATION = 'kubeForesight/status';

/** Params of STATUS_NOTIFICATION. */
export interface StatusParams {
  /** The Kubernetes minor version in use, e.g. "1.35". */
  kubernetesVersion: string;
  /** A short name of the cluster in use: "embedded default", the cluster file's name, or "profile NAME". */
  cluster: string;
  /** Which cluster the last prediction used and why it was chosen (absent before any prediction). */
  choice?: ClusterChoice;
}

/**
 * Which cluster the predictions use, and why (the cluster picker marks it current and says so):
 *   setting   the file the setting kubeForesight.cluster names
 *   nearest   the nearest .foresight/cluster.yaml at or above the analysed folder
 *   profile   the profile the setting names (`profile:NAME`)
 *   embedded  the embedded default: no setting and no .foresight/cluster.yaml, or `unusable` names the chosen
 *             file that could not be used (errors, too large to simulate as you type)
 * `appliedBy` names the GitOps definition that applies the edited file ("Argo CD Application argocd/guestbook
 * (clusters/apps.yaml:4)"): the nearest cluster file is looked up from its folder, as `foresight simulate` does.
 */
export type ClusterChoice =
  | { reason: 'setting'; path: string }
  | { reason: 'nearest'; path: string; appliedBy?: string }
  | { reason: 'profile'; profile: string }
  | { reason: 'embedded'; unusable?: string; appliedBy?: string };

/**
 * Client → server notification, sent after "Kube Foresight: Capture Cluster" wrote a cluster file: the server reads
 * nothing but open documents on its own, so it is told to predict the open manifests again. No params.
 */
export const CLUSTER_WRITTEN_NOTIFICATION = 'kubeForesight/clusterWritten';

/**
 * Client → server request, sent by the cluster picker: the cluster profiles (the engine's real node shapes), each
 * with its name (what `profile:NAME` in kubeForesight.cluster takes) and a line saying what it is.
 */
export const PROFILES_REQUEST = 'kubeForesight/profiles';

/** Result of PROFILES_REQUEST. */
export type ProfilesResult = { name: string; title: string }[];

/**
 * Client → server request, sent by the timeline panel when it opens, when the active editor moves to another
 * folder, and (debounced) when a manifest of the shown folder changes: simulate the manifests of the folder that
 * holds `uri` (open documents as edited, the rest as saved) and answer the report the panel replays.
 */
export const SIMULATION_REQUEST = 'kubeForesight/simulation';

/** Params of SIMULATION_REQUEST. */
export interface SimulationParams {
  /** A file URI (its folder is simulated) or a folder URI. */
  uri: string;
}

/** Result of SIMULATION_REQUEST: the folder and its report, or why there is none. */
export type SimulationResult =
  { ok: true; folder: PanelFolder; report: PanelReport } | { ok: false; message: string };
