/**
 * The outline of a manifest file: one symbol per Kubernetes object ("Deployment web", namespace as detail),
 * the items of a List as its children, and the containers of a workload as children of the workload. Built from
 * the analysis as it is; documents that are not Kubernetes objects have no symbol.
 */
import { SymbolKind } from 'vscode-languageserver-protocol';
import type { DocumentSymbol } from 'vscode-languageserver-protocol';
import type { Node } from 'yaml';
import type { AnalyzedDocument, FileAnalysis } from '../analyzer';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { isListKind } from '../kubernetes/manifest-object';
import { podSpecPaths } from '../kubernetes/pod-spec-paths';
import type { LineIndex } from '../text/line-index';
import { locatePath, nodeAtPath, nodeRange } from '../yaml/node-at-path';
import type { InstancePath } from '../yaml/node-at-path';
import { lineIndexOf, toRange } from './locate';
import { appendAll } from '../../../../protocol/collections';

const CONTAINER_LISTS = [
  { field: 'initContainers', label: 'init container' },
  { field: 'containers', label: 'container' },
] as const;

/** The outline of a file. */
export function documentSymbols(analysis: FileAnalysis, textOrLines: string | LineIndex): DocumentSymbol[] {
  const lines = lineIndexOf(textOrLines);
  const symbols: DocumentSymbol[] = [];
  for (const document of analysis.documents) {
    for (const object of document.objects) {
      if (object.path.length !== 0) {
        continue;
      }
      const symbol = objectSymbol(document, object, lines);
      if (symbol === undefined) {
        continue;
      }
      if (isListKind(object.kind)) {
        symbol.children = document.objects
          .filter((item) => item.path.length === 2 && item.path[0] === 'items')
          .map((item) => objectSymbol(document, item, lines))
          .filter((item): item is DocumentSymbol => item !== undefined);
      }
      symbols.push(symbol);
    }
  }
  return symbols;
}

function objectSymbol(
  document: AnalyzedDocument,
  object: ManifestObject,
  lines: LineIndex,
): DocumentSymbol | undefined {
  const range = nodeRange(object.node);
  if (range === undefined) {
    return undefined;
  }
  const name = object.name === undefined || object.name === '' ? '' : ` ${object.name}`;
  const symbol: DocumentSymbol = {
    name: `${object.kind === '' ? 'object' : object.kind}${name}`,
    detail: object.namespace,
    kind: isListKind(object.kind) ? SymbolKind.Array : SymbolKind.Object,
    range: toRange(lines, document.offset + range[0], document.offset + range[1]),
    selectionRange: selectionOf(document, object.node, [['metadata', 'name'], ['kind']], range, lines),
  };
  const containers = containerSymbols(document, object, lines);
  if (containers.length > 0) {
    symbol.children = containers;
  }
  return symbol;
}

function containerSymbols(
  document: AnalyzedDocument,
  object: ManifestObject,
  lines: LineIndex,
): DocumentSymbol[] {
  const symbols: DocumentSymbol[] = [];
  for (const podSpecPath of podSpecPaths(object)) {
    appendAll(symbols, podContainerSymbols(document, object, podSpecPath, lines));
  }
  return symbols;
}

function podContainerSymbols(
  document: AnalyzedDocument,
  object: ManifestObject,
  podSpecPath: InstancePath,
  lines: LineIndex,
): DocumentSymbol[] {
  const podSpec = valueAt(object.value, podSpecPath);
  const symbols: DocumentSymbol[] = [];
  for (const { field, label } of CONTAINER_LISTS) {
    const containers = isRecord(podSpec) ? podSpec[field] : undefined;
    if (!Array.isArray(containers)) {
      continue;
    }
    containers.forEach((container: unknown, index) => {
      const node = nodeAtPath(object.node, [...podSpecPath, field, index]);
      const range = nodeRange(node);
      if (range === undefined || !isRecord(container)) {
        return;
      }
      const name =
        typeof container['name'] === 'string' && container['name'] !== '' ? container['name'] : `#${index}`;
      const image = typeof container['image'] === 'string' ? container['image'] : undefined;
      symbols.push({
        name,
        detail: image === undefined ? label : `${label} · ${image}`,
        kind: SymbolKind.Field,
        range: toRange(lines, document.offset + range[0], document.offset + range[1]),
        selectionRange: selectionOf(document, node, [['name']], range, lines),
      });
    });
  }
  return symbols;
}

/** The range of the first of some paths that exists under a node, else the start of the node's range. */
function selectionOf(
  document: AnalyzedDocument,
  node: Node | undefined,
  paths: readonly InstancePath[],
  fallback: readonly [number, number],
  lines: LineIndex,
): DocumentSymbol['selectionRange'] {
  for (const path of paths) {
    const location = locatePath(node, path);
    if (location.depth === path.length && location.valueRange !== undefined) {
      return toRange(
        lines,
        document.offset + location.valueRange[0],
        document.offset + location.valueRange[1],
      );
    }
  }
  return toRange(lines, document.offset + fallback[0], document.offset + fallback[0]);
}

function valueAt(value: unknown, path: InstancePath): unknown {
  let current = value;
  for (const segment of path) {
    if (!isRecord(current)) {
      return undefined;
    }
    current = current[String(segment)];
  }
  return current;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
