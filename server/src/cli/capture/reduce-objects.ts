/**
 * What `foresight capture` keeps of each object before anything is written. A Secret keeps its name, namespace,
 * labels, type and the names of its keys (each with an empty value): the kubelet's checks read which keys exist,
 * never their values (model/load/config-objects.ts), so no value reaches the disk. Its annotations go too:
 * `kubectl.kubernetes.io/last-applied-configuration` holds the whole Secret as it was applied, values included.
 * Every object loses metadata.managedFields, which only says who set which field.
 */

/** The metadata a reduced Secret keeps. */
const SECRET_METADATA = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'labels',
] as const;

/** An object as the capture writes it. */
export function reduceObject(object: unknown): unknown {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    return object;
  }
  const record = object as Record<string, unknown>;
  if (record['kind'] === 'Secret') {
    return reduceSecret(record);
  }
  const metadata = asRecord(record['metadata']);
  if (metadata['managedFields'] === undefined) {
    return record;
  }
  const rest = { ...metadata };
  delete rest['managedFields'];
  return { ...record, metadata: rest };
}

/** A Secret reduced to its name and the names of its keys. */
export function reduceSecret(secret: Record<string, unknown>): Record<string, unknown> {
  const metadata = asRecord(secret['metadata']);
  const keptMetadata: Record<string, unknown> = {};
  for (const field of SECRET_METADATA) {
    if (metadata[field] !== undefined) {
      keptMetadata[field] = metadata[field];
    }
  }
  const keys = [...Object.keys(asRecord(secret['data'])), ...Object.keys(asRecord(secret['stringData']))];
  return {
    apiVersion: secret['apiVersion'] ?? 'v1',
    kind: 'Secret',
    metadata: keptMetadata,
    ...(typeof secret['type'] === 'string' ? { type: secret['type'] } : {}),
    data: Object.fromEntries([...new Set(keys)].sort().map((key) => [key, ''])),
  };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
