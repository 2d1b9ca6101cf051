/**
 * The host's check of what the page posts: untrusted input (the page renders manifest strings, and a webview is a
 * browser). A message is accepted only with a known `type` and exactly the fields that type declares, each of the
 * declared type and of bounded length; anything else is dropped.
 */
import type { WebviewToHostMessage } from '../../../protocol/webview-messages';
import { WEBVIEW_TO_HOST_TYPES } from '../../../protocol/webview-messages';

/** The longest string field accepted (Kubernetes names are at most 253 characters). */
export const MAX_FIELD_LENGTH = 1024;

/** The message if it has the declared shape, else undefined. */
export function parseWebviewMessage(value: unknown): WebviewToHostMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const type = record['type'];
  if (typeof type !== 'string' || !(WEBVIEW_TO_HOST_TYPES as readonly string[]).includes(type)) {
    return undefined;
  }
  const message = type as WebviewToHostMessage['type'];
  switch (message) {
    case 'ready':
    case 'reload':
      return hasExactKeys(record, ['type']) ? { type: message } : undefined;
    case 'revealPod': {
      const namespace = record['namespace'];
      const name = record['name'];
      if (!hasExactKeys(record, ['type', 'namespace', 'name']) || !isField(namespace) || !isField(name)) {
        return undefined;
      }
      return { type: message, namespace, name };
    }
    case 'openOverlay': {
      const index = record['index'];
      return hasExactKeys(record, ['type', 'index']) && Number.isSafeInteger(index) && (index as number) >= 0
        ? { type: message, index: index as number }
        : undefined;
    }
  }
}

function hasExactKeys(record: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(record);
  return own.length === keys.length && keys.every((key) => Object.prototype.hasOwnProperty.call(record, key));
}

function isField(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD_LENGTH;
}
