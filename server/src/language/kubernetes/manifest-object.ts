/**
 * Which YAML documents are Kubernetes objects, and the objects inside `kind: List` and typed `*List` documents.
 * A document is a Kubernetes object when it is a mapping with a string `apiVersion` and a string `kind`; any
 * other YAML (CI workflows, compose files, Helm values, kustomization.yaml) is not ours and gets no diagnostic.
 */
import type { Node } from 'yaml';
import type { InstancePath } from '../yaml/node-at-path';
import { nodeAtPath } from '../yaml/node-at-path';

/** A Kubernetes object found in a document, with the node it was read from. */
export interface ManifestObject {
  readonly apiVersion: string;
  readonly kind: string;
  /** metadata.name when it is a string. */
  readonly name: string | undefined;
  /** metadata.namespace when it is a string. */
  readonly namespace: string | undefined;
  /** The plain value of the object. */
  readonly value: Record<string, unknown>;
  /** The YAML node of the object. */
  readonly node: Node | undefined;
  /** Path of the object inside its document: [] or ['items', i]. */
  readonly path: InstancePath;
  /**
   * The node's range in its document, kept when the node itself is not at hand (an object analysed in a worker
   * thread of `foresight validate`, whose YAML nodes stay in that thread).
   */
  readonly range?: readonly [number, number];
}

/** Where an object's node starts and ends in its document, from the node or the range kept in its place. */
export function objectRangeOf(object: ManifestObject): readonly [number, number] | undefined {
  const range = object.node?.range;
  return range === undefined || range === null ? object.range : [range[0], range[1]];
}

/** Whether a value looks like a Kubernetes object (a mapping with string apiVersion and kind). */
function isKubernetesObjectValue(
  value: unknown,
): value is Record<string, unknown> & { apiVersion: string; kind: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const record = value as Record<string, unknown>;
  return typeof record['apiVersion'] === 'string' && typeof record['kind'] === 'string';
}

/**
 * The Kubernetes objects of one document: the document itself, plus, for `kind: List` and typed lists
 * (PodList, …), each item. Items of a typed list may omit apiVersion and kind; they inherit them from the list.
 */
export function extractObjects(value: unknown, root: Node | undefined): ManifestObject[] {
  if (!isKubernetesObjectValue(value)) {
    return [];
  }
  const objects: ManifestObject[] = [toManifestObject(value, root, [])];
  const items = value['items'];
  if (isListKind(value.kind) && Array.isArray(items)) {
    const itemKind = value.kind === 'List' ? undefined : value.kind.slice(0, -'List'.length);
    items.forEach((item: unknown, index) => {
      const path = ['items', index];
      const node = root === undefined ? undefined : nodeAtPath(root, path);
      if (isKubernetesObjectValue(item)) {
        objects.push(toManifestObject(item, node, path));
      } else if (
        itemKind !== undefined &&
        typeof item === 'object' &&
        item !== null &&
        !Array.isArray(item)
      ) {
        const inherited = {
          apiVersion: value.apiVersion,
          kind: itemKind,
          ...(item as Record<string, unknown>),
        };
        objects.push(toManifestObject(inherited, node, path));
      }
    });
  }
  return objects;
}

/** Whether a kind is `List` or a typed list kind such as `PodList`. */
export function isListKind(kind: string): boolean {
  return kind === 'List' || (kind.length > 4 && kind.endsWith('List'));
}

function toManifestObject(
  value: Record<string, unknown> & { apiVersion: string; kind: string },
  node: Node | undefined,
  path: InstancePath,
): ManifestObject {
  const metadata = value['metadata'];
  const meta = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
  return {
    apiVersion: value.apiVersion,
    kind: value.kind,
    name: typeof meta['name'] === 'string' ? meta['name'] : undefined,
    namespace: typeof meta['namespace'] === 'string' ? meta['namespace'] : undefined,
    value,
    node,
    path,
  };
}
