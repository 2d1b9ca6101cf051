/**
 * Builds yaml's Scalar nodes for the fast parser exactly as yaml's composer does (compose/compose-scalar.js in
 * eemeli/yaml v2): a plain scalar is resolved by the first default tag of the document's schema whose test
 * matches (the YAML 1.2 core schema: null, bool, int in three bases, float), anything else is a string; the node
 * keeps range, source, type and the tag's format. Resolution reuses the schema's own tags, so a value such as
 * "0x1F", "1.50" or "~" gets the very number, format and minFractionDigits that the package gives it.
 */
import { isScalar, Scalar } from 'yaml';
import type { Document, ParsedNode, Schema } from 'yaml';

/** What scalar building needs from the document being built. */
export interface ScalarContext {
  readonly schema: Schema;
  readonly options: Document.Parsed<ParsedNode>['options'];
  /** Set when a tag's resolve reported a problem: the fast parse is then abandoned for the package's. */
  failed: boolean;
}

/** The scalar styles the fast parser reads. */
export type FastScalarType = 'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE' | 'BLOCK_LITERAL' | 'BLOCK_FOLDED';

interface ResolvingTag {
  readonly default?: boolean | 'key';
  readonly test?: RegExp;
  readonly format?: string;
  readonly collection?: unknown;
  resolve(value: string, onError: (message: string) => void, options: object): unknown;
}

/**
 * A scalar node for `source` (the scalar's value before tag resolution), with yaml's range [start, valueEnd,
 * nodeEnd]. Only plain scalars go through tag resolution; quoted and block scalars are strings, as in yaml
 * without a tag.
 */
export function makeScalar(
  context: ScalarContext,
  source: string,
  type: FastScalarType,
  range: [number, number, number],
  atKey: boolean,
): Scalar {
  let scalar: Scalar;
  if (type === 'PLAIN') {
    const tag = findTag(context.schema, source, atKey);
    if (tag === undefined) {
      scalar = new Scalar(source);
    } else {
      let resolved: unknown;
      try {
        resolved = tag.resolve(
          source,
          () => {
            context.failed = true;
          },
          context.options,
        );
      } catch {
        // yaml's composer reports a throwing tag as TAG_RESOLVE_FAILED: the package's parse says it.
        context.failed = true;
        resolved = source;
      }
      scalar = isScalar(resolved) ? resolved : new Scalar(resolved);
      if (tag.format !== undefined) {
        scalar.format = tag.format;
      }
    }
  } else {
    scalar = new Scalar(source);
  }
  scalar.range = range;
  scalar.source = source;
  scalar.type = type;
  return scalar;
}

// Most plain scalars of a manifest are words (names, images, kinds); no core-schema tag matches a value that
// starts with one of these letters, so the tag search is skipped for them. The letters of null, true/false
// (any case), .inf/.nan and numbers are left out of the set.
const NOT_TAGGED_START = /^[a-eg-mo-su-zA-EG-MO-SU-Z_/$]/;

function findTag(schema: Schema, value: string, atKey: boolean): ResolvingTag | undefined {
  if (NOT_TAGGED_START.test(value)) {
    return undefined;
  }
  for (const tag of schema.tags as readonly ResolvingTag[]) {
    if (tag.collection === undefined && (tag.default === true || (atKey && tag.default === 'key'))) {
      if (tag.test?.test(value) === true) {
        return tag;
      }
    }
  }
  return undefined;
}
