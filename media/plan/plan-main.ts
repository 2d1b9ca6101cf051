/**
 * Entry point of the Preview Apply page (bundled by esbuild into dist/media/plan.js): connects to the host, shows
 * what the host sends (plan-view.ts), and posts the user's clicks back: a source link, the timeline, plan again.
 * Messages are checked for a known `type` before they reach the view; anything else is ignored. The page keeps the
 * folder it shows in VS Code's view state, so that a reload revives the panel on it.
 */
import type { HostToPlanMessage, PlanToHostMessage } from '../../protocol/plan-messages';
import { HOST_TO_PLAN_TYPES } from '../../protocol/plan-messages';
import { renderPlanMessage } from './plan-view';

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

function isHostMessage(value: unknown): value is HostToPlanMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    (HOST_TO_PLAN_TYPES as readonly string[]).includes((value as { type: string }).type)
  );
}

const root = document.getElementById('app');
if (root !== null) {
  const api = acquireVsCodeApi();
  const post = (message: PlanToHostMessage): void => api.postMessage(message);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (!isHostMessage(event.data)) {
      return;
    }
    renderPlanMessage(root, event.data, post);
    if (event.data.type === 'plan' || event.data.type === 'loading') {
      api.setState({ folderUri: event.data.folder.uri });
    }
  });
  post({ type: 'ready' });
}
