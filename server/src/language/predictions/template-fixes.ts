/**
 * Quick fixes that add to a pod template, as a person would type them: a toleration for the taint that keeps
 * the pods off every node; requests and limits (from the settings' defaults) for containers that have none; and
 * requests set equal to limits, which makes the pods Guaranteed. Each keeps the user's layout (block-edits.ts)
 * and is offered only when it does what its title says.
 */
import type { Node } from 'yaml';
import type { TaintObject, TolerationObject } from '../../engine/model/objects';
import { parseQuantity } from '../../engine/model/quantity';
import { findMatchingUntoleratedTaint, isDoNotScheduleTaint } from '../../engine/model/taints';
import type { FixData, OffsetEdit } from '../../../../protocol/finding';
import { formatTaint, podsThatFit } from './landing-nodes';
import type { ReportNode } from '../../engine/scenario/report/report-entries';
import type { WorkloadPrediction } from './workload-predictions';
import { appendMapEntry, appendSeqItem, replaceScalar, yamlString } from '../yaml/block-edits';
import { nodeAtPath } from '../yaml/node-at-path';

type Path = readonly (string | number)[];
type Json = Record<string, unknown>;

/** Requests and limits to add to a container that has none (the setting kubeForesight.defaultResources). */
export interface DefaultResources {
  readonly requests: Readonly<Record<string, string>>;
  readonly limits: Readonly<Record<string, string>>;
}

/** Where a pod template is: its YAML root, its path in it, its plain value, and the text it was parsed from. */
export interface TemplateLocation {
  readonly root: Node | undefined;
  /** The template's path (the object with metadata and spec) from the document root. */
  readonly path: Path;
  readonly value: unknown;
  readonly text: string;
  /** The document's offset in the text. */
  readonly offset: number;
}

/**
 * Adds a toleration for the taint that rejects the pods on the first of the rejecting nodes (the first taint of
 * that node the template does not tolerate, as TaintToleration reports it). `stillPending`, given the tolerations
 * the pod would then have, says why it would still not schedule, for the title.
 */
export function tolerationFix(
  location: TemplateLocation,
  rejectingNodes: readonly string[],
  nodeTaints: ReadonlyMap<string, readonly TaintObject[]>,
  stillPending?: (tolerations: readonly TolerationObject[]) => string | undefined,
): FixData | undefined {
  const spec = asObject(asObject(location.value)['spec']);
  const tolerations = (Array.isArray(spec['tolerations']) ? spec['tolerations'] : []).filter(
    (item: unknown): item is TolerationObject => typeof item === 'object' && item !== null,
  );
  let taint: TaintObject | undefined;
  for (const node of rejectingNodes) {
    taint = findMatchingUntoleratedTaint(nodeTaints.get(node) ?? [], tolerations, isDoNotScheduleTaint);
    if (taint !== undefined) {
      break;
    }
  }
  if (taint === undefined) {
    return undefined;
  }
  const lines = [
    `key: ${yamlString(taint.key)}`,
    ...(taint.value === undefined || taint.value === ''
      ? ['operator: Exists']
      : ['operator: Equal', `value: ${yamlString(taint.value)}`]),
    `effect: ${taint.effect}`,
  ];
  const specPath = [...location.path, 'spec'];
  const existing = nodeAtPath(location.root, [...specPath, 'tolerations']);
  const edit =
    existing !== undefined && spec['tolerations'] !== null
      ? appendSeqItem(existing, location.text, location.offset, lines)
      : existing === undefined
        ? appendMapEntry(nodeAtPath(location.root, specPath), location.text, location.offset, 'tolerations', [
            `- ${lines[0] ?? ''}`,
            ...lines.slice(1).map((line) => `  ${line}`),
          ])
        : undefined;
  const tolerated = taint;
  const after = stillPending?.([
    ...tolerations,
    { key: tolerated.key, operator: 'Exists', effect: tolerated.effect },
  ]);
  return edit === undefined
    ? undefined
    : {
        title: `Add a toleration for the taint ${formatTaint(taint)}${after === undefined ? '' : ` (${after})`}`,
        edits: [edit],
      };
}

/** Adds the default requests and limits to every container (and init container) that sets no resources. */
export function defaultResourcesFix(
  location: TemplateLocation,
  defaults: DefaultResources,
): FixData | undefined {
  const lines = [...section('requests', defaults.requests), ...section('limits', defaults.limits)];
  if (lines.length === 0) {
    return undefined;
  }
  const edits: OffsetEdit[] = [];
  const spec = asObject(asObject(location.value)['spec']);
  for (const list of ['initContainers', 'containers'] as const) {
    const containers = Array.isArray(spec[list]) ? (spec[list] as unknown[]) : [];
    containers.forEach((container: unknown, index) => {
      // A container with any resources (even `resources: {}`) is left as it is.
      if (asObject(container)['resources'] !== undefined) {
        return;
      }
      const path = [...location.path, 'spec', list, index];
      const edit = appendMapEntry(
        nodeAtPath(location.root, path),
        location.text,
        location.offset,
        'resources',
        lines,
      );
      if (edit !== undefined) {
        edits.push(edit);
      }
    });
  }
  if (edits.length === 0) {
    return undefined;
  }
  const summary = [...describe(defaults.requests, 'requests'), ...describe(defaults.limits, 'limits')].join(
    '; ',
  );
  return { title: `Add resources (${summary}, from kubeForesight.defaultResources)`, edits };
}

/**
 * Sets each container's cpu and memory requests equal to its limits, which makes the pods Guaranteed: offered
 * when every container (and init container) has cpu and memory limits and at least one request differs.
 */
export function guaranteedFix(location: TemplateLocation): FixData | undefined {
  const spec = asObject(asObject(location.value)['spec']);
  if (spec['resources'] !== undefined) {
    return undefined; // pod-level resources decide the QoS class: not a per-container edit
  }
  const edits: OffsetEdit[] = [];
  let containersSeen = 0;
  for (const list of ['initContainers', 'containers'] as const) {
    const containers = Array.isArray(spec[list]) ? (spec[list] as unknown[]) : [];
    for (let index = 0; index < containers.length; index++) {
      containersSeen++;
      const resources = asObject(asObject(containers[index])['resources']);
      const limits = asObject(resources['limits']);
      const requests = asObject(resources['requests']);
      const wanted = ['cpu', 'memory'].map((name) => [name, limits[name]] as const);
      if (wanted.some(([, limit]) => typeof limit !== 'string' && typeof limit !== 'number')) {
        return undefined;
      }
      // A request left out defaults to its limit (API defaulting): only requests written differently change.
      const requestsPath = [...location.path, 'spec', list, index, 'resources', 'requests'];
      for (const [name, limit] of wanted) {
        const request = requests[name];
        if (request !== undefined && !sameQuantity(request, limit)) {
          const edit = replaceScalar(
            nodeAtPath(location.root, [...requestsPath, name]),
            location.offset,
            yamlString(String(limit)),
          );
          if (edit === undefined) {
            return undefined;
          }
          edits.push(edit);
        }
      }
    }
  }
  if (containersSeen === 0 || edits.length === 0) {
    return undefined;
  }
  return { title: 'Set requests equal to limits (QoS class Guaranteed)', edits };
}

/** Whether two quantities are equal as the API compares them ("1" and "1000m" are), false when one is malformed. */
function sameQuantity(a: unknown, b: unknown): boolean {
  if ((typeof a !== 'string' && typeof a !== 'number') || (typeof b !== 'string' && typeof b !== 'number')) {
    return false;
  }
  const left = parseQuantity(a);
  const right = parseQuantity(b);
  return left.ok && right.ok && left.quantity.milli === right.quantity.milli;
}

function section(name: string, values: Readonly<Record<string, string>>): string[] {
  const entries = Object.entries(values);
  return entries.length === 0
    ? []
    : [`${name}:`, ...entries.map(([resource, amount]) => `  ${resource}: ${yamlString(amount)}`)];
}

function describe(values: Readonly<Record<string, string>>, name: string): string[] {
  const entries = Object.entries(values);
  return entries.length === 0
    ? []
    : [`${name} ${entries.map(([resource, amount]) => `${resource} ${amount}`).join(', ')}`];
}

function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

/**
 * The default-resources fix, its title saying when the nodes the pods can land on lack room for every replica
 * with the added requests (each container gets the same requests; the pods now placed request nothing, so all
 * of a node's free room counts).
 */
export function withRoomSaid(
  fix: FixData | undefined,
  prediction: Pick<WorkloadPrediction, 'replicas'>,
  template: unknown,
  requests: Readonly<Record<string, string>>,
  nodes: readonly ReportNode[],
): FixData | undefined {
  const containers = asObject(asObject(template)['spec'])['containers'];
  const count = Array.isArray(containers) ? containers.length : 0;
  const perContainer = (resource: string, isCpu: boolean): number => {
    const text = requests[resource];
    const parsed = text === undefined ? undefined : parseQuantity(text);
    return parsed === undefined || !parsed.ok ? 0 : isCpu ? parsed.quantity.milli : parsed.quantity.value;
  };
  const replicas = prediction.replicas.length;
  const room = podsThatFit(nodes, {
    cpuMilli: perContainer('cpu', true) * count,
    memoryBytes: perContainer('memory', false) * count,
  });
  return fix === undefined || room >= replicas
    ? fix
    : {
        ...fix,
        title: `${fix.title ?? ''} (the nodes have room for ${room} of ${replicas} replicas with them: the rest would stay Pending)`,
      };
}
