/**
 * The fields a unit's patches set, with where each is written, so a finding on a rendered field a patch set is
 * shown on the patch, not on the base the object came from (kustomize's origin annotation names only the base:
 * api/resource/origin.go; `transformerAnnotations` names the kustomization, not the patch). Read from the
 * kustomization files of the unit (overlays, bases, components): `patches` (a file or an inline patch, strategic
 * merge or JSON6902, with an optional target), `patchesStrategicMerge` and `patchesJson6902`, as kustomize's
 * api/types/kustomization.go and api/types/patch.go define them. A strategic-merge patch's list items are matched
 * by their `name`, as the merge keys of containers, volumes and ports mostly are; a JSON6902 path's indices are
 * positions. Left out: label-selector targets (any object of the kind matches), `$patch` directives, replacements.
 * https://github.com/kubernetes-sigs/kustomize/blob/master/api/types/patch.go
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { isMap, isScalar, isSeq, parseAllDocuments } from 'yaml';
import type { Node } from 'yaml';
import { LineIndex, KUSTOMIZATION_FILE_NAMES } from '../../language/service';
import type { PatchField, PatchPathStep, Position } from '../../language/service';
import { appendAll } from '../../../../protocol/collections';

/**
 * The fields the patches of a unit's kustomization files set, in the order kustomize applies them; `readText`
 * gives a file's text (an editor's unsaved text counts), undefined when it cannot be read.
 */
export function patchFieldsOf(
  files: Iterable<string>,
  readText: (file: string) => string | undefined = readTextOrUndefined,
): PatchField[] {
  const fields: PatchField[] = [];
  for (const file of files) {
    if (KUSTOMIZATION_FILE_NAMES.some((name) => name === basename(file))) {
      appendAll(fields, fieldsOfKustomization(file, readText));
    }
  }
  return fields;
}

function readTextOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function fieldsOfKustomization(file: string, readText: (file: string) => string | undefined): PatchField[] {
  const text = readText(file);
  if (text === undefined) {
    return [];
  }
  const document = parseAllDocuments(text)[0];
  const contents = document?.contents;
  if (!isMap(contents)) {
    return [];
  }
  const folder = resolve(file, '..');
  const lines = new LineIndex(text);
  const fields: PatchField[] = [];
  const entries = (key: string): Node[] => {
    const value = contents.get(key, true) as Node | undefined;
    return isSeq(value) ? (value.items as Node[]) : [];
  };
  const fromEntry = (entry: Node, defaultJson: boolean): void => {
    const target = isMap(entry) ? (entry.get('target', true) as Node | undefined) : undefined;
    const kind = isMap(target) ? stringOf(target.get('kind')) : undefined;
    const name = isMap(target) ? stringOf(target.get('name')) : undefined;
    const path = isScalar(entry)
      ? stringOf(entry.value)
      : isMap(entry)
        ? stringOf(entry.get('path'))
        : undefined;
    const inline = isMap(entry) ? (entry.get('patch', true) as Node | undefined) : undefined;
    if (path !== undefined && !path.includes('\n')) {
      const patchFile = resolve(folder, path);
      const patchText = readText(patchFile);
      if (patchText === undefined) {
        return;
      }
      const patchLines = new LineIndex(patchText);
      appendAll(
        fields,
        fieldsOfPatch(patchText, { kind, name }, defaultJson, patchFile, (offset) =>
          patchLines.positionAt(offset),
        ),
      );
    } else if (
      isScalar(inline) &&
      typeof inline.value === 'string' &&
      inline.range !== null &&
      inline.range !== undefined
    ) {
      const at = inlinePositions(text, lines, inline.range[0], inline.value);
      appendAll(fields, fieldsOfPatch(inline.value, { kind, name }, defaultJson, file, at));
    } else if (
      isScalar(entry) &&
      typeof entry.value === 'string' &&
      entry.value.includes('\n') &&
      entry.range
    ) {
      const at = inlinePositions(text, lines, entry.range[0], entry.value);
      appendAll(fields, fieldsOfPatch(entry.value, { kind, name }, defaultJson, file, at));
    }
  };
  entries('patchesStrategicMerge').forEach((entry) => fromEntry(entry, false));
  entries('patchesJson6902').forEach((entry) => fromEntry(entry, true));
  entries('patches').forEach((entry) => fromEntry(entry, false));
  return fields;
}

/**
 * Positions in the kustomization of an inline patch's text: a block scalar's lines follow its indicator line,
 * each indented; a plain or quoted scalar is placed at its start.
 */
function inlinePositions(
  text: string,
  lines: LineIndex,
  valueStart: number,
  value: string,
): (offset: number) => Position {
  const indicator = lines.positionAt(valueStart);
  const isBlock = /^[|>]/.test(text.slice(valueStart, valueStart + 1));
  if (!isBlock) {
    return () => indicator;
  }
  const following = text.slice(valueStart).split('\n').slice(1);
  const indent = /^ */.exec(following.find((line) => line.trim() !== '') ?? '')?.[0].length ?? 0;
  const valueLines = new LineIndex(value);
  return (offset) => {
    const inner = valueLines.positionAt(offset);
    return { line: indicator.line + 1 + inner.line, character: inner.character + indent };
  };
}

/** The fields of one patch text: a list of JSON6902 operations, or strategic-merge documents. */
function fieldsOfPatch(
  text: string,
  target: { kind: string | undefined; name: string | undefined },
  defaultJson: boolean,
  file: string,
  at: (offset: number) => Position,
): PatchField[] {
  const fields: PatchField[] = [];
  for (const document of parseAllDocuments(text)) {
    const contents = document.contents;
    if (isSeq(contents) || (defaultJson && contents !== null)) {
      // JSON6902: each operation's path, placed on the operation.
      for (const operation of isSeq(contents) ? (contents.items as Node[]) : []) {
        if (!isMap(operation)) {
          continue;
        }
        const pointer = stringOf(operation.get('path'));
        const op = stringOf(operation.get('op'));
        if (pointer === undefined || (op !== 'add' && op !== 'replace')) {
          continue;
        }
        const path = pointer
          .split('/')
          .slice(1)
          .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'))
          .map((step): PatchPathStep => (/^\d+$/.test(step) ? Number(step) : step));
        const value = operation.get('value', true) as Node | undefined;
        const range = (value ?? operation).range;
        if (range === null || range === undefined) {
          continue;
        }
        fields.push({
          ...target,
          path,
          isLeaf: isScalar(value),
          file,
          start: at(range[0]),
          end: at(range[1]),
        });
        if (value !== undefined) {
          walk(value, path, (step, node, keyRange) =>
            fields.push({
              ...target,
              path: step,
              isLeaf: isScalar(node),
              file,
              start: at(keyRange[0]),
              end: at(keyRange[1]),
            }),
          );
        }
      }
      continue;
    }
    if (!isMap(contents)) {
      continue;
    }
    const kind = target.kind ?? stringOf(document.getIn(['kind']));
    const name = target.name ?? stringOf(document.getIn(['metadata', 'name']));
    walk(contents, [], (path, node, keyRange) => {
      if (path[0] !== 'apiVersion' && path[0] !== 'kind' && !(path[0] === 'metadata' && path[1] === 'name')) {
        fields.push({
          kind,
          name,
          path,
          isLeaf: isScalar(node),
          file,
          start: at(keyRange[0]),
          end: at(keyRange[1]),
        });
      }
    });
  }
  return fields;
}

/** Visits every field below a node: its path, its value, and the range of its key (of the item, in a list). */
function walk(
  node: Node,
  path: readonly PatchPathStep[],
  visit: (path: PatchPathStep[], node: Node | null, keyRange: readonly [number, number]) => void,
): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key as Node | null;
      if (!isScalar(key) || key.range === null || key.range === undefined) {
        continue;
      }
      const step = [...path, String(key.value)];
      const value = pair.value as Node | null;
      visit(step, value, [key.range[0], key.range[1]]);
      if (value !== null) {
        walk(value, step, visit);
      }
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      const child = item as Node | null;
      if (child === null || child.range === null || child.range === undefined) {
        return;
      }
      const name = isMap(child) ? stringOf(child.get('name')) : undefined;
      const step = [...path, name === undefined ? index : { name }];
      visit(step, child, [child.range[0], child.range[0]]);
      walk(child, step, visit);
    });
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
