/**
 * Validates a value against a schema from structural-schema.ts by walking the schema, with the errors ajv
 * (compiled with allErrors and verbose, strict off, unicodeRegExp off) gives for it: the same error objects
 * (keyword, instancePath, schemaPath, params, message, schema, parentSchema, data) in the same order, and a
 * schema ajv refuses to compile is refused here too (compileSchemaInterpreter throws).
 *
 * Why not ajv: ajv turns a schema into JavaScript source, and a CRD's schema is large (kube-prometheus' ten CRDs
 * give 13 MB of code, about 2 s to generate and more to parse), while a command line run or an editor session
 * validates a handful of custom resources of each kind. Walking the schema costs in proportion to the value,
 * not to the schema. The order and shape of ajv's errors follow its rule groups (lib/compile/rules.ts,
 * lib/compile/validate/index.ts): the keywords of no type (enum, not, anyOf, oneOf, allOf), then those of
 * numbers, strings, arrays and objects; a single type whose group has keywords is checked inside that group.
 * test/language/crd/schema-interpreter.test.ts compares both on every CRD of the fixtures and the corpus.
 * Follows ajv 8.20 (the version installed): https://github.com/ajv-validator/ajv/tree/master/lib/vocabularies
 */
import type { ErrorObject } from 'ajv';
import ucs2length from 'ajv/dist/runtime/ucs2length';
import type { JsonSchema } from '../schema/schema-store';
import type { PreparedNode, PreparedProperty } from './schema-interpreter-prepare';
import { prepareSchema } from './schema-interpreter-prepare';
import {
  COMPARISONS,
  escapePointer,
  findDuplicate,
  isInEnum,
  isOfAnyType,
  isOfType,
} from './schema-interpreter-values';

/** A validate function shaped as ajv's: true or false, and the errors of the last call. */
export interface InterpretedValidate {
  (data: unknown): boolean;
  errors: ErrorObject[] | null;
}

/** The validator of a schema; throws where ajv's compile would (an unknown type, a keyword of the wrong type…). */
export function compileSchemaInterpreter(schema: JsonSchema): InterpretedValidate {
  const root = prepareSchema(schema);
  const validate = ((data: unknown): boolean => {
    const errors: ErrorObject[] = [];
    validateNode(root, data, '', '#', errors);
    validate.errors = errors.length === 0 ? null : errors;
    return errors.length === 0;
  }) as InterpretedValidate;
  validate.errors = null;
  return validate;
}

/** Where a node is checked: its data, the data's and the schema's paths, and the errors so far. */
interface Here {
  readonly node: PreparedNode;
  readonly data: unknown;
  readonly path: string;
  readonly schemaPath: string;
  readonly errors: ErrorObject[];
}

/** Adds ajv's error object for a keyword of the node (verbose: schema, parentSchema and data included). */
function fail(here: Here, keyword: string, params: Record<string, unknown>, message: string): void {
  here.errors.push({
    instancePath: here.path,
    schemaPath: `${here.schemaPath}/${keyword}`,
    keyword,
    params,
    message,
    schema: (here.node.schema as Record<string, unknown>)[keyword],
    parentSchema: here.node.schema,
    data: here.data,
  } as ErrorObject);
}

function typeError(here: Here): void {
  const type = (here.node.schema as Record<string, unknown>)['type'];
  fail(here, 'type', { type }, `must be ${String(type)}`);
}

/** One schema node, as ajv's typeAndKeywords and schemaKeywords order it. */
function validateNode(
  node: PreparedNode,
  data: unknown,
  path: string,
  schemaPath: string,
  errors: ErrorObject[],
): void {
  const here: Here = { node, data, path, schemaPath, errors };
  if (node.typeFirst && !isOfAnyType(node.types, data)) {
    typeError(here);
  }
  if (node.untyped !== undefined) {
    validateUntyped(here, node.untyped);
  }
  // A single type whose group the node uses is checked there, in the group's turn.
  const deferred = !node.typeFirst && node.types.length === 1 ? node.types[0] : undefined;
  const groups = [
    ['number', node.number !== undefined, validateNumber],
    ['string', node.string !== undefined, validateString],
    ['array', node.array !== undefined, validateArray],
    ['object', node.object !== undefined, validateObject],
  ] as const;
  for (const [type, used, validate] of groups) {
    if (!used) {
      continue;
    }
    if (isOfType(type, data)) {
      validate(here);
    } else if (deferred === type) {
      typeError(here);
    }
  }
}

/** Whether a node accepts data; its errors go to `errors` (the caller keeps or drops them). */
function passes(node: PreparedNode, here: Here, schemaPath: string, errors: ErrorObject[]): boolean {
  const before = errors.length;
  validateNode(node, here.data, here.path, schemaPath, errors);
  return errors.length === before;
}

function validateUntyped(here: Here, untyped: NonNullable<PreparedNode['untyped']>): void {
  const { errors, schemaPath } = here;
  if (untyped.enum !== undefined && !isInEnum(untyped.enum, untyped.enumByLoop, here.data)) {
    fail(here, 'enum', { allowedValues: untyped.enum }, 'must be equal to one of the allowed values');
  }
  if (untyped.not !== undefined) {
    // An always valid `not` always fails; otherwise its errors are never made (createErrors: false).
    if (untyped.not === 'always' || passes(untyped.not, here, `${schemaPath}/not`, [])) {
      fail(here, 'not', {}, 'must NOT be valid');
    }
  }
  if (untyped.anyOf !== undefined) {
    // The first passing branch ends it and drops the errors of those before it.
    const before = errors.length;
    const valid = untyped.anyOf.some((branch, index) =>
      passes(branch, here, `${schemaPath}/anyOf/${index}`, errors),
    );
    if (valid) {
      errors.length = before;
    } else {
      fail(here, 'anyOf', {}, 'must match a schema in anyOf');
    }
  }
  if (untyped.oneOf !== undefined) {
    validateOneOf(here, untyped.oneOf);
  }
  untyped.allOf?.forEach(({ index, node }) =>
    validateNode(node, here.data, here.path, `${schemaPath}/allOf/${index}`, errors),
  );
}

/** oneOf: branches in turn until a second one passes (lib/vocabularies/applicator/oneOf.ts). */
function validateOneOf(here: Here, branches: readonly (PreparedNode | 'always')[]): void {
  const before = here.errors.length;
  let valid = false;
  let passing: number | [unknown, number] | null = null;
  for (const [index, branch] of branches.entries()) {
    const branchValid =
      branch === 'always' || passes(branch, here, `${here.schemaPath}/oneOf/${index}`, here.errors);
    if (index > 0 && branchValid && valid) {
      valid = false;
      passing = [passing, index];
      break;
    }
    if (branchValid) {
      valid = true;
      passing = index;
    }
  }
  if (valid) {
    here.errors.length = before;
  } else {
    fail(here, 'oneOf', { passingSchemas: passing }, 'must match exactly one schema in oneOf');
  }
}

function validateNumber(here: Here): void {
  const data = here.data as number;
  const schema = here.node.schema as Record<string, number | undefined>;
  for (const keyword of ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'] as const) {
    const limit = schema[keyword];
    if (limit !== undefined && COMPARISONS[keyword].fails(data, limit)) {
      const comparison = COMPARISONS[keyword].ok;
      fail(here, keyword, { comparison, limit }, `must be ${comparison} ${limit}`);
    }
  }
  const multipleOf = schema['multipleOf'];
  if (multipleOf !== undefined) {
    // ajv's test as it is: parseInt of the quotient's text (1e21 / 1 fails).
    const ratio = data / multipleOf;
    if (multipleOf === 0 || ratio !== parseInt(String(ratio))) {
      fail(here, 'multipleOf', { multipleOf }, `must be multiple of ${multipleOf}`);
    }
  }
}

function validateString(here: Here): void {
  const data = here.data as string;
  const schema = here.node.schema as Record<string, unknown>;
  const maxLength = schema['maxLength'] as number | undefined;
  const minLength = schema['minLength'] as number | undefined;
  if (maxLength !== undefined && ucs2length(data) > maxLength) {
    fail(here, 'maxLength', { limit: maxLength }, `must NOT have more than ${maxLength} characters`);
  }
  if (minLength !== undefined && ucs2length(data) < minLength) {
    fail(here, 'minLength', { limit: minLength }, `must NOT have fewer than ${minLength} characters`);
  }
  const pattern = here.node.string?.pattern;
  if (pattern !== undefined && !pattern.test(data)) {
    const source = String(schema['pattern']);
    fail(here, 'pattern', { pattern: source }, `must match pattern "${source}"`);
  }
}

function validateArray(here: Here): void {
  const data = here.data as unknown[];
  const schema = here.node.schema as Record<string, number | undefined>;
  const maxItems = schema['maxItems'];
  const minItems = schema['minItems'];
  if (maxItems !== undefined && data.length > maxItems) {
    fail(here, 'maxItems', { limit: maxItems }, `must NOT have more than ${maxItems} items`);
  }
  if (minItems !== undefined && data.length < minItems) {
    fail(here, 'minItems', { limit: minItems }, `must NOT have fewer than ${minItems} items`);
  }
  const items = here.node.array?.items;
  if (items !== undefined) {
    data.forEach((item, index) =>
      validateNode(items, item, `${here.path}/${index}`, `${here.schemaPath}/items`, here.errors),
    );
  }
  const itemTypes = here.node.array?.uniqueItemTypes;
  const duplicate = itemTypes === undefined ? undefined : findDuplicate(data, itemTypes);
  if (duplicate !== undefined) {
    const { i, j } = duplicate;
    fail(
      here,
      'uniqueItems',
      { i, j },
      `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    );
  }
}

function validateObject(here: Here): void {
  const data = here.data as Record<string, unknown>;
  const schema = here.node.schema as Record<string, unknown>;
  const maxProperties = schema['maxProperties'] as number | undefined;
  const minProperties = schema['minProperties'] as number | undefined;
  if (maxProperties !== undefined && Object.keys(data).length > maxProperties) {
    fail(
      here,
      'maxProperties',
      { limit: maxProperties },
      `must NOT have more than ${maxProperties} properties`,
    );
  }
  if (minProperties !== undefined && Object.keys(data).length < minProperties) {
    fail(
      here,
      'minProperties',
      { limit: minProperties },
      `must NOT have fewer than ${minProperties} properties`,
    );
  }
  const object = here.node.object;
  if (object === undefined) {
    return;
  }
  for (const missingProperty of object.required) {
    // As ajv's code: a lookup that reaches the prototype, and the name as written (a number stays a number).
    if (data[missingProperty as string] === undefined) {
      fail(here, 'required', { missingProperty }, `must have required property '${String(missingProperty)}'`);
    }
  }
  const additional = object.additional;
  if (additional !== undefined) {
    for (const key in data) {
      if (object.isDeclared(key)) {
        continue;
      }
      if (additional === 'refused') {
        fail(
          here,
          'additionalProperties',
          { additionalProperty: key },
          'must NOT have additional properties',
        );
      } else {
        const path = `${here.path}/${escapePointer(key)}`;
        validateNode(additional, data[key], path, `${here.schemaPath}/additionalProperties`, here.errors);
      }
    }
  }
  for (const property of object.properties) {
    validateProperty(here, data, property);
  }
}

function validateProperty(here: Here, data: Record<string, unknown>, property: PreparedProperty): void {
  const value = data[property.name];
  if (value !== undefined) {
    const path = `${here.path}/${property.pointer}`;
    validateNode(
      property.node,
      value,
      path,
      `${here.schemaPath}/properties/${property.fragment}`,
      here.errors,
    );
  }
}
