/**
 * Custom messages between the extension (client) and the language server, declared once here: method string,
 * typed params, who sends it and why.
 */
import type { Plan } from './plan';
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

/**
 * Client → server request, sent by "Kube Foresight: Preview Apply" when its panel opens, when the active editor
 * moves to another folder and (debounced) when a manifest of the shown folder changes: the plan of `kubectl apply`
 * of the folder that holds `uri` (read as SIMULATION_REQUEST reads it, open documents as edited) against the
 * cluster the editor uses for it (the setting, else the nearest .foresight/cluster.yaml). The embedded default
 * cluster is refused: it runs nothing to compare with.
 */
export const PLAN_REQUEST = 'kubeForesight/plan';

/** Params of PLAN_REQUEST. */
export interface PlanParams {
  /** A file URI (its folder is planned) or a folder URI. */
  uri: string;
}

/**
 * Result of PLAN_REQUEST: the folder, the cluster planned against and the plan (its files are file URIs), or why
 * there is none; `needsCluster` when the folder's cluster is the embedded default (the panel says how to make one).
 */
export type PlanResult =
  | { ok: true; folder: PanelFolder; cluster: string; plan: Plan }
  | { ok: false; message: string; needsCluster: boolean };
