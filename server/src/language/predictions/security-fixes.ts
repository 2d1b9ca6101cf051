/**
 * The quick fix of a Pod Security refusal: the securityContext changes that make the pod pass the namespace's
 * level (admission/plugins/pod-security/security-context-fix.ts says which, following pod-security-admission's
 * checks), written into the YAML as a person would, keeping the layout (block-edits.ts): a field left unset is
 * added, one set to a forbidden value is changed, a forbidden added capability is removed. What securityContext
 * cannot change (host namespaces, hostPath volumes, host ports…) is named in the title as still refused; pods
 * admitted but then Pending (admitted-schedule.ts) are named in it too. A template written in flow style gets no
 * fix.
 */
import type { Node } from 'yaml';
import { isMap } from 'yaml';
import { parseLevelVersion } from '../../engine/admission/plugins/pod-security/namespace-policy';
import { securityContextFix } from '../../engine/admission/plugins/pod-security/security-context-fix';
import type { SecurityChange } from '../../engine/admission/plugins/pod-security/security-context-fix';
import type { FixData, OffsetEdit } from '../../../../protocol/finding';
import {
  appendMapEntry,
  appendSeqItem,
  removeMapEntry,
  removeSeqItem,
  replaceScalar,
  yamlString,
} from '../yaml/block-edits';
import { nodeAtPath } from '../yaml/node-at-path';
import { valueAt } from '../rules/rule-support';
import { isRecord } from '../../engine/model/objects';
import type { PodSpecObject } from '../../engine/model/objects';

type Path = readonly (string | number)[];

/** A JSON value as block YAML lines under its key (a scalar stays on the key's line). */
function yamlLines(value: unknown): string[] | string {
  if (Array.isArray(value)) {
    return value.map((item) => `- ${scalarText(item)}`);
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, inner]) => {
      const lines = yamlLines(inner);
      return typeof lines === 'string'
        ? [`${key}: ${lines}`]
        : [`${key}:`, ...lines.map((line) => `  ${line}`)];
    });
  }
  return scalarText(value);
}

const scalarText = (value: unknown): string =>
  typeof value === 'string' ? yamlString(value) : String(value);

/** "allowPrivilegeEscalation: false", "capabilities.drop: [ALL]": what a change sets, for the title. */
function describe(change: SecurityChange, spec: unknown): string[] {
  switch (change.op) {
    case 'append':
      return ['capabilities.drop: [ALL]'];
    case 'set': {
      const key = String(change.at.at(-1));
      const shown = key === 'type' || key === 'hostProcess' ? `${String(change.at.at(-2))}` : key;
      return [`${shown}: ${String(change.value)}`];
    }
    case 'remove': {
      const list = valueAt(spec, change.at);
      const names = change.indexes.map((index) => String(Array.isArray(list) ? list[index] : index));
      return [`capabilities.add without ${names.join(', ')}`];
    }
    case 'add': {
      const flat = (prefix: string, value: unknown): string[] =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.entries(value).flatMap(([key, inner]) =>
              key === 'seccompProfile'
                ? [`seccompProfile: ${String((inner as { type?: unknown }).type)}`]
                : flat(key, inner),
            )
          : [
              `${prefix === 'drop' ? 'capabilities.drop' : prefix}: ${Array.isArray(value) ? `[${value.join(', ')}]` : String(value)}`,
            ];
      return change.key === 'securityContext' ? flat('', change.value) : flat(change.key, change.value);
    }
  }
}

/** The edits of one change, or undefined when the YAML cannot take them. */
function editsOf(
  change: SecurityChange,
  root: Node | undefined,
  text: string,
  offset: number,
  specPath: Path,
): OffsetEdit[] | undefined {
  const node = nodeAtPath(root, [...specPath, ...change.at]);
  switch (change.op) {
    case 'append':
      return listOf(appendSeqItem(node, text, offset, [change.item]));
    case 'add':
      return isMap(node)
        ? listOf(appendMapEntry(node, text, offset, change.key, yamlLines(change.value)))
        : undefined;
    case 'set':
      return listOf(
        replaceScalar(node, offset, typeof change.value === 'string' ? change.value : String(change.value)),
      );
    case 'remove': {
      const count =
        isMap(node) || node === undefined ? 0 : ((node as { items?: unknown[] }).items?.length ?? 0);
      if (count > 0 && count === change.indexes.length) {
        // Every item goes: the key goes with them.
        const capabilities = nodeAtPath(root, [...specPath, ...change.at.slice(0, -1)]);
        return listOf(removeMapEntry(capabilities, text, offset, String(change.at.at(-1))));
      }
      const edits = change.indexes.map((index) => removeSeqItem(node, text, offset, index));
      return edits.every((edit) => edit !== undefined) ? edits : undefined;
    }
  }
}

const listOf = (edit: OffsetEdit | undefined): OffsetEdit[] | undefined =>
  edit === undefined ? undefined : [edit];

/**
 * The fix for a PodSecurity refusal of the pod spec at `specPath` (its metadata beside it), or undefined when the
 * message names no policy, no securityContext change helps, or the YAML cannot take the edits. `pendingOnce
 * Admitted` says why the admitted pods would not schedule (the fix changes nothing the scheduler reads).
 */
export function podSecurityFix(
  root: Node | undefined,
  text: string,
  offset: number,
  specPath: Path,
  documentValue: unknown,
  message: string,
  pendingOnceAdmitted?: (spec: PodSpecObject) => string | undefined,
): FixData | undefined {
  const name = /violates PodSecurity "([^"]+)"/.exec(message)?.[1];
  const policy = name === undefined ? null : parseLevelVersion(name);
  const spec = valueAt(documentValue, specPath);
  const metadata = valueAt(documentValue, [...specPath.slice(0, -1), 'metadata']);
  if (policy === null || !isRecord(spec)) {
    return undefined;
  }
  const fix = securityContextFix(policy, isRecord(metadata) ? metadata : {}, spec);
  if (fix === null) {
    return undefined;
  }
  const edits: OffsetEdit[] = [];
  // Where a nested list and its map end at one point, the deeper insertion must come first.
  const deepestFirst = [...fix.changes].sort((a, b) => b.at.length - a.at.length);
  for (const change of deepestFirst) {
    const made = editsOf(change, root, text, offset, specPath);
    if (made === undefined) {
      return undefined;
    }
    for (const edit of made) {
      // Two fields added to one map insert at one point: one edit, in order.
      const same = edits.find((other) => other.start === edit.start && other.end === edit.end);
      if (same === undefined) {
        edits.push(edit);
      } else {
        edits[edits.indexOf(same)] = { ...same, newText: same.newText + edit.newText };
      }
    }
  }
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  if (edits.some((edit, index) => index > 0 && edit.start < (edits[index - 1]?.end ?? 0))) {
    return undefined;
  }
  const fields = [...new Set(fix.changes.flatMap((change) => describe(change, spec)))];
  const remaining = [...new Set(fix.remaining.map((failure) => failure.reason))];
  if (remaining.length > 0) {
    return {
      title: `Set the securityContext fields Pod Security "${policy.level}" requires: ${fields.join(', ')} (still refused: ${remaining.join(', ')})`,
      edits,
    };
  }
  const pending = pendingOnceAdmitted?.(spec);
  return {
    title: `Set what Pod Security "${policy.level}" requires: ${fields.join(', ')}${pending === undefined ? '' : ` (admitted, but ${pending})`}`,
    edits,
  };
}
