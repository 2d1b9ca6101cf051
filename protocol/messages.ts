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
  /** A short name of the cluster in use: "embedded default" or the cluster file's name. */
  cluster: string;
}

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
