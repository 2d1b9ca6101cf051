/**
 * The defaults of the keys of `x-kubernetes-list-type: map` lists, copied into the generated schema. Defaults
 * are otherwise dropped (transform.ts), but the API server fills a key's default in before anything compares
 * items (a container port's protocol is TCP when unset), so two ports 80, one with `protocol: TCP` and one
 * without, have the same keys. Only scalar defaults of key properties are kept.
 */
import type { JsonObject, JsonValue } from './json';
import { isJsonObject } from './json';
import { LIST_MAP_KEYS_EXTENSION, LIST_TYPE_EXTENSION } from './transform';

const REF_PREFIX = '#/definitions/';

/**
 * Adds to each translated definition used as the items of a map list the `default` its source gives each key
 * property. `openApi` holds the source definitions, `definitions` the translated ones (changed in place).
 */
export function keepListMapKeyDefaults(
  openApi: Readonly<Record<string, JsonObject>>,
  definitions: Record<string, JsonObject>,
): void {
  for (const schema of Object.values(definitions)) {
    visit(schema, (itemsDefinition, keys) => {
      const source = openApi[itemsDefinition]?.['properties'];
      const target = definitions[itemsDefinition]?.['properties'];
      if (!isJsonObject(source) || !isJsonObject(target)) {
        return;
      }
      for (const key of keys) {
        const sourceProperty = source[key];
        const targetProperty = target[key];
        const value = isJsonObject(sourceProperty) ? sourceProperty['default'] : undefined;
        if (isScalar(value) && isJsonObject(targetProperty)) {
          targetProperty['default'] = value;
        }
      }
    });
  }
}

/** Calls `found` with the items' definition and the keys of every map list inside a translated schema. */
function visit(value: JsonValue, found: (itemsDefinition: string, keys: string[]) => void): void {
  if (Array.isArray(value)) {
    value.forEach((item) => visit(item, found));
    return;
  }
  if (!isJsonObject(value)) {
    return;
  }
  const keys = value[LIST_MAP_KEYS_EXTENSION];
  const items = value['items'];
  const ref = isJsonObject(items) ? items['$ref'] : undefined;
  if (value[LIST_TYPE_EXTENSION] === 'map' && Array.isArray(keys) && typeof ref === 'string') {
    found(
      ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref,
      keys.filter((key): key is string => typeof key === 'string'),
    );
  }
  for (const child of Object.values(value)) {
    visit(child, found);
  }
}

function isScalar(value: JsonValue | undefined): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
