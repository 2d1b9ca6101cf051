/**
 * Validation of custom resources by the CustomResourceDefinitions among the analysed objects: for each served
 * version, `<group>/<version>` and spec.names.kind are validated against that version's openAPIV3Schema
 * (converted by structural-schema.ts), plus the metadata checks the API server makes on every custom resource
 * (a DNS-1123 subdomain name, label syntax), list-type uniqueness and x-kubernetes-validations rules
 * (custom-resource-checks.ts). Each CRD's schemas are prepared once and cached by the CRD's JSON
 * text, so rebuilding the validator after an edit elsewhere costs nothing. The schemas are walked
 * (schema-interpreter.ts) with ajv's errors rather than compiled by ajv: a CRD's schema is large and its custom
 * resources few. A schema ajv cannot compile leaves its kind known but unchecked: no finding, no crash.
 */
import type { ErrorObject } from 'ajv';
import type { CustomKindValidator } from '../analyzer';
import type { TextFinding } from '../findings';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { groupOf } from '../kubernetes/pod-spec-paths';
import { isRecord } from '../../engine/model/objects';
import { checkObjectLabels } from '../rules/invalid-labels';
import { checkNameFields } from '../rules/invalid-name';
import { findingAt } from '../rules/rule-support';
import { decodeInstancePath, formatPath, mapSchemaErrors } from '../schema/validate-object';
import type { JsonSchema } from '../schema/schema-store';
import { rangeForKey, rangeForValue } from '../yaml/node-at-path';
import type { CrdDefinition } from './crd-definitions';
import { readCrdDefinition } from './crd-definitions';
import { checkListsAndRules, unknownFieldFindings } from './custom-resource-checks';
import { applySchemaDefaults } from './schema-defaults';
import { pruneNonNullableNulls } from './prune-nulls';
import type { InterpretedValidate } from './schema-interpreter';
import { compileSchemaInterpreter } from './schema-interpreter';
import { toAjvSchema } from './structural-schema';
import { appendAll } from '../../../../protocol/collections';

/** A CustomKindValidator with a key that changes whenever the CRDs behind it change. */
export interface CrdKindValidator extends CustomKindValidator {
  /** Identifies the CRDs (put it in the AnalysisContext key so cached analyses are redone when they change). */
  readonly key: string;
  /** "<group>/<kind>" of every kind the CRDs define, sorted. */
  readonly kinds: readonly string[];
}

interface CompiledVersion {
  readonly served: boolean;
  /** The version's openAPIV3Schema as written (list types, defaults and CEL rules are read from it). */
  readonly structural: unknown;
  /** Whether the schema has x-kubernetes-validations rules anywhere. */
  readonly hasRules: boolean;
  /** Undefined when the version has no schema or its schema could not be compiled. */
  readonly validate: InterpretedValidate | undefined;
  readonly schema: JsonSchema | undefined;
}

interface CompiledCrd {
  readonly definition: CrdDefinition;
  readonly versions: ReadonlyMap<string, CompiledVersion>;
}

/** How many prepared CRDs are kept; the oldest is dropped beyond it. */
const MAX_CACHED_CRDS = 200;

const compiledByText = new Map<string, CompiledCrd>();

/** Builds the validator of the kinds defined by the CRDs among some objects (other objects are ignored). */
export function buildCustomKindValidator(crdObjects: readonly ManifestObject[]): CrdKindValidator {
  // Definitions only: a kind's schemas are compiled the first time a custom resource of that kind is
  // validated, so a folder of CRDs without custom resources compiles nothing.
  const byKind = new Map<string, CrdDefinition>();
  for (const object of crdObjects) {
    const definition = readCrdDefinition(object);
    if (definition === undefined) {
      continue;
    }
    const key = `${definition.group}/${definition.kind}`;
    if (!byKind.has(key)) {
      byKind.set(key, definition);
    }
  }
  const kinds = [...byKind.keys()].sort();
  const texts = kinds.map((kind) => byKind.get(kind)?.text ?? '');
  return {
    key: `crds:${kinds.length}:${hashText(texts.join('\u0000'))}`,
    kinds,
    validate: (object) => {
      const definition = byKind.get(`${groupOf(object.apiVersion)}/${object.kind}`);
      return definition === undefined ? 'unknown' : validateCustomResource(object, compiledCrdOf(definition));
    },
  };
}

function compiledCrdOf(definition: CrdDefinition): CompiledCrd {
  const cached = compiledByText.get(definition.text);
  if (cached !== undefined) {
    return cached;
  }
  const versions = new Map<string, CompiledVersion>();
  for (const version of definition.versions) {
    versions.set(version.name, {
      served: version.served,
      structural: version.schema,
      hasRules: JSON.stringify(version.schema ?? null).includes('"x-kubernetes-validations"'),
      ...compileSchema(version.schema),
    });
  }
  const compiled: CompiledCrd = { definition, versions };
  compiledByText.set(definition.text, compiled);
  if (compiledByText.size > MAX_CACHED_CRDS) {
    const oldestText = compiledByText.keys().next().value;
    if (oldestText !== undefined) {
      compiledByText.delete(oldestText);
    }
  }
  return compiled;
}

function compileSchema(schema: unknown): Pick<CompiledVersion, 'validate' | 'schema'> {
  if (schema === undefined) {
    return { validate: undefined, schema: undefined };
  }
  const converted = toAjvSchema(schema);
  try {
    return { validate: compileSchemaInterpreter(converted), schema: converted };
  } catch {
    // A schema ajv would not compile (the API server would have refused the CRD): the kind stays known but
    // unchecked.
    return { validate: undefined, schema: undefined };
  }
}

function validateCustomResource(object: ManifestObject, compiled: CompiledCrd): TextFinding[] {
  const versionName = object.apiVersion.slice(object.apiVersion.indexOf('/') + 1);
  const version = compiled.versions.get(versionName);
  if (version === undefined || !version.served) {
    return notServedFindings(object, compiled.definition);
  }
  const findings: TextFinding[] = [];
  const validate = version.validate;
  // The API server drops nulls it would not store (prune-nulls.ts), then defaults a custom resource from its
  // schema, before it validates it (a defaulted field can decide a oneOf branch or a list-map key), so every
  // check below reads the pruned, defaulted value.
  const value =
    version.structural === undefined
      ? object.value
      : applySchemaDefaults(version.structural, pruneNonNullableNulls(version.structural, object.value));
  if (validate !== undefined && !validate(value)) {
    const errors = validate.errors ?? [];
    const unknown = errors.filter((error) => error.keyword === 'additionalProperties');
    const others = errors.filter((error) => error.keyword !== 'additionalProperties');
    appendAll(findings, [
      ...unknownFieldFindings(unknown, value, object.node),
      ...others.flatMap(
        (error) => droppedNullFinding(error, object) ?? mapSchemaErrors([error], value, object.node),
      ),
    ]);
  }
  if (version.structural !== undefined && validate !== undefined) {
    appendAll(
      findings,
      checkListsAndRules(version.structural, value, object.node, version.hasRules).findings,
    );
  }
  appendAll(findings, [...checkNameFields(object, 'dns1123-subdomain'), ...checkObjectLabels(object)]);
  return findings;
}

/**
 * A required field written as null (a kubebuilder sample's `spec:` with nothing under it): the API server dropped
 * it before validating (prune-nulls.ts), so it is missing; said so on the field itself, with the API server's
 * error (field.Required: "spec: Required value"), since the file does show the field.
 */
function droppedNullFinding(error: ErrorObject, object: ManifestObject): TextFinding[] | undefined {
  if (error.keyword !== 'required') {
    return undefined;
  }
  const field = String((error.params as { missingProperty?: unknown }).missingProperty);
  const path = decodeInstancePath(error.instancePath, object.value);
  const parent = path.reduce<unknown>(
    (current, segment) =>
      isRecord(current) || Array.isArray(current) ? (current as Record<string, unknown>)[segment] : undefined,
    object.value,
  );
  if (!isRecord(parent) || parent[field] !== null) {
    return undefined;
  }
  const where = formatPath(path);
  return findingAt(
    rangeForKey(object.node, [...path, field]),
    'schema-required',
    `Missing required field "${field}"${where === '' ? '' : ` in ${where}`}: it is null here, and the API server drops a custom resource's null fields before it validates it, so the apply is refused ("${formatPath([...path, field])}: Required value").`,
  );
}

function notServedFindings(object: ManifestObject, definition: CrdDefinition): TextFinding[] {
  const served = definition.versions
    .filter((version) => version.served)
    .map((version) => `${definition.group}/${version.name}`);
  const only = served.length === 1 ? served[0] : undefined;
  return findingAt(
    rangeForValue(object.node, ['apiVersion']),
    'unknown-kind',
    `CustomResourceDefinition ${definition.crdName} does not serve ${object.apiVersion}` +
      (served.length === 0 ? '; it serves no version.' : `; served: ${served.join(', ')}.`),
    only === undefined ? undefined : { replacement: only, title: `Change apiVersion to ${only}` },
  );
}

/** FNV-1a (32 bits) of a text, in hex: a short, deterministic identity for the context key. */
function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
