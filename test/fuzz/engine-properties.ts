/**
 * Fuzz properties of the engine: manifests and cluster objects mutated at random places (a value replaced by
 * null, a number, a string, a malformed quantity, a list, an object; a list item nulled) must be simulated
 * without an exception, and simulating the same input twice must give the same report.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import type { SourcedObject } from '../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../server/src/engine/simulate/simulate';
import { loadSeedFiles } from './inputs';

const EXAMPLES_CLUSTER = join(__dirname, '..', '..', 'examples', '.foresight', 'cluster.yaml');

/** Every Kubernetes object of the seed files and of the examples' cluster file, as the engine takes them. */
export function loadEngineSeeds(which: 'examples' | 'all' = 'all'): {
  manifests: SourcedObject[];
  cluster: SourcedObject[];
} {
  const objectsOf = (text: string, file: string): SourcedObject[] =>
    parseAllDocuments(text).flatMap((document, documentIndex) => {
      if (!('toJS' in document) || document.errors.length > 0) {
        return [];
      }
      const object: unknown = document.toJS({ maxAliasCount: 100 });
      return typeof object === 'object' && object !== null && 'kind' in object
        ? [{ object, source: { file, documentIndex, path: [] } }]
        : [];
    });
  return {
    manifests: loadSeedFiles()
      .filter((seed) => which === 'all' || !seed.name.includes('+'))
      .flatMap((seed) => objectsOf(seed.text, seed.name)),
    cluster: objectsOf(readFileSync(EXAMPLES_CLUSTER, 'utf8'), 'cluster.yaml'),
  };
}

/** Few pods per run keep the runs short; a mutated `replicas: 1000000` meets the limit instead. */
const MAX_PODS = 2_000;

/** What replaces a value: the shapes a person (or a broken generator) writes where another was expected. */
const replacement = fc.oneof(
  fc.constant(null),
  fc.constant('128mb'),
  fc.constant('-1'),
  fc.constant(''),
  fc.constant([null]),
  fc.constant({}),
  fc.constant([]),
  fc.integer({ min: -5, max: 1_000_000 }),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.string({ maxLength: 12 }),
  fc.array(fc.oneof(fc.constant(null), fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 3 }),
);

/** One mutation: which object, which place in it (an index into its values, taken modulo their count), what. */
interface Mutation {
  readonly object: number;
  readonly place: number;
  readonly value: unknown;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  object: fc.nat(),
  place: fc.nat(),
  value: replacement,
});

/** Every path to a value inside an object (objects and lists included), depth first. */
function pathsOf(
  value: unknown,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(path);
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => pathsOf(item, [...path, index], out));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      pathsOf(child, [...path, key], out);
    }
  }
  return out;
}

/** A deep copy of the objects with each mutation applied (never at the root: an object stays an object). */
export function mutate(objects: readonly SourcedObject[], mutations: readonly Mutation[]): SourcedObject[] {
  const copies = objects.map((entry) => ({ ...entry, object: structuredClone(entry.object) }));
  for (const { object, place, value } of mutations) {
    const target = copies[object % copies.length];
    if (target === undefined) {
      continue;
    }
    const paths = pathsOf(target.object).filter((path) => path.length > 0);
    const path = paths[place % paths.length];
    if (path === undefined) {
      continue;
    }
    let parent: unknown = target.object;
    for (const segment of path.slice(0, -1)) {
      parent = (parent as Record<string | number, unknown>)[segment];
    }
    (parent as Record<string | number, unknown>)[path.at(-1) as string | number] = structuredClone(value);
  }
  return copies;
}

/** Mutated manifests and cluster objects are simulated without an exception, and twice alike. */
export function mutatedInputIsSimulated(
  seeds: {
    manifests: readonly SourcedObject[];
    cluster: readonly SourcedObject[];
  },
  maxMutations = 4,
): fc.IPropertyWithHooks<[Mutation[], Mutation[], boolean]> {
  return fc.property(
    fc.array(mutation, { minLength: 1, maxLength: maxMutations }),
    fc.array(mutation, { maxLength: Math.ceil(maxMutations / 2) }),
    fc.boolean(),
    (manifestMutations, clusterMutations, useClusterFile) => {
      const manifests = mutate(seeds.manifests, manifestMutations);
      const cluster = useClusterFile ? mutate(seeds.cluster, clusterMutations) : null;
      const first = simulate({ manifests, cluster, timeline: { until: 900 }, maxPods: MAX_PODS });
      const second = simulate({ manifests, cluster, timeline: { until: 900 }, maxPods: MAX_PODS });
      assert.equal(JSON.stringify(second.report), JSON.stringify(first.report));
    },
  );
}
