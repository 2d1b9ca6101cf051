/**
 * Hover on Kubernetes manifests: on a key or value of a built-in object, the field's path, type, whether it is
 * required, the start of its schema description and its allowed values; on apiVersion and kind, the kind's
 * description. Uses the analysis as it is (no parsing) and shows nothing on documents that are not Kubernetes
 * objects or on fields the schema does not know (the diagnostics speak for those).
 */
import { isScalar } from 'yaml';
import type { Range } from 'vscode-languageserver-protocol';
import type { FileAnalysis } from '../analyzer';
import type { ManifestObject } from '../kubernetes/manifest-object';
import type { SchemaStore } from '../schema/schema-store';
import type { LineIndex } from '../text/line-index';
import { nodeAtPath, pathAtOffset } from '../yaml/node-at-path';
import type { InstancePath } from '../yaml/node-at-path';
import { documentAt, lineIndexOf, objectAtPath, rootNode, toRange } from './locate';
import { formatAllowedValues, formatMarkdownPath, inlineCode, summarizeDescription } from './markdown';
import { fieldAt, kindField } from './schema-field';

/** A hover: Markdown and the range of the key or value it describes (an LSP Hover with MarkupContent). */
interface HoverResult {
  readonly markdown: string;
  readonly range: Range;
}

/** What `kind: List` is; the OpenAPI has no schema for it because kubectl, not the API server, reads it. */
const LIST_KIND_DESCRIPTION =
  'A list of objects that kubectl applies one by one; the API server has no List kind. ' +
  'Each item is validated as the object it is.';

/** The hover at an offset of a file, or undefined when there is nothing to say. */
export function hoverAt(
  analysis: FileAnalysis,
  textOrLines: string | LineIndex,
  offset: number,
  store: SchemaStore,
): HoverResult | undefined {
  const document = documentAt(analysis, offset);
  if (document === undefined || document.objects.length === 0) {
    return undefined;
  }
  const root = rootNode(document);
  const location = pathAtOffset(root, offset - document.offset);
  if (location.range === undefined || location.path.length === 0) {
    return undefined;
  }
  if (!location.isKey && !isScalar(nodeAtPath(root, location.path))) {
    return undefined;
  }
  const found = objectAtPath(document, location.path);
  if (found === undefined) {
    return undefined;
  }
  const markdown =
    found.path.length === 1 && (found.path[0] === 'apiVersion' || found.path[0] === 'kind')
      ? describeKind(found.object, store)
      : describeField(found.object, found.path, store);
  if (markdown === undefined) {
    return undefined;
  }
  const lines = lineIndexOf(textOrLines);
  return {
    markdown,
    range: toRange(lines, document.offset + location.range[0], document.offset + location.range[1]),
  };
}

function describeKind(object: ManifestObject, store: SchemaStore): string | undefined {
  const heading = `**${inlineCode(object.kind)}** · ${inlineCode(object.apiVersion)}`;
  if (object.kind === 'List' && object.path.length === 0) {
    return `${heading}\n\n${LIST_KIND_DESCRIPTION}`;
  }
  const field = kindField(store, object.apiVersion, object.kind);
  if (field === undefined) {
    return undefined;
  }
  const description = field.description === undefined ? '' : `\n\n${summarizeDescription(field.description)}`;
  return `${heading}${description}`;
}

function describeField(object: ManifestObject, path: InstancePath, store: SchemaStore): string | undefined {
  const field = fieldAt(store, object.apiVersion, object.kind, path);
  if (field === undefined) {
    return undefined;
  }
  // A map entry (a label, a resource name) has no description of its own: show the map's.
  const description =
    field.description ??
    (path.length > 1
      ? fieldAt(store, object.apiVersion, object.kind, path.slice(0, -1))?.description
      : undefined);
  const sections = [
    `${inlineCode(formatMarkdownPath(path))} · ${inlineCode(field.typeName)}${field.required ? ' · **required**' : ''}`,
  ];
  if (description !== undefined && description.trim() !== '') {
    sections.push(summarizeDescription(description));
  }
  const allowed = field.enumValues ?? field.itemEnumValues;
  if (allowed !== undefined) {
    sections.push(`Allowed values: ${formatAllowedValues(allowed)}`);
  }
  sections.push(`*${object.kind}* ${inlineCode(object.apiVersion)}`);
  return sections.join('\n\n');
}
