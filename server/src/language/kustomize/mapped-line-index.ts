/**
 * Lines of rendered objects told as lines of the files they came from. A finding on a rendered object is at an
 * offset of the rendered text; this index maps that offset to the field's path in the rendered object, then to the
 * same path (or its nearest parent that exists) in the source file's document that defines the object (found by
 * kind and name), so `foresight` says `base/deployment.yaml:12`, not a line of kustomize's output. A field a
 * transformer or patch added (a selector from `labels`) is at its nearest parent in the source; an object a
 * generator made is at the generator's entry in the kustomization (`configMapGenerator`, `secretGenerator`, found
 * by name); one not found in its source is at line 1.
 */
import { isMap, isPair, isScalar, isSeq, parseAllDocuments } from 'yaml';
import { parseYaml } from '../yaml/parse-yaml';
import { ANALYZER_PARSE_OPTIONS } from '../yaml/parse-document';
import type { Document, Node, Scalar } from 'yaml';
import { LineIndex, lastAtOrBefore } from '../../language/text/line-index';
import { patchFieldFor } from './patch-field-match';
import type { RenderedPathStep } from './patch-field-match';
import type { PatchField } from './render-types';

/** One rendered object in the rendered text, and its source file's text (undefined: at line 1). */
export interface RenderedSegment {
  readonly text: string;
  readonly sourceText: string | undefined;
  /** The text of the kustomization whose generator made the object, when a generator did. */
  readonly generatorText?: string | undefined;
}

type PathKey = string | number;

/**
 * One rendered object, parsed: `base` is where its text starts in the rendered text (its nodes' ranges count from
 * there); start and end bound its content, in the rendered text.
 */
interface Segment {
  readonly base: number;
  readonly start: number;
  readonly end: number;
  readonly rendered: Document | undefined;
  readonly source: { readonly contents: Node; readonly lines: LineIndex } | undefined;
  /** Where the object is said to be when it has no source document: its generator's entry. */
  readonly fallback?: { readonly offset: number; readonly lines: LineIndex } | undefined;
}

/**
 * A line index over the rendered text whose positions are those of the source files. An object and its source
 * file are parsed when a position in it is first asked for: most objects of a large render (kube-prometheus: 131
 * objects, 5.8 MB) have no finding, and parsing them all took longer than analysing them.
 */
export class MappedLineIndex extends LineIndex {
  /** Where each segment's text starts in the rendered text. */
  private readonly bases: readonly number[];
  private readonly parsed = new Map<number, Segment>();
  private readonly sources = new Map<string, readonly Document[]>();

  /**
   * Indexes `text`, the segments' texts joined with "---" lines, in order; `patches` are the fields the unit's
   * patches set (patch-fields.ts), for patchFieldAt.
   */
  constructor(
    text: string,
    private readonly segments: readonly RenderedSegment[],
    private readonly patches: readonly PatchField[] = [],
  ) {
    super(text);
    const bases: number[] = [];
    let base = 0;
    for (const segment of segments) {
      bases.push(base);
      base += segment.text.length + SEPARATOR.length;
    }
    this.bases = bases;
  }

  /**
   * The patch field that set the field at a rendered offset, when a patch (not the base) wrote it: a finding
   * there is shown on the patch.
   */
  patchFieldAt(offset: number): PatchField | undefined {
    if (this.patches.length === 0) {
      return undefined;
    }
    const segment = this.segmentAt(offset);
    const rendered = segment?.rendered;
    const contents = rendered?.contents;
    if (segment === undefined || rendered === undefined || contents === null || contents === undefined) {
      return undefined;
    }
    const path = pathAt(contents, offset - segment.base);
    const steps: RenderedPathStep[] = path.map((step, index) => {
      if (typeof step === 'string') {
        return step;
      }
      const item = rendered.getIn([...path.slice(0, index), step], true);
      const name = isMap(item) ? item.get('name') : undefined;
      return { index: step, name: typeof name === 'string' ? name : undefined };
    });
    const kind = rendered.getIn(['kind']);
    const name = rendered.getIn(['metadata', 'name']);
    const baseDepth = segment.source === undefined ? 0 : depthAtPath(segment.source.contents, path);
    return patchFieldFor(
      this.patches,
      typeof kind === 'string' ? kind : undefined,
      typeof name === 'string' ? name : '',
      steps,
      baseDepth,
    );
  }

  /** The source position of a rendered offset: its field's, else its nearest parent's, else line 1. */
  override positionAt(offset: number): { line: number; character: number } {
    const segment = this.segmentAt(offset);
    const contents = segment?.rendered?.contents;
    if (segment?.source === undefined || contents === null || contents === undefined) {
      return segment?.fallback === undefined
        ? { line: 0, character: 0 }
        : segment.fallback.lines.positionAt(segment.fallback.offset);
    }
    const within = offset - segment.base;
    const path = pathAt(contents, within);
    // An offset inside a scalar value (a finding on "10x", not on its key) is the same place in the source's value.
    const value = scalarAtPath(contents, path);
    const sourceValue = scalarAtPath(segment.source.contents, path);
    if (value?.range && sourceValue?.range && value.range[0] <= within && within <= value.range[1]) {
      const into = Math.min(within - value.range[0], sourceValue.range[1] - sourceValue.range[0]);
      return segment.source.lines.positionAt(sourceValue.range[0] + into);
    }
    return segment.source.lines.positionAt(offsetAtPath(segment.source.contents, path));
  }

  /** The object whose content holds the offset, parsed (with its source document) on first use. */
  private segmentAt(offset: number): Segment | undefined {
    if (this.segments.length === 0) {
      return undefined;
    }
    // The last segment starting at or before the offset.
    const low = lastAtOrBefore(this.bases, offset);
    let segment = this.parsed.get(low);
    if (segment === undefined) {
      segment = this.parse(low);
      this.parsed.set(low, segment);
    }
    return segment.start <= offset && offset <= segment.end ? segment : undefined;
  }

  private parse(index: number): Segment {
    const base = this.bases[index] ?? 0;
    const segment = this.segments[index];
    const document =
      segment === undefined ? undefined : parseYaml(segment.text, ANALYZER_PARSE_OPTIONS).documents[0];
    const range = document?.contents?.range;
    if (segment === undefined || document === undefined || range === undefined) {
      return { base, start: 0, end: -1, rendered: undefined, source: undefined };
    }
    let sourceDocuments: readonly Document[] | undefined;
    if (segment.sourceText !== undefined) {
      sourceDocuments =
        this.sources.get(segment.sourceText) ??
        parseYaml(segment.sourceText, ANALYZER_PARSE_OPTIONS).documents;
      this.sources.set(segment.sourceText, sourceDocuments);
    }
    const match = sourceDocuments === undefined ? undefined : findSourceDocument(document, sourceDocuments);
    const generatorOffset =
      segment.generatorText === undefined ? undefined : generatorEntryOffset(document, segment.generatorText);
    return {
      ...(generatorOffset === undefined || segment.generatorText === undefined
        ? {}
        : { fallback: { offset: generatorOffset, lines: new LineIndex(segment.generatorText) } }),
      base,
      start: base + range[0],
      end: base + range[2],
      rendered: document,
      source:
        match?.contents === null || match?.contents === undefined || segment.sourceText === undefined
          ? undefined
          : { contents: match.contents, lines: new LineIndex(segment.sourceText) },
    };
  }
}

/** The line the segments' texts are joined with. */
const SEPARATOR = '---\n';

/**
 * The offset of the generator entry that made a ConfigMap or Secret: the `name:` of the configMapGenerator or
 * secretGenerator item whose name the rendered name carries (kustomize adds prefixes, suffixes and a hash).
 */
function generatorEntryOffset(rendered: Document, kustomizationText: string): number | undefined {
  const kind = rendered.getIn(['kind']);
  const field =
    kind === 'ConfigMap' ? 'configMapGenerator' : kind === 'Secret' ? 'secretGenerator' : undefined;
  const renderedName = rendered.getIn(['metadata', 'name']);
  const kustomization = parseAllDocuments(kustomizationText)[0];
  const generators = field === undefined ? undefined : kustomization?.getIn([field], true);
  if (!isSeq(generators) || typeof renderedName !== 'string') {
    return undefined;
  }
  const candidates = generators.items.filter(isMap).flatMap((item) => {
    const pair = item.items.find((entry) => isScalar(entry.key) && entry.key.value === 'name');
    const name = isScalar(pair?.value) ? pair.value.value : undefined;
    const start = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
    return typeof name === 'string' && name !== '' && renderedName.includes(name) && start !== undefined
      ? [{ name, start }]
      : [];
  });
  // The longest name that fits: "web-config" over "web" for "prod-web-config-hf678c7m2b".
  return candidates.sort((a, b) => b.name.length - a.name.length)[0]?.start;
}

/** The document of the source that defines the rendered object: same kind and name (a prefix or suffix aside). */
function findSourceDocument(rendered: Document, sources: readonly Document[]): Document | undefined {
  const kind = rendered.getIn(['kind']);
  const renderedName = rendered.getIn(['metadata', 'name']);
  const name = typeof renderedName === 'string' ? renderedName : '';
  const sameKind = sources.filter((source) => isMap(source.contents) && source.getIn(['kind']) === kind);
  return (
    sameKind.find((source) => source.getIn(['metadata', 'name']) === name) ??
    sameKind.find((source) => {
      const own = source.getIn(['metadata', 'name']);
      return typeof own === 'string' && own !== '' && name.includes(own);
    }) ??
    (sameKind.length === 1 ? sameKind[0] : undefined)
  );
}

/** The path of the innermost node holding an offset. */
function pathAt(node: Node, offset: number): PathKey[] {
  const path: PathKey[] = [];
  let current: Node | null = node;
  while (current !== null) {
    let next: Node | null = null;
    // The last entry that starts at or before the offset: an entry's range runs to where the next one starts
    // (its trailing blank lines and comments), so the key that starts at the offset is the next entry's.
    if (isMap(current)) {
      let found: { key: string; value: Node | null } | undefined;
      for (const pair of current.items) {
        const key = isScalar(pair.key) ? pair.key : null;
        const value = pair.value as Node | null;
        const end = value?.range?.[2] ?? key?.range?.[2] ?? -1;
        if (key !== null && (key.range?.[0] ?? Infinity) <= offset && offset <= end) {
          found = { key: String(key.value), value };
        }
      }
      if (found !== undefined) {
        path.push(found.key);
        next = found.value !== null && (found.value.range?.[0] ?? Infinity) <= offset ? found.value : null;
      }
    } else if (isSeq(current)) {
      let found: number | undefined;
      current.items.forEach((item, index) => {
        const range = (item as Node | null)?.range;
        if (range !== undefined && range !== null && range[0] <= offset && offset <= range[2]) {
          found = index;
        }
      });
      if (found !== undefined) {
        path.push(found);
        next = current.items[found] as Node;
      }
    }
    current = next;
  }
  return path;
}

/** How many steps of a path exist in a document (a map key, or a list position). */
function depthAtPath(root: Node, path: readonly PathKey[]): number {
  let node: Node | null = root;
  let depth = 0;
  for (const key of path) {
    if (isMap(node) && typeof key === 'string' && node.has(key)) {
      node = node.get(key, true) as Node | null;
    } else if (isSeq(node) && typeof key === 'number' && node.items[key] !== undefined) {
      node = node.items[key] as Node | null;
    } else {
      break;
    }
    depth++;
  }
  return depth;
}

/** The scalar value at a path (a map's value or a list's item), when the whole path exists and ends at one. */
function scalarAtPath(root: Node, path: readonly PathKey[]): Scalar | undefined {
  let node: unknown = root;
  for (const key of path) {
    if (isMap(node) && typeof key === 'string') {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
      node = pair?.value;
    } else if (isSeq(node) && typeof key === 'number') {
      node = node.items[key];
    } else {
      return undefined;
    }
  }
  return isScalar(node) && path.length > 0 ? node : undefined;
}

/** The start offset of the node at a path, or of its nearest parent that exists (a key's start for a field). */
function offsetAtPath(root: Node, path: readonly PathKey[]): number {
  let node: Node = root;
  let offset = root.range?.[0] ?? 0;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key,
      );
      const keyNode = pair?.key as Node | undefined;
      if (pair === undefined || keyNode?.range === undefined || keyNode.range === null) {
        break;
      }
      offset = keyNode.range[0];
      if (pair.value === null) {
        break;
      }
      node = pair.value as Node;
    } else if (isSeq(node) && typeof key === 'number' && node.items[key] !== undefined) {
      node = node.items[key] as Node;
      offset = node.range?.[0] ?? offset;
    } else {
      break;
    }
  }
  return offset;
}
