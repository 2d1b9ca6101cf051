/**
 * list-map-duplicate: two items of a built-in list of `x-kubernetes-list-type: map` with the same keys (two
 * container ports 88/TCP). The list types and keys come from the Kubernetes OpenAPI documents (kept in the
 * generated schemas: scripts/schemas/transform.ts), and a key's default (a port's protocol, TCP) counts as set,
 * as kubectl-validate's check does (listtype's validateListMap on the defaulted object).
 *
 * A warning, not an error: for built-in kinds the OpenAPI list type is a merge contract, not validation. The API
 * server keeps duplicate container ports (pkg/api/pod/warnings.go warns "duplicate port definition") and env
 * entries, and since structured-merge-diff v4.4 (Kubernetes 1.29) managed fields tolerate duplicates in stored
 * objects; server-side apply of a configuration that repeats the keys fails ("duplicate entries for key",
 * kubernetes/kubernetes#113482). Some lists' own validation refuses duplicates (a Service's port and protocol,
 * volume names): that error is not worded here. Container lists are left to duplicate-container-name.
 */
import type { ObjectRule } from '../analyzer';
import { formatBadValue } from '../crd/field-error';
import type { TextFinding } from '../findings';
import type { JsonSchema, SchemaStore } from '../schema/schema-store';
import { formatPath } from '../schema/validate-object';
import type { InstancePath } from '../yaml/node-at-path';
import { rangeForValue } from '../yaml/node-at-path';
import { isRecord } from '../../engine/model/objects';
import { findingAt } from './rule-support';
import { appendAll } from '../../../../protocol/collections';

/** Lists whose duplicate names another rule reports with the API server's error (duplicate-container-name). */
const COVERED_ELSEWHERE = new Set(['containers', 'initContainers', 'ephemeralContainers']);
/** Deeper values are not walked. */
const MAX_DEPTH = 64;

/** Reports every item of a built-in map list whose keys an earlier item of the list already has. */
export const checkListMapDuplicates: ObjectRule = (object, context) => {
  const definition = context.store.definitionOf(object.apiVersion, object.kind);
  if (definition === undefined) {
    return [];
  }
  const findings: TextFinding[] = [];
  const report = (path: InstancePath, message: string): void => {
    appendAll(findings, findingAt(rangeForValue(object.node, path), 'list-map-duplicate', message));
  };
  walk(context.store, { $ref: `#/definitions/${definition}` }, object.value, [], report);
  return findings;
};

type Report = (path: InstancePath, message: string) => void;

/** A schema as written, with its $ref followed once, and whether a map list is at or below it. */
interface SchemaFacts {
  readonly resolved: JsonSchema | undefined;
  holds: boolean;
}

/**
 * Facts per schema object of the bundle. Most of an object (metadata, resources, probes) has no map list below it
 * and is not walked; following a $ref that carries its own description copies the target, so it is done once. A
 * schema met again while it is being answered (a recursive definition) counts as having one.
 */
const factsBySchema = new WeakMap<JsonSchema, SchemaFacts>();

function factsOf(store: SchemaStore, schema: JsonSchema): SchemaFacts {
  const known = factsBySchema.get(schema);
  if (known !== undefined) {
    return known;
  }
  const resolved = store.resolve(schema);
  const facts: SchemaFacts = { resolved, holds: true };
  factsBySchema.set(schema, facts);
  facts.holds =
    resolved !== undefined &&
    (resolved['x-kubernetes-list-type'] === 'map' ||
      (resolved.items !== undefined && factsOf(store, resolved.items).holds) ||
      Object.values(resolved.properties ?? {}).some((property) => factsOf(store, property).holds) ||
      (typeof resolved.additionalProperties === 'object' &&
        factsOf(store, resolved.additionalProperties).holds));
  return facts;
}

/** Walks a value with its schema; `path` is the value's, pushed and popped on the way (copied when reported). */
function walk(
  store: SchemaStore,
  schema: JsonSchema | undefined,
  value: unknown,
  path: (string | number)[],
  report: Report,
): void {
  if (schema === undefined || path.length > MAX_DEPTH) {
    return;
  }
  const { resolved, holds } = factsOf(store, schema);
  if (resolved === undefined || !holds) {
    return;
  }
  if (Array.isArray(value)) {
    const keys = resolved['x-kubernetes-list-map-keys'];
    const last = path[path.length - 1];
    if (
      resolved['x-kubernetes-list-type'] === 'map' &&
      Array.isArray(keys) &&
      !COVERED_ELSEWHERE.has(String(last))
    ) {
      checkList(value, keys.map(String), store.resolve(resolved.items), path, report);
    }
    value.forEach((item: unknown, index) => {
      path.push(index);
      walk(store, resolved.items, item, path, report);
      path.pop();
    });
    return;
  }
  if (!isRecord(value)) {
    return;
  }
  for (const name of Object.keys(value)) {
    const property =
      resolved.properties?.[name] ??
      (typeof resolved.additionalProperties === 'object' ? resolved.additionalProperties : undefined);
    if (property !== undefined) {
      path.push(name);
      walk(store, property, value[name], path, report);
      path.pop();
    }
  }
}

function checkList(
  list: readonly unknown[],
  keyFields: readonly string[],
  items: JsonSchema | undefined,
  path: InstancePath,
  report: Report,
): void {
  const firstWithKey = new Map<string, number>();
  list.forEach((item, index) => {
    if (!isRecord(item)) {
      return;
    }
    const defaulted = keyOf(item, keyFields, items);
    const identity = JSON.stringify(defaulted);
    const first = firstWithKey.get(identity);
    if (first === undefined) {
      firstWithKey.set(identity, index);
      return;
    }
    const earlier = list[first];
    const isWritten =
      isRecord(earlier) &&
      JSON.stringify(keyOf(earlier, keyFields, undefined)) ===
        JSON.stringify(keyOf(item, keyFields, undefined)) &&
      JSON.stringify(keyOf(item, keyFields, undefined)) === identity;
    const itemPath = [...path, index];
    report(itemPath, messageOf(itemPath, first, keyFields, defaulted, isWritten));
  });
}

/** The key fields an item has, in the order of the keys, with their schema defaults when `items` is given. */
function keyOf(
  item: Record<string, unknown>,
  keyFields: readonly string[],
  items: JsonSchema | undefined,
): Record<string, unknown> {
  const key: Record<string, unknown> = {};
  for (const field of keyFields) {
    const value = item[field] ?? items?.properties?.[field]?.['default'];
    if (value !== undefined && value !== null) {
      key[field] = value;
    }
  }
  return key;
}

/**
 * The finding's text: the API server's field.Duplicate form, then structured-merge-diff's error. Server-side
 * apply fills a missing key from its schema default too (a port's protocol), so its key is the defaulted one.
 */
function messageOf(
  itemPath: InstancePath,
  firstIndex: number,
  keyFields: readonly string[],
  key: Record<string, unknown>,
  isWritten: boolean,
): string {
  const list = String(itemPath[itemPath.length - 2]);
  const selector = Object.entries(key)
    .map(([field, value]) => `${field}=${JSON.stringify(value)}`)
    .join(',');
  return (
    `${formatPath(itemPath)}: Duplicate value: ${formatBadValue(key)}: ${list}[${firstIndex}] has the same ` +
    `${keyFields.join(' and ')}${isWritten ? '' : ' once defaulted'}: server-side apply refuses ` +
    `the list (duplicate entries for key [${selector}]).`
  );
}
