/**
 * What travels between the extension host and the Preview Apply panel's webview (client/src/panel/plan-panel.ts,
 * media/plan/): one discriminated union per direction, keyed by `type`, as the timeline panel's
 * (webview-messages.ts). The host checks every message from the page as untrusted input
 * (client/src/panel/plan-message-check.ts): a source link is opened only when the plan shown names that place.
 */
import type { Plan } from './plan';
import type { PanelFolder } from './webview-messages';

/** Host → plan page. */
export type HostToPlanMessage =
  /** A plan is being computed for this folder. */
  | { readonly type: 'loading'; readonly folder: PanelFolder }
  /** The plan to show: the folder, the cluster it is planned against (as the status bar names it), the plan. */
  | { readonly type: 'plan'; readonly folder: PanelFolder; readonly cluster: string; readonly plan: Plan }
  /**
   * No plan: no manifest folder, the server is stopped, or the plan failed (isError); `needsCluster` when the
   * folder's cluster is the embedded default, which the page explains (a cluster file or a capture is needed).
   */
  | {
      readonly type: 'unavailable';
      readonly message: string;
      readonly isError: boolean;
      readonly needsCluster: boolean;
    };

/** Plan page → host. */
export type PlanToHostMessage =
  /** The page has loaded and listens: the host may send data. */
  | { readonly type: 'ready' }
  /** Open a file of the plan at a line (1-based): only a place the plan shown names is opened. */
  | { readonly type: 'openSource'; readonly file: string; readonly line: number }
  /** Open the timeline panel on the same folder (the same simulation, replayed). */
  | { readonly type: 'openTimeline' }
  /** Compute the plan again. */
  | { readonly type: 'reload' };

/** Every type of PlanToHostMessage, for the host's check and the page's. */
export const PLAN_TO_HOST_TYPES: readonly PlanToHostMessage['type'][] = [
  'ready',
  'openSource',
  'openTimeline',
  'reload',
];

/** Every type of HostToPlanMessage, for the page's check. */
export const HOST_TO_PLAN_TYPES: readonly HostToPlanMessage['type'][] = ['loading', 'plan', 'unavailable'];
