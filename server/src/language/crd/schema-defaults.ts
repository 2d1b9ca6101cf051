/**
 * Structural schema defaulting, as the API server does it before validating a custom resource
 * (staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting/algorithm.go): a property that is
 * missing, or null where the schema does not say nullable (null is pruned first), takes a copy of its `default`;
 * then defaulting goes on inside objects, list items and additionalProperties values. The result is a new value;
 * the input is not changed. Left out: defaults inside allOf/anyOf/oneOf (a structural schema forbids them) and
 * metadata defaults.
 */

import type { SchemaRecord } from './structural-walk';
import { isRecord } from '../../engine/model/objects';
import { walkStructural } from './structural-walk';

/** The value with the schema's defaults applied. */
export function applySchemaDefaults(schema: unknown, value: unknown): unknown {
  return walkStructural(schema, value, ({ value: object, properties, additional, recurse }) => {
    const out: SchemaRecord = {};
    for (const [key, child] of Object.entries(object)) {
      out[key] = recurse(properties?.[key] ?? additional, child);
    }
    for (const [key, childSchema] of Object.entries(properties ?? {})) {
      if (!isRecord(childSchema) || childSchema['default'] === undefined) {
        continue;
      }
      const current = out[key];
      if (current === undefined || (current === null && childSchema['nullable'] !== true)) {
        out[key] = recurse(childSchema, structuredClone(childSchema['default']));
      }
    }
    return out;
  });
}
