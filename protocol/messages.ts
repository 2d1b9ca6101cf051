/**
 * Custom messages between the extension (client) and the language server, declared once here: method string,
 * typed params, who sends it and why.
 */

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
