/**
 * Completion in Kubernetes manifests, from the schemas: at a key position, the keys the object allows there that
 * are not yet present (required first); at a value, the allowed values of an enum or boolean field; at `kind:`,
 * the kinds the document's apiVersion serves; at `apiVersion:`, the apiVersions serving its kind.
 *
 * Where the cursor is comes from the text around it, read by indentation (text-shape.ts), because the line being
 * typed is usually not valid YAML yet; which object it is comes from the analysis (no parsing here), or from the
 * document's top-level apiVersion and kind lines while the object is still too broken to be analysed.
 */
import { isScalar, Scalar } from 'yaml';
import type { CompletionItem } from 'vscode-languageserver-protocol';
import type { AnalyzedDocument, FileAnalysis } from '../analyzer';
import type { SchemaStore } from '../schema/schema-store';
import type { LineIndex } from '../text/line-index';
import { nodeAtPath, pathAtOffset } from '../yaml/node-at-path';
import { keyItem, kindItems, valueItems } from './completion-items';
import type { KeyInsertion } from './completion-items';
import { apiVersionsFor, kindsFor } from './kind-catalog';
import type { ServedKind } from './kind-catalog';
import { documentAt, lineIndexOf, objectAtPath, rootNode, toRange } from './locate';
import { childField, fieldAt, kindField, propertiesOf } from './schema-field';
import type { FieldInfo } from './schema-field';
import { containerPath, lineAt, lineElements, nextLine, siblingKeys } from './text-shape';
import type { LineElement, LineSpan, TextBounds } from './text-shape';

const KEY_WORD = /^[\w./-]*$/;
const KEY_WORD_START = /^[\w./-]*/;
const VALUE_END = /^[^\s#"',\]}]*/;
const IDENTITY_KEYS = ['apiVersion', 'kind'] as const;

/** The completion items at an offset of a file (none outside Kubernetes objects). */
export function completeAt(
  analysis: FileAnalysis,
  text: string,
  offset: number,
  store: SchemaStore,
  lines?: LineIndex,
): CompletionItem[] {
  const document = documentAt(analysis, offset);
  if (document === undefined || isInsideBlockScalar(document, offset)) {
    return [];
  }
  const context: Context = {
    analysis,
    document,
    bounds: documentBounds(analysis, document, text),
    line: lineAt(text, offset),
    offset,
    store,
    lines: lines ?? lineIndexOf(text),
  };
  const elements = lineElements(text, context.line, offset);
  const last = elements.at(-1);
  const prefix = text.slice(context.line.start, offset);
  if (/(?:^|\s)#/.test(prefix)) {
    return [];
  }
  if (last === undefined || last.kind === 'dash') {
    return completeKey(context, elements, offset - context.line.start);
  }
  if (last.kind === 'scalar') {
    const word = prefix.slice(last.column);
    return KEY_WORD.test(word) ? completeKey(context, elements, last.column) : [];
  }
  return completeValue(context, elements, last);
}

interface Context {
  readonly analysis: FileAnalysis;
  readonly document: AnalyzedDocument;
  readonly bounds: TextBounds;
  readonly line: LineSpan;
  readonly offset: number;
  readonly store: SchemaStore;
  readonly lines: LineIndex;
}

/** Keys at a key position; list item values when the position is an item of a list of enum values. */
function completeKey(context: Context, elements: readonly LineElement[], column: number): CompletionItem[] {
  const { bounds, line, offset } = context;
  const mapPath = containerPath(bounds, line, column, 'key', elements);
  if (mapPath === undefined) {
    return [];
  }
  const start = line.start + column;
  const end = offset + (KEY_WORD_START.exec(bounds.text.slice(offset, line.end))?.[0].length ?? 0);
  const range = toRange(context.lines, start, end);
  const siblings = siblingKeys(bounds, line, column);
  const hasColon = /^\s*:/.test(bounds.text.slice(end, line.end));
  const newline = bounds.text.includes('\r\n') ? '\r\n' : '\n';
  const insertion: KeyInsertion = { range, column, hasColon, newline };
  const field = fieldOf(context, mapPath, siblings);
  const hasDash = elements.some((element) => element.kind === 'dash');
  if (field === undefined || field.shape !== 'object') {
    if (hasDash && field?.enumValues !== undefined) {
      return valueItems(field.enumValues, range, false, field.description);
    }
    return isObjectRoot(context.document, mapPath) ? identityKeys(siblings, insertion) : [];
  }
  // status is written by controllers, never by the user: not offered at the top of an object.
  const omitsStatus = isObjectRoot(context.document, mapPath);
  return propertiesOf(context.store, field)
    .filter(
      (property) => !siblings.has(String(property.name)) && !(omitsStatus && property.name === 'status'),
    )
    .map((property) => keyItem(property, insertion));
}

/** apiVersion and kind while a document has not both yet (only when it has one: other YAML gets nothing). */
function identityKeys(siblings: ReadonlyMap<string, string>, insertion: KeyInsertion): CompletionItem[] {
  if (!IDENTITY_KEYS.some((key) => siblings.has(key))) {
    return [];
  }
  return IDENTITY_KEYS.filter((key) => !siblings.has(key)).map((key) =>
    keyItem(
      {
        name: key,
        schema: {},
        definition: undefined,
        typeName: 'string',
        description: undefined,
        required: true,
        enumValues: undefined,
        shape: 'scalar',
        itemEnumValues: undefined,
        reachedBy: 'property',
      },
      insertion,
    ),
  );
}

/** Values after `key: ` on the current line. */
function completeValue(
  context: Context,
  elements: readonly LineElement[],
  keyElement: LineElement,
): CompletionItem[] {
  const { bounds, line, offset, store } = context;
  const key = keyElement.key ?? '';
  const afterColon = bounds.text
    .slice(line.start, offset)
    .slice(keyElement.column)
    .replace(/^[^:]*:/, '');
  const typed = afterColon.trimStart();
  if (/\s/.test(typed) && !/^["']/.test(typed)) {
    return [];
  }
  const quoted = /^["']/.test(typed);
  const start = offset - typed.length + (quoted ? 1 : 0);
  const end = offset + (VALUE_END.exec(bounds.text.slice(offset, line.end))?.[0].length ?? 0);
  const range = toRange(context.lines, start, end);
  const leadingSpace = afterColon === '';
  const mapPath = containerPath(bounds, line, keyElement.column, 'key', elements);
  if (mapPath === undefined) {
    return [];
  }
  if (isObjectRoot(context.document, mapPath) && (key === 'kind' || key === 'apiVersion')) {
    const siblings = siblingKeys(bounds, line, keyElement.column);
    const describe = (entry: ServedKind): string | undefined =>
      kindField(store, entry.apiVersion, entry.kind)?.description;
    if (key === 'kind') {
      const apiVersion = plainValue(siblings.get('apiVersion'));
      const kinds = kindsFor(store, apiVersion);
      const withList =
        apiVersion === 'v1' ? [...kinds, { apiVersion: 'v1', kind: 'List', definition: '' }] : kinds;
      return kindItems(withList, 'kind', range, leadingSpace, describe);
    }
    return kindItems(
      apiVersionsFor(store, plainValue(siblings.get('kind'))),
      'apiVersion',
      range,
      leadingSpace,
      describe,
    );
  }
  const parent = fieldOf(context, mapPath, undefined);
  const field = parent === undefined ? undefined : childField(store, parent, key);
  if (field === undefined) {
    return [];
  }
  if (field.enumValues !== undefined) {
    return valueItems(field.enumValues, range, leadingSpace, field.description, !quoted);
  }
  return field.typeName === 'boolean'
    ? valueItems(['true', 'false'], range, leadingSpace, undefined, false)
    : [];
}

/**
 * The field at a path of the document: through the analysed object that holds it, else (an object too broken
 * to be analysed) through the apiVersion and kind written at the document's top level.
 */
function fieldOf(
  context: Context,
  path: readonly (string | number)[],
  siblings: ReadonlyMap<string, string> | undefined,
): FieldInfo | undefined {
  const { document, store } = context;
  const found = objectAtPath(document, path);
  if (found !== undefined && store.definitionOf(found.object.apiVersion, found.object.kind) !== undefined) {
    return fieldAt(store, found.object.apiVersion, found.object.kind, found.path);
  }
  const identity = path.length === 0 && siblings !== undefined ? siblings : topLevelKeys(context);
  const apiVersion = plainValue(identity.get('apiVersion'));
  const kind = plainValue(identity.get('kind'));
  return apiVersion === undefined || kind === undefined ? undefined : fieldAt(store, apiVersion, kind, path);
}

/** The keys of the document's top-level mapping, found from its first key line. */
function topLevelKeys(context: Context): Map<string, string> {
  const { bounds } = context;
  for (
    let line: LineSpan | undefined = lineAt(bounds.text, bounds.start);
    line !== undefined;
    line = nextLine(bounds, line)
  ) {
    const first = lineElements(bounds.text, line)[0];
    if (first?.kind === 'key') {
      return siblingKeys(bounds, line, first.column).set(first.key ?? '', first.value ?? '');
    }
    if (first !== undefined) {
      break;
    }
  }
  return new Map();
}

/** Whether a path is where an object's apiVersion and kind live: the document root or an item of a List. */
function isObjectRoot(document: AnalyzedDocument, path: readonly (string | number)[]): boolean {
  return (
    path.length === 0 ||
    (path.length === 2 && path[0] === 'items' && typeof path[1] === 'number') ||
    document.objects.some(
      (object) =>
        object.path.length === path.length && object.path.every((segment, index) => segment === path[index]),
    )
  );
}

/** A scalar as written after a colon, without quotes; undefined when empty. */
function plainValue(raw: string | undefined): string | undefined {
  const value = raw?.replace(/^(["'])(.*)\1$/, '$2').trim();
  return value === undefined || value === '' ? undefined : value;
}

/** The part of the text that belongs to a document: from its slice start to the next slice. */
function documentBounds(analysis: FileAnalysis, document: AnalyzedDocument, text: string): TextBounds {
  let end = text.length;
  for (let index = document.index + 1; index < analysis.documents.length; index++) {
    const next = analysis.documents[index];
    if (next !== undefined && next.offset > document.offset) {
      end = next.offset;
      break;
    }
  }
  return { text, start: document.offset, end };
}

/** Whether an offset is inside the text of a block scalar (`|` or `>`), where nothing is completed. */
function isInsideBlockScalar(document: AnalyzedDocument, offset: number): boolean {
  const root = rootNode(document);
  const location = pathAtOffset(root, offset - document.offset);
  if (location.isKey || location.range === undefined) {
    return false;
  }
  const node = nodeAtPath(root, location.path);
  return (
    isScalar(node) &&
    (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) &&
    offset - document.offset > location.range[0]
  );
}
