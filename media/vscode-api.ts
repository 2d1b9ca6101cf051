/**
 * The webview's side of VS Code: the typed message channel to the host and the view state VS Code keeps across
 * reloads. acquireVsCodeApi may be called once per page, so the page calls `connect` once.
 */
import type { PanelViewState, WebviewToHostMessage } from '../protocol/webview-messages';
import { readPanelViewState } from '../protocol/webview-messages';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The host as the page sees it. */
export interface HostChannel {
  post(message: WebviewToHostMessage): void;
  /** The saved view state, if it has the expected shape. */
  savedState(): PanelViewState | null;
  saveState(state: PanelViewState): void;
}

/** Connects to the host. */
export function connect(): HostChannel {
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    savedState: () => readPanelViewState(api.getState()),
    saveState: (state) => api.setState(state),
  };
}
