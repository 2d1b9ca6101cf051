/**
 * The one definition of each object an apply keeps: sequential `kubectl apply` leaves the later definition of the
 * same object (API group, kind, namespace, name) in one apply unit, with one `duplicate-object` warning per pair of
 * files naming the later file (and how many objects it redefines); two units defining it are no duplicate, one
 * `kustomizations-overlap` note per pair of units says so (read-manifests.ts reads the entries).
 */
import type { SourcedObject } from '../../engine/model/load/cluster-load';
import { isClusterScoped } from '../../engine/model/cluster-scoped-kinds';
import type { ManifestObject } from '../kubernetes/manifest-object';
import type { Finding } from '../../../../protocol/finding';

/** An object read, in apply order: its identity key (none without a name) and its apply unit. */
export interface DefinedEntry {
  readonly sourced: SourcedObject;
  readonly object: ManifestObject;
  readonly key: string | undefined;
  readonly unit: string | undefined;
}

/**
 * The objects the apply leaves, in order: the last definition of each within its unit, and every object without a
 * name. `describe` names a place of another file; findings are appended to `findings`.
 */
export function keepLastDefinitions(
  entries: readonly DefinedEntry[],
  describe: (fileId: string, documentIndex: number, object: ManifestObject) => string,
  findings: Finding[],
): SourcedObject[] {
  const last = new Map<string, DefinedEntry>();
  for (const entry of entries) {
    if (entry.key !== undefined) {
      last.set(entry.key, entry);
    }
  }
  const objects: SourcedObject[] = [];
  const overlaps = new Set<string>();
  // Definitions made again later in the same unit, by pair of files: one finding per pair.
  const redefined = new Map<string, { entry: DefinedEntry; winner: DefinedEntry }[]>();
  for (const entry of entries) {
    const winner = entry.key === undefined ? entry : last.get(entry.key);
    if (winner === entry || winner === undefined) {
      objects.push(entry.sourced);
      continue;
    }
    if (winner.unit !== entry.unit) {
      // Another unit's apply of the same object (an overlay beside another, an alternative install in another
      // folder): no duplicate, one note per pair of units, on the first object they share.
      noteOverlap(entry, winner, overlaps, findings);
      continue;
    }
    const pair = `${entry.sourced.source.file}\u0000${winner.sourced.source.file}`;
    // Pushed onto the pair's list: copying the list at each redefinition was quadratic in a file's redefinitions.
    const redefinitions = redefined.get(pair) ?? [];
    redefinitions.push({ entry, winner });
    redefined.set(pair, redefinitions);
  }
  for (const pairs of redefined.values()) {
    const first = pairs[0];
    if (first === undefined) {
      continue;
    }
    const { entry, winner } = first;
    const { source } = winner.sourced;
    const again = describe(source.file, source.documentIndex, winner.object);
    findings.push({
      code: 'duplicate-object',
      severity: 'warning',
      object: entry.sourced.source,
      path: ['metadata', 'name'],
      message:
        pairs.length === 1
          ? `${describeObject(entry.object)} is defined again in ${again}: kubectl apply applies both in turn and keeps the later definition, so this one has no effect`
          : `${source.file} redefines ${pairs.length} objects of ${entry.sourced.source.file} (the first: ${describeObject(entry.object)}, again in ${again}): kubectl apply applies both in turn and keeps the later definitions, so these have no effect`,
    });
  }
  return objects;
}

/** The note that two kustomizations define the same objects, once per pair. */
function noteOverlap(
  entry: DefinedEntry,
  winner: DefinedEntry,
  overlaps: Set<string>,
  findings: Finding[],
): void {
  const pair = `${entry.unit ?? ''}\u0000${winner.unit ?? ''}`;
  if (overlaps.has(pair)) {
    return;
  }
  overlaps.add(pair);
  const later = winner.unit ?? 'the other manifests';
  findings.push({
    code: 'kustomizations-overlap',
    severity: 'information',
    object: entry.sourced.source,
    path: ['metadata', 'name'],
    message: `${describeObject(entry.object)} is also applied by ${later}: each unit (a kustomization, a folder, a file) is an apply of its own (alternatives such as two overlays of one base, or two installs, are not duplicates), but simulated together they are applied in turn and the later one is what is simulated. Simulate one unit at a time to predict it.`,
  });
}

function describeObject(object: ManifestObject): string {
  const namespace = isClusterScoped(object.apiVersion, object.kind)
    ? ''
    : `${object.namespace ?? 'default'}/`;
  return `${object.kind} ${namespace}${object.name ?? ''}`;
}
