/**
 * Turns the structural schema of a CustomResourceDefinition version (spec.versions[].schema.openAPIV3Schema)
 * into a JSON schema that ajv validates the way the API server does with strict field validation:
 * - unknown fields are errors at every level (the API server prunes them, and kubectl's default strict field
 *   validation rejects them), unless x-kubernetes-preserve-unknown-fields is set;
 * - x-kubernetes-int-or-string accepts an integer or a string; nullable accepts null;
 * - apiVersion, kind and metadata are always allowed at the root, and in x-kubernetes-embedded-resource objects;
 * - OpenAPI 3.0's boolean exclusiveMinimum/exclusiveMaximum become JSON schema's numeric ones.
 * https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema
 * Defaults, list types (set and map uniqueness) and x-kubernetes-validations (CEL rules) are checked beside ajv
 * (custom-resource-checks.ts). Left out: formats, and patterns that JavaScript cannot read (Go's RE2 syntax
 * differs in corners); those are not checked.
 */
import type { JsonSchema } from '../schema/schema-store';

type SchemaRecord = Record<string, unknown>;

/** Keywords copied as they are (value validations ajv reads like the API server). */
const COPIED_KEYWORDS = [
  'type',
  'required',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'description',
] as const;

const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;

function isSchemaRecord(value: unknown): value is SchemaRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON schema for the root of a custom resource of one CRD version. */
export function toAjvSchema(openApiV3Schema: unknown): JsonSchema {
  const root = convert(openApiV3Schema, false);
  root.type = 'object';
  allowObjectMeta(root);
  return root;
}

/**
 * Converts one schema node. Inside allOf/anyOf/oneOf/not a structural schema only adds value validations to
 * what the outer schema declares, so there unknown fields are not forbidden (the outer level does that).
 */
function convert(node: unknown, isInJunctor: boolean): JsonSchema {
  if (!isSchemaRecord(node)) {
    return {};
  }
  const out: JsonSchema = {};
  const copied = out as Record<string, unknown>;
  for (const keyword of COPIED_KEYWORDS) {
    if (node[keyword] !== undefined) {
      copied[keyword] = node[keyword];
    }
  }
  copyBound(node, out, 'minimum', 'exclusiveMinimum');
  copyBound(node, out, 'maximum', 'exclusiveMaximum');
  if (typeof node['pattern'] === 'string' && isReadablePattern(node['pattern'])) {
    out['pattern'] = node['pattern'];
  }
  if (isSchemaRecord(node['properties'])) {
    out.properties = Object.fromEntries(
      Object.entries(node['properties']).map(([name, child]) => [name, convert(child, isInJunctor)]),
    );
  }
  if (node['items'] !== undefined) {
    out.items = convert(node['items'], isInJunctor);
  }
  for (const junctor of JUNCTORS) {
    const branches = node[junctor];
    if (Array.isArray(branches)) {
      out[junctor] = branches.map((branch) => convert(branch, true));
    }
  }
  if (node['not'] !== undefined) {
    out['not'] = convert(node['not'], true);
  }
  const preservesUnknown = node['x-kubernetes-preserve-unknown-fields'] === true;
  if (isSchemaRecord(node['additionalProperties'])) {
    out.additionalProperties = convert(node['additionalProperties'], isInJunctor);
  } else if (typeof node['additionalProperties'] === 'boolean') {
    out.additionalProperties = node['additionalProperties'];
  } else if (!preservesUnknown && !isInJunctor && isObjectSchema(node)) {
    out.additionalProperties = false;
  }
  if (node['x-kubernetes-embedded-resource'] === true) {
    allowObjectMeta(out);
  }
  if (node['x-kubernetes-int-or-string'] === true) {
    out.type = ['integer', 'string'];
  }
  if (node['nullable'] === true) {
    allowNull(out);
  }
  return out;
}

/** Whether a node describes an object whose unknown fields the API server would drop. */
function isObjectSchema(node: SchemaRecord): boolean {
  return node['type'] === 'object' || isSchemaRecord(node['properties']);
}

/** OpenAPI 3.0 writes `exclusiveMinimum: true` beside minimum; JSON schema wants the bound itself. */
function copyBound(
  node: SchemaRecord,
  out: JsonSchema,
  bound: 'minimum' | 'maximum',
  exclusive: string,
): void {
  if (node[exclusive] === true && typeof node[bound] === 'number') {
    out[exclusive] = node[bound];
    delete out[bound];
  }
}

function isReadablePattern(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/**
 * The fields of ObjectMeta (k8s.io/apimachinery/pkg/apis/meta/v1 ObjectMeta): strict decoding refuses any other
 * under metadata (`unknown field "metadata.lables"`), whatever the CRD says.
 */
const OBJECT_META_FIELDS = [
  'annotations',
  'creationTimestamp',
  'deletionGracePeriodSeconds',
  'deletionTimestamp',
  'finalizers',
  'generateName',
  'generation',
  'labels',
  'managedFields',
  'name',
  'namespace',
  'ownerReferences',
  'resourceVersion',
  'selfLink',
  'uid',
] as const;

/** Allows apiVersion, kind and metadata (the root, and embedded resources, always have them). */
function allowObjectMeta(schema: JsonSchema): void {
  // metadata is an ObjectMeta whatever the CRD says; a CRD may only narrow name and generateName.
  const declared = schema.properties?.['metadata']?.properties ?? {};
  const metadata: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(
      OBJECT_META_FIELDS.map((field) => [
        field,
        (field === 'name' || field === 'generateName') && declared[field] !== undefined
          ? declared[field]
          : {},
      ]),
    ),
    additionalProperties: false,
  };
  schema.properties = {
    ...(schema.properties ?? {}),
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata,
  };
}

function allowNull(schema: JsonSchema): void {
  if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
  } else if (Array.isArray(schema.type) && !schema.type.includes('null')) {
    schema.type = [...schema.type, 'null'];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...schema.enum, null];
  }
}
