/**
 * The API server drops a null it would not store before it defaults and validates a custom resource:
 * unstructuredSchemaCoercer.apply (apiextensions-apiserver pkg/apiserver/customresource_handler.go) prunes unknown
 * fields, then calls defaulting.PruneNonNullableNullsWithoutDefaults
 * (pkg/apiserver/schema/defaulting/prunenulls.go): a property whose value is null, whose schema is not nullable
 * and has no default, is removed; one with a default keeps its null for defaulting to replace. So a kubebuilder
 * sample's `spec:` with nothing under it is a custom resource without spec, not a spec of the wrong type. The
 * result is a new value; the input is not changed.
 */

import type { SchemaRecord } from './structural-walk';
import { isRecord } from '../../engine/model/objects';
import { walkStructural } from './structural-walk';

/** The value without the nulls the API server prunes (properties and additionalProperties; list items kept). */
export function pruneNonNullableNulls(schema: unknown, value: unknown): unknown {
  return walkStructural(schema, value, ({ value: object, properties, additional, recurse }) => {
    const out: SchemaRecord = {};
    for (const [key, child] of Object.entries(object)) {
      const childSchema = properties?.[key] ?? additional;
      if (!isRecord(childSchema)) {
        out[key] = child;
      } else if (child !== null) {
        out[key] = recurse(childSchema, child);
      } else if (childSchema['nullable'] === true || childSchema['default'] !== undefined) {
        // A null with a default is kept for defaulting to replace; a nullable one is stored as null.
        out[key] = child;
      }
    }
    return out;
  });
}
