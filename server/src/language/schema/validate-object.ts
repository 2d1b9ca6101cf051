/**
 * Validates one Kubernetes object against its schema and turns ajv errors into findings placed on the exact key
 * or value: one clear message per problem, in the API server's wording where it has one.
 */
import type { ErrorObject } from 'ajv';
import type { Node } from 'yaml';
import { parseQuantity } from '../../engine/model/quantity';
import type { TextFinding } from '../findings';
import type { InstancePath } from '../yaml/node-at-path';
import { rangeForKey, rangeForValue } from '../yaml/node-at-path';
import type { JsonSchema, SchemaStore } from './schema-store';
import { closestMatch } from './closest-match';
import { isServerDefaulted } from './server-defaults';
import { severityOf } from '../findings';

/** How much of the schema applies: all of it, unless the object is a patch or has fields supplied elsewhere. */
export interface SchemaCheckOptions {
  /** A partial object (a kustomize patch): its fields must exist and have the right types, none is required. */
  readonly partial?: boolean;
  /**
   * Required fields that something else supplies (kustomize's transformers): by the JSON pointer of the object
   * that holds them ('/spec'), the names not to require there.
   */
  readonly supplied?: ReadonlyMap<string, readonly string[]>;
}

/** Validates an object of a built-in kind; returns no finding when the store does not know the kind. */
export function validateAgainstSchema(
  store: SchemaStore,
  apiVersion: string,
  kind: string,
  value: unknown,
  node: Node | undefined,
  options: SchemaCheckOptions = {},
): TextFinding[] {
  const validate = store.validatorFor(apiVersion, kind);
  if (validate === undefined) {
    return [];
  }
  const errors = validate(value)
    ? []
    : (validate.errors ?? []).filter(
        (error) => !isRequiredIgnored(error, options) && !isDefaultedByServer(apiVersion, kind, error),
      );
  const findings = mapSchemaErrors(errors, value, node);
  return options.partial === true
    ? findings
    : [...findings, ...nullListItemFindings(store, apiVersion, kind, value, node)];
}

/** A missing field the API server defaults before validating (schema/server-defaults.ts). */
function isDefaultedByServer(apiVersion: string, kind: string, error: ErrorObject): boolean {
  if (error.keyword !== 'required') {
    return false;
  }
  const field = String((error.params as { missingProperty?: unknown }).missingProperty);
  return isServerDefaulted(apiVersion, kind, error.instancePath, field);
}

function isRequiredIgnored(error: ErrorObject, options: SchemaCheckOptions): boolean {
  if (error.keyword !== 'required') {
    return false;
  }
  if (options.partial === true) {
    return true;
  }
  const field = String((error.params as { missingProperty?: unknown }).missingProperty);
  return options.supplied?.get(error.instancePath)?.includes(field) === true;
}

/** Lists deeper than this are not searched for null items (the schema validation still covers them). */
const MAX_NULL_SEARCH_DEPTH = 64;

/**
 * A null item in a list of objects (`containers: [null]`, `volumes: [~]`): the schemas accept null wherever a
 * field may be left out, but the API server decodes a null list item as an empty object, which then lacks the
 * item's required fields. Reported on the item, naming them.
 */
function nullListItemFindings(
  store: SchemaStore,
  apiVersion: string,
  kind: string,
  value: unknown,
  node: Node | undefined,
): TextFinding[] {
  const findings: TextFinding[] = [];
  const visit = (current: unknown, path: (string | number)[]): void => {
    if (path.length > MAX_NULL_SEARCH_DEPTH || typeof current !== 'object' || current === null) {
      return;
    }
    if (Array.isArray(current)) {
      current.forEach((item: unknown, index) => {
        if (item === null) {
          const itemSchema = store.schemaAtPath(apiVersion, kind, [...path, index]);
          const required = itemSchema?.required ?? [];
          if (required.length > 0) {
            const finding = place(rangeForValue(node, [...path, index]), {
              code: 'schema-required',
              message: `${formatPath([...path, index])} is null: the API server reads it as an empty object, which lacks the required field${required.length === 1 ? '' : 's'} ${required.map((name) => `"${name}"`).join(', ')}.`,
            });
            if (finding !== undefined) {
              findings.push(finding);
            }
          }
        } else {
          visit(item, [...path, index]);
        }
      });
      return;
    }
    for (const [key, child] of Object.entries(current as Record<string, unknown>)) {
      visit(child, [...path, key]);
    }
  };
  visit(value, []);
  return findings;
}

/** Maps ajv errors (from a validator compiled with allErrors and verbose) onto findings. */
export function mapSchemaErrors(
  errors: readonly ErrorObject[],
  value: unknown,
  node: Node | undefined,
): TextFinding[] {
  const findings: TextFinding[] = [];
  for (const error of errors) {
    const path = decodeInstancePath(error.instancePath, value);
    const finding = mapError(error, path, node);
    if (finding !== undefined) {
      findings.push(finding);
    }
  }
  return findings;
}

function mapError(error: ErrorObject, path: InstancePath, node: Node | undefined): TextFinding | undefined {
  const where = formatPath(path);
  switch (error.keyword) {
    case 'additionalProperties': {
      const field = String((error.params as { additionalProperty?: unknown }).additionalProperty);
      const known = propertyNamesOf(error.parentSchema);
      const suggestion = closestMatch(field, known);
      const range = rangeForKey(node, [...path, field]);
      return place(range, {
        code: 'schema-unknown-field',
        message:
          `Unknown field "${field}"${where === '' ? '' : ` in ${where}`}` +
          (suggestion === undefined ? '.' : `; did you mean "${suggestion}"?`),
        fix:
          suggestion === undefined
            ? undefined
            : { replacement: suggestion, title: `Rename to "${suggestion}"` },
      });
    }
    case 'required': {
      const field = String((error.params as { missingProperty?: unknown }).missingProperty);
      const range = path.length === 0 ? rangeForValue(node, ['kind']) : rangeForKey(node, path);
      return place(range, {
        code: 'schema-required',
        message: `Missing required field "${field}"${where === '' ? '' : ` in ${where}`}.`,
      });
    }
    case 'type': {
      const expected = String((error.params as { type?: unknown }).type)
        .split(',')
        .filter((type) => type !== 'null');
      const actual = describeValue(error.data);
      const quotedNumber =
        typeof error.data === 'string' && expected.includes('integer') && /^-?\d+$/.test(error.data.trim());
      return place(rangeForValue(node, path), {
        code: 'schema-type',
        message:
          `${where === '' ? 'Value' : `"${where}"`} must be ${expected.join(' or ')}, not ${actual}` +
          (quotedNumber ? '; remove the quotes.' : '.'),
        fix: quotedNumber
          ? { replacement: String(error.data).trim(), title: 'Remove the quotes' }
          : undefined,
      });
    }
    case 'enum': {
      const allowed = ((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).filter(
        (v) => v !== null,
      );
      const suggestion =
        typeof error.data === 'string' ? closestMatch(error.data, allowed.map(String)) : undefined;
      return place(rangeForValue(node, path), {
        code: 'schema-enum',
        message: `Unsupported value: ${JSON.stringify(error.data)}: supported values: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
        fix:
          suggestion === undefined
            ? undefined
            : { replacement: suggestion, title: `Change to "${suggestion}"` },
      });
    }
    case 'format': {
      if ((error.params as { format?: unknown }).format !== 'quantity') {
        return undefined;
      }
      return place(rangeForValue(node, path), quantityFinding(error.data, where));
    }
    default:
      return place(rangeForValue(node, path), {
        code: 'schema-constraint',
        message: `${where === '' ? 'Value' : `"${where}"`} ${error.message ?? 'is invalid'}.`,
      });
  }
}

/** The finding for a malformed quantity, with a hint for the usual unit mistakes. */
function quantityFinding(data: unknown, where: string): Pick<TextFinding, 'code' | 'message' | 'fix'> {
  const parsed = parseQuantity(typeof data === 'number' ? data : String(data));
  const suggestions = parsed.ok ? [] : parsed.suggestions;
  const hint = suggestions.length === 0 ? '' : `: did you mean ${suggestions.join(' or ')}?`;
  const [first, ...others] = suggestions;
  return {
    code: 'invalid-quantity',
    message:
      `${JSON.stringify(data)} is not a quantity${where === '' ? '' : ` (${where})`}${hint}` +
      (hint === '' ? '; use a number with an optional suffix such as 500m, 128Mi or 1Gi.' : ''),
    fix:
      first === undefined
        ? undefined
        : {
            replacement: first,
            title: `Change to ${first}`,
            ...(others.length === 0
              ? {}
              : {
                  alternatives: others.map((other) => ({ replacement: other, title: `Change to ${other}` })),
                }),
          },
  };
}

/** The property names a schema declares (ajv's parentSchema is untyped). */
function propertyNamesOf(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) {
    return [];
  }
  const properties = (schema as JsonSchema).properties;
  return properties === undefined ? [] : Object.keys(properties);
}

function place(
  range: readonly [number, number] | undefined,
  finding: Pick<TextFinding, 'code' | 'message' | 'fix'>,
): TextFinding | undefined {
  if (range === undefined) {
    return undefined;
  }
  const result: TextFinding = {
    code: finding.code,
    severity: severityOf(finding.code),
    message: finding.message,
    start: range[0],
    end: range[1],
  };
  return finding.fix === undefined ? result : { ...result, fix: finding.fix };
}

/** Decodes a JSON pointer into a path, with numbers for array indexes (decided from the value itself). */
/** The path of an ajv instance path (a JSON pointer) in a value: array indexes as numbers, keys as strings. */
export function decodeInstancePath(pointer: string, value: unknown): (string | number)[] {
  if (pointer === '') {
    return [];
  }
  const path: (string | number)[] = [];
  let current: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      const index = Number(segment);
      path.push(index);
      current = current[index];
    } else {
      path.push(segment);
      current =
        typeof current === 'object' && current !== null
          ? (current as Record<string, unknown>)[segment]
          : undefined;
    }
  }
  return path;
}

/** Formats a path as people read it: spec.template.spec.containers[0].image. */
export function formatPath(path: InstancePath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') {
      text += `[${segment}]`;
    } else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) {
      text += text === '' ? segment : `.${segment}`;
    } else {
      text += `[${JSON.stringify(segment)}]`;
    }
  }
  return text;
}

function describeValue(data: unknown): string {
  if (data === null) {
    return 'null';
  }
  if (Array.isArray(data)) {
    return 'a list';
  }
  switch (typeof data) {
    case 'string':
      return `string ${JSON.stringify(data.length > 40 ? `${data.slice(0, 40)}…` : data)}`;
    case 'number':
      return Number.isInteger(data) ? `integer ${data}` : `number ${data}`;
    case 'boolean':
      return `boolean ${String(data)}`;
    case 'object':
      return 'an object';
    default:
      return typeof data;
  }
}
