/**
 * target-port-not-found: a Service whose targetPort names a port that no container of the pods it selects
 * defines. The Service is accepted, but its endpoints never get that port, so traffic goes nowhere. This looks
 * across objects: the pods are the analysed Pods and workload templates in the Service's namespace whose labels
 * the selector matches. A Service that selects none of them gets nothing (its pods may be defined elsewhere).
 * Port lookup follows FindPort in https://github.com/kubernetes/kubernetes/blob/master/pkg/api/v1/pod/util.go:
 * the name and the protocol must both match, among containers and sidecars (init containers with
 * restartPolicy: Always).
 */
import type { TextFinding } from '../findings';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { podMetadataPath, podSpecPaths } from '../kubernetes/pod-spec-paths';
import type { InstancePath } from '../yaml/node-at-path';
import { rangeForValue } from '../yaml/node-at-path';
import { labelsAt, mapSelectorMatches } from './label-selector';
import { findingAt, listAt, labelEntriesAt } from './rule-support';
import { isRecord } from '../../engine/model/objects';

/** A named container port of an analysed pod (or pod template). */
interface NamedPort {
  readonly name: string;
  readonly protocol: string;
}

/** The pods an object stands for, as far as Services care: labels and named ports. */
interface PodShape {
  readonly owner: ManifestObject;
  readonly namespace: string;
  readonly labels: ReadonlyMap<string, string>;
  readonly ports: readonly NamedPort[];
}

const DEFAULT_NAMESPACE = 'default';

/**
 * Checks every Service among the objects against the pods the same objects define. Findings are placed in the
 * coordinates of each Service's own document (as rule findings are): shift them by the document's offset.
 * Returns only the Services with findings.
 */
export function checkServiceTargetPorts(
  objects: readonly ManifestObject[],
): Map<ManifestObject, TextFinding[]> {
  const results = new Map<ManifestObject, TextFinding[]>();
  for (const [service, problems] of serviceTargetPortProblems(objects)) {
    const findings = placeTargetPortProblems(service, problems);
    if (findings.length > 0) {
      results.set(service, findings);
    }
  }
  return results;
}

/** Places a Service's problems on its node (in its document's coordinates); a field without a node has none. */
export function placeTargetPortProblems(
  service: ManifestObject,
  problems: readonly TargetPortProblem[],
): TextFinding[] {
  return problems.flatMap((problem) =>
    findingAt(rangeForValue(service.node, problem.path), problem.code, problem.message),
  );
}

/** A target-port problem of a Service, at a field path inside it, not yet placed on the text. */
export interface TargetPortProblem {
  readonly code: 'target-port-not-found';
  readonly path: InstancePath;
  readonly message: string;
}

/**
 * The problems checkServiceTargetPorts places, by Service, found from the objects' values alone: `foresight
 * validate` finds them in its main thread over objects whose YAML nodes stay in worker threads, which place them.
 */
export function serviceTargetPortProblems(
  objects: readonly ManifestObject[],
): Map<ManifestObject, TargetPortProblem[]> {
  const pods = indexByLabel(objects.flatMap(podShapesOf));
  const results = new Map<ManifestObject, TargetPortProblem[]>();
  for (const service of objects) {
    if (service.apiVersion !== 'v1' || service.kind !== 'Service') {
      continue;
    }
    const problems = checkService(service, pods);
    if (problems.length > 0) {
      results.set(service, problems);
    }
  }
  return results;
}

/** Pods by namespace and label pair, each list in the objects' order. */
type PodIndex = ReadonlyMap<string, readonly PodShape[]>;

function labelKey(namespace: string, key: string, value: string): string {
  return JSON.stringify([namespace, key, value]);
}

/**
 * Indexes the pods by each of their labels, so that a Service looks only at the pods that carry its selector's
 * first pair: matching every Service against every pod was quadratic (1,667 Services and Deployments in one file
 * made 2.8 million matches, about 200 ms, on every keystroke).
 */
function indexByLabel(pods: readonly PodShape[]): PodIndex {
  const index = new Map<string, PodShape[]>();
  for (const pod of pods) {
    for (const [key, value] of pod.labels) {
      const entry = labelKey(pod.namespace, key, value);
      const list = index.get(entry);
      if (list === undefined) {
        index.set(entry, [pod]);
      } else {
        list.push(pod);
      }
    }
  }
  return index;
}

function podShapesOf(object: ManifestObject): PodShape[] {
  return podSpecPaths(object).map((specPath) => ({
    owner: object,
    namespace: object.namespace ?? DEFAULT_NAMESPACE,
    labels: labelsAt(object.value, [...podMetadataPath(specPath), 'labels']),
    ports: namedPortsOf(object.value, specPath),
  }));
}

function namedPortsOf(value: unknown, specPath: InstancePath): NamedPort[] {
  const containers = [
    ...listAt(value, [...specPath, 'containers']),
    ...listAt(value, [...specPath, 'initContainers']).filter(
      (container) => isRecord(container) && container['restartPolicy'] === 'Always',
    ),
  ];
  const ports: NamedPort[] = [];
  for (const container of containers) {
    for (const port of listAt(container, ['ports'])) {
      if (isRecord(port) && typeof port['name'] === 'string') {
        ports.push({
          name: port['name'],
          protocol: typeof port['protocol'] === 'string' ? port['protocol'] : 'TCP',
        });
      }
    }
  }
  return ports;
}

function checkService(service: ManifestObject, pods: PodIndex): TargetPortProblem[] {
  const selector = labelEntriesAt(service.value, ['spec', 'selector']);
  const [first] = selector;
  if (first === undefined) {
    return [];
  }
  const namespace = service.namespace ?? DEFAULT_NAMESPACE;
  const candidates = pods.get(labelKey(namespace, first[0], first[1])) ?? [];
  // The selected pods are gathered only when a named port is missing: a port that one selected pod defines is
  // found at that pod (a Service selects a Deployment copied into many files: 100 candidates for each Service).
  let selected: PodShape[] | undefined;
  const selectedPods = (): PodShape[] =>
    (selected ??= candidates.filter((pod) => mapSelectorMatches(selector, pod.labels)));
  const problems: TargetPortProblem[] = [];
  const ports = listAt(service.value, ['spec', 'ports']);
  for (const [index, port] of ports.entries()) {
    const targetPort = isRecord(port) ? port['targetPort'] : undefined;
    if (typeof targetPort !== 'string' || targetPort === '' || /^\d+$/.test(targetPort)) {
      continue;
    }
    const protocol = isRecord(port) && typeof port['protocol'] === 'string' ? port['protocol'] : 'TCP';
    const defines = (pod: PodShape): boolean =>
      pod.ports.some((candidate) => candidate.name === targetPort && candidate.protocol === protocol);
    if (candidates.some((pod) => defines(pod) && mapSelectorMatches(selector, pod.labels))) {
      continue;
    }
    const chosen = selectedPods();
    if (chosen.length === 0) {
      return []; // the Service selects none of these pods: its pods may be defined elsewhere
    }
    const message = notFoundMessage(
      targetPort,
      protocol,
      chosen,
      chosen.flatMap((pod) => pod.ports),
    );
    problems.push({ code: 'target-port-not-found', path: ['spec', 'ports', index, 'targetPort'], message });
  }
  return problems;
}

function notFoundMessage(
  targetPort: string,
  protocol: string,
  selected: readonly PodShape[],
  candidates: readonly NamedPort[],
): string {
  const owners = [...new Set(selected.map((pod) => `${pod.owner.kind} ${pod.owner.name ?? '(unnamed)'}`))];
  const sameName = candidates.find((candidate) => candidate.name === targetPort);
  const names = [...new Set(candidates.map((candidate) => candidate.name))].sort();
  const subject = `the pods this Service selects (${owners.join(', ')})`;
  if (sameName !== undefined) {
    return `targetPort "${targetPort}" is a ${sameName.protocol} port in ${subject}, but this Service port is ${protocol}; endpoints get no port for it.`;
  }
  return (
    `targetPort "${targetPort}" is not the name of any container port in ${subject}` +
    (names.length === 0 ? '; they name no ports.' : `; their named ports: ${names.join(', ')}.`)
  );
}
