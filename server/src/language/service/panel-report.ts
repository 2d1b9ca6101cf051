/**
 * Turns a simulation into the report the timeline panel replays (protocol/webview-messages.ts PanelReport):
 * the engine's report, plus for each pod its per-node filter outcomes and scores (from the 'full' scheduling
 * records) and where its manifest is, plus a timeline. Until the engine writes `events` (or for nodes and pods its
 * events leave out), a timeline at time 0 is built from the records: each node added, each pod created then
 * scheduled or found unschedulable, in input order. Pure: the caller reads the files.
 */
import type { Document } from 'yaml';
import { parseAllDocuments } from 'yaml';
import type { TimelineEvent } from '../../../../protocol/timeline';
import type {
  PanelManifestLocation,
  PanelPod,
  PanelReport,
  PanelSchedulingExplanation,
} from '../../../../protocol/webview-messages';
import { parseQuantity } from '../../engine/model/quantity';
import type { ObjectSource } from '../../engine/model/source';
import type { SchedulingRecord } from '../../engine/scheduler/record';
import type { SimulationResult } from '../../engine/simulate/simulate';
import { nodeAtPath } from '../yaml/node-at-path';
import { LineIndex } from '../text/line-index';

/** The text of a file the simulation read, by the `file` its sources name (a URI), or undefined. */
type SourceText = (file: string) => string | undefined;

/**
 * Builds the panel's report; `linesOf` gives a file's line index when it is not its text's own (a kustomize
 * render's, whose positions are those of the files its objects came from).
 */
export function buildPanelReport(
  result: SimulationResult,
  textOf: SourceText,
  linesOf: (file: string) => LineIndex | undefined = () => undefined,
): PanelReport {
  const report = result.report;
  const locate = manifestLocator(textOf, linesOf);
  const pods: PanelPod[] = report.pods.map((pod, index) => {
    const record = result.records[index];
    if (record === undefined || record.pod.name !== pod.name || record.pod.namespace !== pod.namespace) {
      return pod;
    }
    // Only a record that led to the reported outcome explains it.
    const nodeNames = report.cluster.nodes.map((node) => node.name);
    const explanation = record.nodeName === pod.nodeName ? explain(record, nodeNames) : undefined;
    const location = locate(record.pod.source);
    return {
      ...pod,
      ...(explanation === undefined ? {} : { explanation }),
      ...(location === undefined ? {} : { location }),
    };
  });
  const engineEvents = (report as { readonly events?: readonly TimelineEvent[] }).events;
  return { ...report, pods, events: completeTimeline(result, engineEvents ?? []) };
}

/** Each evaluated node's filter outcome and scores, in cluster order; undefined when nothing was recorded. */
export function explain(
  record: SchedulingRecord,
  nodeNames: readonly string[],
): PanelSchedulingExplanation | undefined {
  if (record.filterStatuses.size === 0) {
    return undefined;
  }
  const scores = new Map((record.scores?.nodes ?? []).map((node) => [node.name, node]));
  const nodes = nodeNames.flatMap((name) => {
    const status = record.filterStatuses.get(name);
    if (status === undefined) {
      return [];
    }
    const scored = scores.get(name);
    return [
      {
        node: name,
        rejectedBy:
          status.code === 'Success'
            ? null
            : { plugin: status.plugin, reasons: status.reasons.map((reason) => reason.message) },
        scores: scored === undefined ? null : [...scored.scores],
        total: scored === undefined ? null : scored.total,
      },
    ];
  });
  return { scorePlugins: [...(record.scores?.plugins ?? [])], nodes };
}

/**
 * The engine's events, preceded by what they leave out: NodeAdded for nodes they never add, and PodCreated then
 * PodScheduled or PodUnschedulable for pods they never mention, all at time 0.
 */
export function completeTimeline(
  result: SimulationResult,
  events: readonly TimelineEvent[],
): TimelineEvent[] {
  const addedNodes = new Set(
    events.filter((event) => event.type === 'NodeAdded').map((event) => event.object.name),
  );
  const mentionedPods = new Set(
    events
      .filter((event) => event.object.kind === 'Pod')
      .map((event) => `${event.object.namespace ?? ''}/${event.object.name}`),
  );
  const prefix: TimelineEvent[] = [];
  for (const node of result.report.cluster.nodes) {
    if (!addedNodes.has(node.name)) {
      prefix.push({
        time: 0,
        type: 'NodeAdded',
        object: { kind: 'Node', name: node.name },
        node: node.name,
        message: `Node ${node.name} is in the cluster`,
        details: {
          allocatable: {
            cpuMilli: quantityOf(node.allocatable['cpu'], 'milli'),
            memoryBytes: quantityOf(node.allocatable['memory'], 'value'),
            pods: quantityOf(node.allocatable['pods'], 'value'),
          },
        },
      });
    }
  }
  result.report.pods.forEach((pod, index) => {
    const record = result.records[index];
    if (mentionedPods.has(`${pod.namespace}/${pod.name}`) || record === undefined) {
      return;
    }
    const object = { kind: 'Pod', namespace: pod.namespace, name: pod.name };
    const requests = record.pod.requests;
    prefix.push({
      time: 0,
      type: 'PodCreated',
      object,
      node: null,
      message: pod.owner === null ? 'Pod created' : `Created by ${pod.owner.kind} ${pod.owner.name}`,
      details: { owner: pod.owner, requests: { cpuMilli: requests.milliCpu, memoryBytes: requests.memory } },
    });
    prefix.push(
      pod.nodeName === null
        ? {
            time: 0,
            type: 'PodUnschedulable',
            object,
            node: null,
            message: pod.unschedulable?.message ?? 'not scheduled',
          }
        : {
            time: 0,
            type: 'PodScheduled',
            object,
            node: pod.nodeName,
            message: `Successfully assigned ${pod.namespace}/${pod.name} to ${pod.nodeName}`,
          },
    );
  });
  return [...prefix, ...events];
}

function quantityOf(text: string | undefined, unit: 'milli' | 'value'): number {
  const parsed = text === undefined ? undefined : parseQuantity(text);
  return parsed?.ok === true ? parsed.quantity[unit] : 0;
}

/** Finds where an object's source points in its file, parsing each file once. */
function manifestLocator(
  textOf: SourceText,
  linesOf: (file: string) => LineIndex | undefined,
): (source: ObjectSource) => PanelManifestLocation | undefined {
  const parsed = new Map<string, { documents: Document.Parsed[]; lines: LineIndex } | null>();
  return (source) => {
    let file = parsed.get(source.file);
    if (file === undefined) {
      const text = textOf(source.file);
      file =
        text === undefined
          ? null
          : {
              documents: parseAllDocuments(text) as Document.Parsed[],
              lines: linesOf(source.file) ?? new LineIndex(text),
            };
      parsed.set(source.file, file);
    }
    const document = file?.documents[source.documentIndex];
    if (file === null || document === undefined) {
      return undefined;
    }
    // The object's node, or its document's start when the path is not there (a generated part).
    const node = nodeAtPath(document.contents, source.path) ?? document.contents;
    const offset = node?.range?.[0] ?? document.range[0];
    const position = file.lines.positionAt(offset);
    return { uri: source.file, line: position.line, character: position.character };
  };
}
