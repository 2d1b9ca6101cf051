/**
 * The quick fix of a removed apiVersion whose replacement needs more than the new apiVersion: the edits
 * `kubectl convert` makes to such a manifest, written into the YAML as a person would (keeping the layout).
 *
 * kubectl convert decodes the old object (applying the old version's defaults) and encodes it in the new one
 * (https://github.com/kubernetes-sigs/kubectl-convert, the conversions of pkg/apis/apps and pkg/apis/networking):
 * - extensions/v1beta1 and apps/v1beta1/v1beta2 workloads → apps/v1: the old versions defaulted an absent
 *   spec.selector to the pod template's labels (SetDefaults_Deployment and siblings); apps/v1 requires it, so
 *   the converted object carries `selector.matchLabels` equal to those labels. Fields apps/v1 dropped
 *   (spec.rollbackTo, spec.templateGeneration) are left out. The old update strategy defaults that differ from
 *   apps/v1's (OnDelete for an extensions/v1beta1 DaemonSet and an apps/v1beta1 StatefulSet) are written out,
 *   so the converted object behaves as the old one did.
 * - Ingress extensions/v1beta1 and networking.k8s.io/v1beta1 → networking.k8s.io/v1: spec.backend is
 *   spec.defaultBackend; a backend's serviceName and servicePort become service.name and service.port.number (an
 *   integer port) or service.port.name (a string); a path without pathType gets ImplementationSpecific, which
 *   the v1beta1 defaults set.
 * Left out: the defaults that need no edit (they are the same in both versions) and comments inside a rewritten
 * backend. A layout the edits cannot keep (flow style) gets no fix.
 */
import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Node, Pair } from 'yaml';
import type { FixData, OffsetEdit } from '../../../../protocol/finding';
import { appendMapEntry, removeMapEntry, yamlString } from '../yaml/block-edits';
import { nodeAtPath } from '../yaml/node-at-path';
import type { ManifestObject } from './manifest-object';
import { appendAll } from '../../../../protocol/collections';

const WORKLOAD_KINDS = new Set(['Deployment', 'DaemonSet', 'ReplicaSet', 'StatefulSet']);

/** Old apiVersion/kind pairs whose default update strategy was OnDelete, where apps/v1's is RollingUpdate. */
const ON_DELETE_DEFAULTS = new Set(['extensions/v1beta1/DaemonSet', 'apps/v1beta1/StatefulSet']);

/** Fields of the old workload versions that apps/v1 does not have. */
const DROPPED_WORKLOAD_FIELDS = ['rollbackTo', 'templateGeneration'];

/**
 * The edits converting an object of a removed apiVersion to `replacement`, as one fix, or undefined when the
 * conversion is not one this module knows or the YAML cannot take the edits. `text` is the document's text
 * (the object's node ranges are offsets in it).
 */
export function conversionFix(
  object: ManifestObject,
  text: string,
  replacement: string,
): FixData | undefined {
  const root = object.node;
  const apiVersion = nodeAtPath(root, ['apiVersion']);
  if (!isScalar(apiVersion) || apiVersion.range === undefined || apiVersion.range === null) {
    return undefined;
  }
  const edits: OffsetEdit[] = [
    { start: apiVersion.range[0], end: apiVersion.range[1], newText: replacement },
  ];
  const more =
    replacement === 'apps/v1' && WORKLOAD_KINDS.has(object.kind)
      ? workloadEdits(object, text)
      : replacement === 'networking.k8s.io/v1' && object.kind === 'Ingress'
        ? ingressEdits(root, text)
        : undefined;
  if (more === undefined) {
    return undefined;
  }
  appendAll(edits, more.edits);
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  // A removed field that is the last entry of spec ends where an added one would go: no fix rather than a
  // broken edit.
  if (edits.some((edit, index) => index > 0 && edit.start < (edits[index - 1]?.end ?? 0))) {
    return undefined;
  }
  return {
    title: `Convert to ${replacement}${more.said.length === 0 ? '' : ` (${more.said.join('; ')})`}`,
    edits,
  };
}

interface ConversionEdits {
  readonly edits: OffsetEdit[];
  /** What the edits do besides the apiVersion, for the title. */
  readonly said: string[];
}

function workloadEdits(object: ManifestObject, text: string): ConversionEdits | undefined {
  const spec = nodeAtPath(object.node, ['spec']);
  if (!isMap(spec) || spec.flow === true) {
    return undefined;
  }
  const value = object.value['spec'] as Record<string, unknown> | undefined;
  const edits: OffsetEdit[] = [];
  const said: string[] = [];
  for (const field of DROPPED_WORKLOAD_FIELDS) {
    if (value?.[field] !== undefined) {
      const edit = removeMapEntry(spec, text, 0, field);
      if (edit === undefined) {
        return undefined;
      }
      edits.push(edit);
      said.push(`drop spec.${field}`);
    }
  }
  const additions: { key: string; lines: string[] }[] = [];
  if (value?.['selector'] === undefined) {
    const labels = nodeAtPath(object.node, ['spec', 'template', 'metadata', 'labels']);
    const entries = isMap(labels) ? labels.items.filter(isPair) : [];
    if (entries.length === 0 || !entries.every((pair) => isScalar(pair.key) && isScalar(pair.value))) {
      return undefined;
    }
    additions.push({
      key: 'selector',
      lines: [
        'matchLabels:',
        ...entries.map((pair) => `  ${scalarText(pair.key)}: ${scalarText(pair.value)}`),
      ],
    });
    said.push('spec.selector from the template labels');
  }
  const strategyKey = object.kind === 'DaemonSet' || object.kind === 'StatefulSet' ? 'updateStrategy' : '';
  if (
    strategyKey !== '' &&
    value?.[strategyKey] === undefined &&
    ON_DELETE_DEFAULTS.has(`${object.apiVersion}/${object.kind}`)
  ) {
    additions.push({ key: strategyKey, lines: ['type: OnDelete'] });
    said.push(`${strategyKey} OnDelete, the old default`);
  }
  let inserted: OffsetEdit | undefined;
  for (const addition of additions) {
    const edit = appendMapEntry(spec, text, 0, addition.key, addition.lines);
    if (edit === undefined) {
      return undefined;
    }
    // Entries appended to one map insert at one point: one edit, in order.
    inserted = inserted === undefined ? edit : { ...inserted, newText: inserted.newText + edit.newText };
  }
  if (inserted !== undefined) {
    edits.push(inserted);
  }
  return { edits, said };
}

function ingressEdits(root: Node | undefined, text: string): ConversionEdits | undefined {
  const spec = nodeAtPath(root, ['spec']);
  if (spec !== undefined && (!isMap(spec) || spec.flow === true)) {
    return undefined;
  }
  const edits: OffsetEdit[] = [];
  const said: string[] = [];
  const backendPair = isMap(spec) ? spec.items.find((pair) => keyOf(pair) === 'backend') : undefined;
  if (backendPair !== undefined) {
    const key = backendPair.key as Node;
    if (key.range === undefined || key.range === null) {
      return undefined;
    }
    edits.push({ start: key.range[0], end: key.range[1], newText: 'defaultBackend' });
    said.push('spec.backend → spec.defaultBackend');
    const rewritten = backendEdit(backendPair.value as Node | null, text);
    if (rewritten === null) {
      return undefined;
    }
    appendAll(edits, rewritten === undefined ? [] : [rewritten]);
  }
  const rules = nodeAtPath(root, ['spec', 'rules']);
  let rewrittenBackends = 0;
  let typedPaths = 0;
  for (const rule of isSeq(rules) ? rules.items : []) {
    const paths = nodeAtPath(rule as Node, ['http', 'paths']);
    for (const path of isSeq(paths) ? paths.items : []) {
      if (!isMap(path) || path.flow === true) {
        return undefined;
      }
      const rewritten = backendEdit(nodeAtPath(path, ['backend']) ?? null, text);
      if (rewritten === null) {
        return undefined;
      }
      if (rewritten !== undefined) {
        edits.push(rewritten);
        rewrittenBackends++;
      }
      if (!path.items.some((pair) => keyOf(pair) === 'pathType')) {
        const first = path.items[0]?.key as Node | undefined;
        if (first?.range === undefined || first.range === null) {
          return undefined;
        }
        const indent = ' '.repeat(columnAt(text, first.range[0]));
        edits.push({
          start: first.range[0],
          end: first.range[0],
          newText: `pathType: ImplementationSpecific${lineBreakOf(text)}${indent}`,
        });
        typedPaths++;
      }
    }
  }
  if (rewrittenBackends > 0) {
    said.push('serviceName/servicePort → service.name/port');
  }
  if (typedPaths > 0) {
    said.push('pathType ImplementationSpecific');
  }
  return { edits, said };
}

/**
 * A backend's serviceName/servicePort rewritten as `service: {name, port: {number|name}}`, its other entries
 * (a resource backend) kept as written: one edit over the backend's entries. Undefined when the backend has no
 * service fields; null when its layout cannot take the edit.
 */
function backendEdit(backend: Node | null, text: string): OffsetEdit | undefined | null {
  if (backend === null) {
    return undefined;
  }
  if (!isMap(backend) || backend.flow === true) {
    return null;
  }
  const pairs = backend.items;
  const name = pairs.find((pair) => keyOf(pair) === 'serviceName');
  const port = pairs.find((pair) => keyOf(pair) === 'servicePort');
  if (name === undefined && port === undefined) {
    return undefined;
  }
  const first = pairs[0]?.key as Node | undefined;
  const last = pairs.at(-1);
  const lastNode = (last?.value ?? last?.key) as Node | null | undefined;
  if (
    first?.range === undefined ||
    first.range === null ||
    lastNode?.range === undefined ||
    lastNode.range === null
  ) {
    return null;
  }
  const indent = ' '.repeat(columnAt(text, first.range[0]));
  const portValue = isScalar(port?.value) ? port.value.value : undefined;
  // Convert_v1beta1_IngressBackend_To_networking_IngressBackend: an int port is a number, a string a name.
  const portLines =
    typeof portValue === 'number'
      ? ['  port:', `    number: ${portValue}`]
      : typeof portValue === 'string'
        ? ['  port:', `    name: ${yamlString(portValue)}`]
        : [];
  const nameValue = isScalar(name?.value) ? name.value.value : undefined;
  const service = [
    'service:',
    ...(typeof nameValue === 'string' ? [`  name: ${yamlString(nameValue)}`] : []),
    ...portLines,
  ];
  const kept = pairs.filter((pair) => pair !== name && pair !== port).map((pair) => pairText(pair, text));
  if (kept.some((entry) => entry === undefined)) {
    return null;
  }
  const lines = [...service, ...(kept as string[])];
  return {
    start: first.range[0],
    end: lastNode.range[1] - trailingSpace(text, lastNode.range[1]),
    newText: lines.join(`${lineBreakOf(text)}${indent}`),
  };
}

/** The text of a pair as written, from its key to the end of its value. */
function pairText(pair: Pair, text: string): string | undefined {
  const key = pair.key as Node | null;
  const value = (pair.value ?? pair.key) as Node | null;
  if (key?.range === undefined || key.range === null || value?.range === undefined || value.range === null) {
    return undefined;
  }
  const end = value.range[1] - trailingSpace(text, value.range[1]);
  return text.slice(key.range[0], end);
}

function keyOf(pair: Pair): unknown {
  return isScalar(pair.key) ? pair.key.value : undefined;
}

function scalarText(node: unknown): string {
  return isScalar(node) ? yamlString(String(node.value)) : '';
}

function trailingSpace(text: string, end: number): number {
  let count = 0;
  while (end - count > 0 && /\s/.test(text[end - count - 1] ?? '')) {
    count++;
  }
  return count;
}

function columnAt(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

function lineBreakOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}
