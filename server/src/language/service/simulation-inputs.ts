/**
 * What the engine is given, as one comparable key: a prediction whose manifests and cluster give the same key
 * is the same prediction (the engine is deterministic), so its simulation is reused and only its findings are
 * placed again on the edited text. Edits that change no value (a comment, blank lines) give the same key, and
 * so do edits of the values of ConfigMaps and Secrets, which the engine never reads: it reads only their keys
 * (whether a container's env or a volume's items find the key they name), so the key holds the key names.
 */
import type { SourcedObject } from '../../engine/model/load/cluster-load';

/** The fields of a v1 ConfigMap or Secret whose values the engine never reads (only their keys). */
const DATA_FIELDS: ReadonlySet<string> = new Set(['data', 'binaryData', 'stringData']);

/**
 * Each manifest's part of the key, by object: the objects of an unchanged document are the same objects
 * keystroke after keystroke (the analyzer reuses its documents, and nothing mutates what it read; the engine
 * clones what it changes), so only the edited document's objects are serialised again.
 */
const objectTexts = new WeakMap<object, string>();

/**
 * The key of a simulation's inputs: `settings` (version, cluster) first, then every manifest with its source.
 * The same text as JSON.stringify of `[settings, [[source, object]…]]`, built from the remembered parts.
 */
export function simulationInputsKey(
  settings: readonly unknown[],
  manifests: readonly SourcedObject[],
): string {
  const entries = manifests.map(({ object, source }) => `[${JSON.stringify(source)},${objectText(object)}]`);
  return `[${JSON.stringify(settings)},[${entries.join(',')}]]`;
}

/** One object's JSON as the engine reads it (JSON.stringify's "null" for what has none, as inside an array). */
function objectText(object: unknown): string {
  if (typeof object !== 'object' || object === null) {
    return JSON.stringify(asEngineReadsIt(object)) ?? 'null';
  }
  let text = objectTexts.get(object);
  if (text === undefined) {
    text = JSON.stringify(asEngineReadsIt(object)) ?? 'null';
    objectTexts.set(object, text);
  }
  return text;
}

/** The object with what the engine never reads left out: a ConfigMap's or Secret's values become their keys. */
function asEngineReadsIt(object: unknown): unknown {
  if (!isRecord(object) || object['apiVersion'] !== 'v1') {
    return object;
  }
  if (object['kind'] !== 'ConfigMap' && object['kind'] !== 'Secret') {
    return object;
  }
  return Object.fromEntries(
    Object.entries(object).map(([field, value]) =>
      DATA_FIELDS.has(field) && isRecord(value) ? [field, Object.keys(value)] : [field, value],
    ),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
