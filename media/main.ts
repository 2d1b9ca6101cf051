/**
 * Entry point of the timeline panel's page (bundled by esbuild into dist/media/main.js): connects to the host,
 * starts the page, listens for the host's messages and tells the host it is ready. Messages are checked for a
 * known `type` before they reach the page; anything else is ignored.
 */
import type { HostToWebviewMessage } from '../protocol/webview-messages';
import { App } from './app';
import { connect } from './vscode-api';

const HOST_MESSAGE_TYPES: readonly string[] = [
  'loading',
  'simulation',
  'unavailable',
  'focusWorkload',
] satisfies readonly HostToWebviewMessage['type'][];

function isHostMessage(value: unknown): value is HostToWebviewMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    HOST_MESSAGE_TYPES.includes((value as { type: string }).type)
  );
}

const root = document.getElementById('app');
if (root !== null) {
  const host = connect();
  const app = new App(root, host);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (isHostMessage(event.data)) {
      app.handleMessage(event.data);
    }
  });
  host.post({ type: 'ready' });
}
