/**
 * The host's check of what the Preview Apply page posts: untrusted input, as the timeline page's is
 * (webview-message-check.ts). A message is accepted only with a known `type` and exactly the fields that type
 * declares, each of the declared type and bounded; anything else is dropped. Whether a source link names a place
 * of the plan shown is the panel's check (plan-panel.ts isPlanPlace).
 */
import type { Plan } from '../../../protocol/plan';
import type { PlanToHostMessage } from '../../../protocol/plan-messages';
import { PLAN_TO_HOST_TYPES } from '../../../protocol/plan-messages';
import { MAX_FIELD_LENGTH } from './webview-message-check';

/** The longest file URI accepted from the page. */
const MAX_URI_LENGTH = 4096;

/** The message if it has the declared shape, else undefined. */
export function parsePlanMessage(value: unknown): PlanToHostMessage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const type = record['type'];
  if (typeof type !== 'string' || !(PLAN_TO_HOST_TYPES as readonly string[]).includes(type)) {
    return undefined;
  }
  const message = type as PlanToHostMessage['type'];
  switch (message) {
    case 'ready':
    case 'openTimeline':
    case 'reload':
      return hasExactKeys(record, ['type']) ? { type: message } : undefined;
    case 'openSource': {
      const file = record['file'];
      const line = record['line'];
      if (
        !hasExactKeys(record, ['type', 'file', 'line']) ||
        typeof file !== 'string' ||
        !file.startsWith('file:') ||
        file.length > MAX_URI_LENGTH ||
        typeof line !== 'number' ||
        !Number.isSafeInteger(line) ||
        line < 1
      ) {
        return undefined;
      }
      return { type: message, file, line };
    }
  }
}

/** Whether the plan names this file and line: an object's start, or a problem's place. */
export function isPlanPlace(plan: Plan, file: string, line: number): boolean {
  return (
    plan.objects.some((object) => object.file === file && object.line === line) ||
    plan.problems.some((problem) => problem.file === file && problem.line === line)
  );
}

/** The folder URI a revived panel's saved state names, if it has the expected shape. */
export function readPlanViewState(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    return undefined;
  }
  const folderUri = (state as Record<string, unknown>)['folderUri'];
  return typeof folderUri === 'string' &&
    folderUri.startsWith('file:') &&
    folderUri.length <= MAX_FIELD_LENGTH * 4
    ? folderUri
    : undefined;
}

function hasExactKeys(record: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(record);
  return own.length === keys.length && keys.every((key) => Object.prototype.hasOwnProperty.call(record, key));
}
