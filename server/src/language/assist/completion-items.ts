/**
 * Builds the LSP completion items: keys with their type, requiredness and description; enum and boolean
 * values; kinds and apiVersions. Every item replaces the word being typed through a text edit, inserts plain
 * text (no snippets) and is inserted as is: completion writes the indentation of the following line itself.
 */
import {
  CompletionItemKind,
  InsertTextFormat,
  InsertTextMode,
  MarkupKind,
} from 'vscode-languageserver-protocol';
import type { Command, CompletionItem, Range } from 'vscode-languageserver-protocol';
import type { ServedKind } from './kind-catalog';
import { summarizeDescription } from './markdown';
import type { FieldInfo } from './schema-field';

/** VS Code's command to open the suggestions again: after `key: ` of an enum, or on the line below an object. */
const TRIGGER_SUGGEST: Command = { title: 'Suggest', command: 'editor.action.triggerSuggest' };

/** Where and how a key is inserted. */
export interface KeyInsertion {
  /** The range of the key being typed. */
  readonly range: Range;
  /** Column of the key: the indentation of what goes on the next line is derived from it. */
  readonly column: number;
  /** True when the line already has the colon after the word (only the key is replaced). */
  readonly hasColon: boolean;
  /** "\n" or "\r\n", as the file uses. */
  readonly newline: string;
}

/** The completion item of a key. */
export function keyItem(field: FieldInfo, insertion: KeyInsertion): CompletionItem {
  const name = String(field.name);
  const key = needsQuotes(name) ? JSON.stringify(name) : name;
  const childIndent = ' '.repeat(insertion.column + 2);
  let newText: string;
  let reopens = false;
  if (insertion.hasColon) {
    newText = key;
  } else {
    switch (field.shape) {
      case 'object':
        newText = `${key}:${insertion.newline}${childIndent}`;
        reopens = true;
        break;
      case 'list-of-objects':
        newText = `${key}:${insertion.newline}${childIndent}- `;
        reopens = true;
        break;
      case 'list':
        newText = `${key}:${insertion.newline}${childIndent}- `;
        reopens = field.itemEnumValues !== undefined;
        break;
      case 'map':
        newText = `${key}:${insertion.newline}${childIndent}`;
        break;
      case 'scalar':
      case 'any':
        newText = `${key}: `;
        reopens = field.enumValues !== undefined || field.typeName === 'boolean';
        break;
    }
  }
  return {
    label: name,
    kind: CompletionItemKind.Property,
    detail: field.required ? `${field.typeName} (required)` : field.typeName,
    documentation: documentationOf(field.description),
    sortText: `${field.required ? '0' : '1'}${name}`,
    filterText: name,
    textEdit: { range: insertion.range, newText },
    insertTextFormat: InsertTextFormat.PlainText,
    insertTextMode: InsertTextMode.asIs,
    command: reopens ? TRIGGER_SUGGEST : undefined,
  };
}

/**
 * The completion items of values in the given order: enum values are strings, quoted when YAML would read them
 * as something else; booleans are not.
 */
export function valueItems(
  values: readonly string[],
  range: Range,
  leadingSpace: boolean,
  description?: string,
  areStrings = true,
): CompletionItem[] {
  return values.map((value, index) => ({
    label: value,
    kind: CompletionItemKind.EnumMember,
    documentation: documentationOf(description),
    sortText: String(index).padStart(4, '0'),
    filterText: value,
    textEdit: {
      range,
      newText: `${leadingSpace ? ' ' : ''}${areStrings && needsQuotes(value) ? JSON.stringify(value) : value}`,
    },
    insertTextFormat: InsertTextFormat.PlainText,
  }));
}

/** The completion items of kinds (label: kind) or apiVersions (label: apiVersion). */
export function kindItems(
  entries: readonly ServedKind[],
  labelOf: 'kind' | 'apiVersion',
  range: Range,
  leadingSpace: boolean,
  describe: (entry: ServedKind) => string | undefined,
): CompletionItem[] {
  return entries.map((entry, index) => {
    const label = labelOf === 'kind' ? entry.kind : entry.apiVersion;
    return {
      label,
      kind: labelOf === 'kind' ? CompletionItemKind.Class : CompletionItemKind.Module,
      detail: labelOf === 'kind' ? entry.apiVersion : entry.kind,
      documentation: documentationOf(describe(entry)),
      sortText: String(index).padStart(4, '0'),
      filterText: label,
      textEdit: { range, newText: `${leadingSpace ? ' ' : ''}${label}` },
      insertTextFormat: InsertTextFormat.PlainText,
    };
  });
}

function documentationOf(description: string | undefined): CompletionItem['documentation'] {
  return description === undefined || description.trim() === ''
    ? undefined
    : { kind: MarkupKind.Markdown, value: summarizeDescription(description) };
}

/** Whether a plain scalar would not read back as the same string (YAML 1.2 core schema, indicators). */
function needsQuotes(value: string): boolean {
  return (
    value === '' ||
    /^[\s\-?:,[\]{}#&*!|>'"%@`]/.test(value) ||
    /[:#]\s|\s$|:$/.test(value) ||
    /^(?:true|false|null|~|yes|no|on|off|[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|0x[\da-f]+|0o[0-7]+|[-+]?\.inf|\.nan)$/i.test(
      value,
    )
  );
}
