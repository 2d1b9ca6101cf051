/**
 * Node groups of the cluster file: what the cluster autoscaler may grow and shrink. Kubernetes has no such object
 * (each cloud provider has its own: an AWS Auto Scaling group, a GKE node pool), so this is our own kind, modelled
 * on cluster-autoscaler's cloudprovider.NodeGroup: an id, MinSize, MaxSize, TemplateNodeInfo (what a new node looks
 * like) and Nodes (which existing nodes belong to it).
 * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/cloudprovider/cloud_provider.go
 *
 *   apiVersion: foresight/v1
 *   kind: NodeGroup
 *   metadata: { name: workers }
 *   spec:
 *     minSize: 1
 *     maxSize: 5
 *     provisioningSeconds: 90          # from the scale-up to the node Ready (default 90)
 *     selector: { matchLabels: { pool: workers } }   # the captured nodes already in the group
 *     template: { metadata: { labels: { pool: workers } }, spec: { taints: [] }, status: { allocatable: { … } } }
 *
 * Left out: a group's zones, instance prices, GPU labels set by the provider, and node-group auto-provisioning.
 */
import { compileLabelSelector } from '../model/label-selector';
import type { PodLabelSelector } from '../model/label-selector';
import { loadNode } from '../model/load/node-load';
import type { NodeInfo } from '../model/snapshot/node-info';
import type { NodeObject } from '../model/objects';
import type { ObjectSource } from '../model/source';
import type { JsonObject } from '../model/json';
import { asObject, isJsonObject, readString } from '../model/json';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';
import { NODE_GROUP_KIND, NODE_GROUP_LABEL } from '../model/load/node-group-kind';

/** How long a new node takes from the scale-up decision to Ready, when the group does not say (seconds). */
export const DEFAULT_PROVISIONING_SECONDS = 90;

/** A node group as the autoscaler reads it. */
export interface NodeGroupSpec {
  readonly name: string;
  readonly minSize: number;
  readonly maxSize: number;
  readonly provisioningSeconds: number;
  /** Which existing nodes belong to the group (besides those labelled with its name); null: none by selector. */
  readonly selector: PodLabelSelector | null;
  /** The template node (its name is replaced for each new node). */
  readonly template: NodeInfo;
  readonly source: ObjectSource;
}

/** Whether an object is a NodeGroup document. */
export function isNodeGroupObject(object: unknown): boolean {
  return isJsonObject(object) && object['kind'] === NODE_GROUP_KIND;
}

/** Reads a NodeGroup document; returns null (with findings) when it cannot be used. */
export function readNodeGroup(
  object: JsonObject,
  source: ObjectSource,
  findings: Finding[],
): NodeGroupSpec | null {
  const problem = (path: readonly (string | number)[], message: string): void => {
    findings.push(engineFinding('node-group-invalid', source, path, message));
  };
  const name = readString(asObject(object['metadata'])['name']);
  if (name === undefined || name === '') {
    problem(['metadata', 'name'], 'NodeGroup has no metadata.name');
    return null;
  }
  const describe = `NodeGroup "${name}"`;
  const spec = asObject(object['spec']);
  const minSize = spec['minSize'] ?? 0;
  const maxSize = spec['maxSize'];
  if (!isCount(minSize)) {
    problem(['spec', 'minSize'], `${describe}: spec.minSize must be a non-negative integer`);
    return null;
  }
  if (!isCount(maxSize) || maxSize < minSize) {
    problem(
      ['spec', 'maxSize'],
      `${describe}: spec.maxSize must be an integer at least spec.minSize (${minSize})`,
    );
    return null;
  }
  const provisioning = spec['provisioningSeconds'] ?? DEFAULT_PROVISIONING_SECONDS;
  if (typeof provisioning !== 'number' || !Number.isFinite(provisioning) || provisioning < 0) {
    problem(
      ['spec', 'provisioningSeconds'],
      `${describe}: spec.provisioningSeconds must be a non-negative number`,
    );
    return null;
  }
  let selector: PodLabelSelector | null = null;
  if (spec['selector'] !== undefined) {
    const compiled = compileLabelSelector(spec['selector']);
    if (!compiled.ok) {
      problem(['spec', 'selector'], `${describe}: spec.selector: ${compiled.message}`);
      return null;
    }
    selector = compiled.selector;
  }
  if (!isJsonObject(spec['template'])) {
    problem(
      ['spec', 'template'],
      `${describe}: spec.template (a Node: labels, taints, status.allocatable) is required`,
    );
    return null;
  }
  const template = readTemplate(name, spec['template'], source, findings);
  if (template === null) {
    return null;
  }
  return { name, minSize, maxSize, provisioningSeconds: provisioning, selector, template, source };
}

/** The template as a Node named after the group, labelled with it; problems point under spec.template. */
function readTemplate(
  group: string,
  raw: JsonObject,
  source: ObjectSource,
  findings: Finding[],
): NodeInfo | null {
  const metadata = asObject(raw['metadata']);
  const labels = metadata['labels'] ?? {};
  if (!isJsonObject(labels) || Object.values(labels).some((value) => typeof value !== 'string')) {
    const message = `NodeGroup "${group}": spec.template.metadata.labels must map strings to strings`;
    findings.push(
      engineFinding('node-group-invalid', source, ['spec', 'template', 'metadata', 'labels'], message),
    );
    return null;
  }
  const node: JsonObject = {
    ...raw,
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      ...metadata,
      name: `template-node-for-${group}`,
      labels: { ...labels, [NODE_GROUP_LABEL]: group },
    },
  };
  const problems: Finding[] = [];
  const info = loadNode(node, source, problems);
  for (const finding of problems) {
    findings.push({ ...finding, path: ['spec', 'template', ...(finding.path ?? [])] });
  }
  return info;
}

/** The Node object of a new member of a group: the template under a new name (hostname label included). */
export function nodeFromTemplate(group: NodeGroupSpec, name: string): NodeObject {
  const template = group.template.node;
  return {
    ...template,
    metadata: {
      ...template.metadata,
      name,
      labels: { ...group.template.labels, 'kubernetes.io/hostname': name },
    },
  };
}

/** Whether an existing node belongs to a group: labelled with its name, or selected by its selector. */
export function isMemberOf(group: NodeGroupSpec, labels: Readonly<Record<string, string>>): boolean {
  return labels[NODE_GROUP_LABEL] === group.name || (group.selector?.matches(labels) ?? false);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
