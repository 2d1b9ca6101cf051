/**
 * The quick fix of a Pod Security refusal: add the securityContext fields the namespace's level requires, where
 * the pod template leaves them unset. The engine says which fields, and only when the template with them passes
 * the same level and version (admission/plugins/pod-security/restricted-fix.ts); this module writes them into the
 * YAML as a person would, keeping the layout (block-edits.ts). A template written in flow style gets no fix.
 */
import type { Node } from 'yaml';
import { isMap } from 'yaml';
import { parseLevelVersion } from '../../engine/admission/plugins/pod-security/namespace-policy';
import { restrictedAdditions } from '../../engine/admission/plugins/pod-security/restricted-fix';
import type { SecurityAddition } from '../../engine/admission/plugins/pod-security/restricted-fix';
import type { FixData, OffsetEdit } from '../../../../protocol/finding';
import { appendMapEntry, appendSeqItem, yamlString } from '../yaml/block-edits';
import { nodeAtPath } from '../yaml/node-at-path';
import { valueAt } from '../rules/rule-support';
import { isRecord } from '../../engine/model/objects';

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

/** "allowPrivilegeEscalation: false", "capabilities.drop: [ALL]": the fields an addition sets, for the title. */
function describe(addition: SecurityAddition): string[] {
  if ('item' in addition) {
    return ['capabilities.drop: [ALL]'];
  }
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
  return addition.key === 'securityContext' ? flat('', addition.value) : flat(addition.key, addition.value);
}

/**
 * The fix for a PodSecurity refusal of the pod spec at `specPath` (its metadata beside it), or undefined when the
 * message names no policy, the fields cannot make the pod pass, or the YAML cannot take the edits.
 */
export function podSecurityFix(
  root: Node | undefined,
  text: string,
  offset: number,
  specPath: Path,
  documentValue: unknown,
  message: string,
): FixData | undefined {
  const name = /violates PodSecurity "([^"]+)"/.exec(message)?.[1];
  const policy = name === undefined ? null : parseLevelVersion(name);
  const spec = valueAt(documentValue, specPath);
  const metadata = valueAt(documentValue, [...specPath.slice(0, -1), 'metadata']);
  if (policy === null || !isRecord(spec)) {
    return undefined;
  }
  const additions = restrictedAdditions(policy, isRecord(metadata) ? metadata : {}, spec);
  if (additions === null) {
    return undefined;
  }
  const edits: OffsetEdit[] = [];
  // Where a nested list and its map end at one point, the deeper insertion must come first.
  const deepestFirst = [...additions].sort((a, b) => b.at.length - a.at.length);
  for (const addition of deepestFirst) {
    const node = nodeAtPath(root, [...specPath, ...addition.at]);
    const edit =
      'item' in addition
        ? appendSeqItem(node, text, offset, [addition.item])
        : isMap(node)
          ? appendMapEntry(node, text, offset, addition.key, yamlLines(addition.value))
          : undefined;
    if (edit === undefined) {
      return undefined;
    }
    // Two fields added to one map insert at one point: one edit, in order.
    const same = edits.find((other) => other.start === edit.start && other.end === edit.end);
    if (same === undefined) {
      edits.push(edit);
    } else {
      edits[edits.indexOf(same)] = { ...same, newText: same.newText + edit.newText };
    }
  }
  const fields = [...new Set(additions.flatMap(describe))];
  return {
    title: `Set what Pod Security "${policy.level}" requires: ${fields.join(', ')}`,
    edits,
  };
}
