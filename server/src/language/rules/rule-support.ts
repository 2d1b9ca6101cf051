/**
 * Small helpers shared by the rules: reading plain values by path, placing findings on YAML nodes, and writing
 * messages the way the API server does ("<field>: Invalid value: <value>: <detail>").
 */
import { isScalar } from 'yaml';
import type { Node } from 'yaml';
import { isRecord } from '../../engine/model/objects';
import type { DiagnosticCode, TextFinding } from '../findings';
import type { FixData } from '../../../../protocol/finding';
import { formatPath } from '../schema/validate-object';
import type { InstancePath, OffsetRange } from '../yaml/node-at-path';
import { nodeAtPath } from '../yaml/node-at-path';
import { severityOf } from '../findings';

/** A plain mapping read from YAML. */
export type PlainRecord = Record<string, unknown>;

/** The plain value at a path, or undefined when the path leaves the value. */
export function valueAt(value: unknown, path: InstancePath): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof segment === 'number') {
      current = Array.isArray(current) ? (current[segment] as unknown) : undefined;
    } else {
      current = isRecord(current) ? current[segment] : undefined;
    }
    if (current === undefined) {
      return undefined;
    }
  }
  return current;
}

/** The mapping at a path, or undefined when there is none. */
export function recordAt(value: unknown, path: InstancePath): PlainRecord | undefined {
  const found = valueAt(value, path);
  return isRecord(found) ? found : undefined;
}

/** The list at a path, or an empty list. */
export function listAt(value: unknown, path: InstancePath): unknown[] {
  const found = valueAt(value, path);
  return Array.isArray(found) ? found : [];
}

/**
 * The entries of a string map (labels, selectors) at a path, as text. A number or boolean (`version: 1`) counts
 * as its text: the schema reports its type, and the rules should not add a second, confusing finding. Other
 * values are left out.
 */
export function labelEntriesAt(value: unknown, path: InstancePath): [string, string][] {
  const record = recordAt(value, path);
  if (record === undefined) {
    return [];
  }
  const entries: [string, string][] = [];
  for (const [key, entry] of Object.entries(record)) {
    if (typeof entry === 'string' || typeof entry === 'number' || typeof entry === 'boolean') {
      entries.push([key, String(entry)]);
    }
  }
  return entries;
}

/** A finding at a range, or none when the range is unknown (the node is missing from the YAML). */
export function findingAt(
  range: OffsetRange | undefined,
  code: DiagnosticCode,
  message: string,
  fix?: FixData,
): TextFinding[] {
  if (range === undefined) {
    return [];
  }
  const finding: TextFinding = { code, severity: severityOf(code), message, start: range[0], end: range[1] };
  return [fix === undefined ? finding : { ...finding, fix }];
}

/** Formats a value the way the API server prints it in an error: strings quoted, numbers as they are. */
function formatValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** A field path as the API server prints it; a map key added with field.Path.Key shows as "[key]". */
export function fieldPath(path: InstancePath, mapKey?: string): string {
  return mapKey === undefined ? formatPath(path) : `${formatPath(path)}[${mapKey}]`;
}

/** "<field>: Invalid value: <value>: <detail>", the API server's field.Invalid error text. */
export function invalidValue(path: InstancePath | string, value: unknown, detail: string): string {
  return `${typeof path === 'string' ? path : formatPath(path)}: Invalid value: ${formatValue(value)}: ${detail}`;
}

/** "<field>: Required value: <detail>", the API server's field.Required error text. */
export function requiredValue(path: InstancePath, detail: string): string {
  return `${formatPath(path)}: Required value${detail === '' ? '' : `: ${detail}`}`;
}

/** "<field>: Duplicate value: <value>", the API server's field.Duplicate error text. */
export function duplicateValue(path: InstancePath, value: unknown): string {
  return `${formatPath(path)}: Duplicate value: ${formatValue(value)}`;
}

const PLAIN_SAFE = /^[A-Za-z_][-A-Za-z0-9_.]*$/;
const YAML_RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;

/**
 * The YAML text to write a string value in place of the scalar at a path, keeping the original quoting style
 * when it was quoted, and quoting whenever a plain scalar would read as something else (true, 1.0, null).
 */
export function scalarReplacement(root: Node | undefined, path: InstancePath, text: string): string {
  const node = nodeAtPath(root, path);
  const style = isScalar(node) ? node.type : undefined;
  if (style === 'QUOTE_SINGLE' && !text.includes("'")) {
    return `'${text}'`;
  }
  if (style === 'QUOTE_DOUBLE' || !PLAIN_SAFE.test(text) || YAML_RESERVED.test(text)) {
    return JSON.stringify(text);
  }
  return text;
}

/** The minor version number of a Kubernetes version text ("1.35" → 35), or undefined. */
export function minorVersionOf(kubernetesVersion: string): number | undefined {
  const match = /^v?1\.(\d+)/.exec(kubernetesVersion);
  return match === null ? undefined : Number(match[1]);
}
