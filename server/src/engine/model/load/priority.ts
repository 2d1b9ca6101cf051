/**
 * Pod priority as the Priority admission plugin resolves it: spec.priority when set, else the value of the named
 * PriorityClass, else the value of the globalDefault class, else 0. The two system classes always exist.
 * https://github.com/kubernetes/kubernetes/blob/master/plugin/pkg/admission/priority/admission.go
 * https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/
 */
import type { PriorityClassInfo } from '../snapshot/cluster';
import { engineFinding } from '../findings';
import { isRecord } from '../objects';
import type { PodSpecObject } from '../objects';
import type { ObjectSource } from '../source';
import type { Finding } from '../../../../../protocol/finding';

/** Built-in PriorityClasses, present in every cluster. */
const SYSTEM_PRIORITY_CLASSES: readonly { name: string; value: number }[] = [
  { name: 'system-node-critical', value: 2000001000 },
  { name: 'system-cluster-critical', value: 2000000000 },
];

const SYSTEM_SOURCE: ObjectSource = { file: '<built-in priority classes>', documentIndex: 0, path: [] };

/** A fresh map holding the system PriorityClasses. */
export function systemPriorityClasses(): Map<string, PriorityClassInfo> {
  return new Map(
    SYSTEM_PRIORITY_CLASSES.map((entry) => [
      entry.name,
      {
        name: entry.name,
        value: entry.value,
        globalDefault: false,
        preemptionPolicy: 'PreemptLowerPriority',
        source: SYSTEM_SOURCE,
      },
    ]),
  );
}

/** Reads a PriorityClass object into `classes`; problems become findings. */
export function addPriorityClass(
  object: Record<string, unknown>,
  source: ObjectSource,
  classes: Map<string, PriorityClassInfo>,
  findings: Finding[],
): void {
  const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
  const name = metadata['name'];
  if (typeof name !== 'string' || name === '') {
    findings.push(
      engineFinding('missing-name', source, ['metadata', 'name'], 'PriorityClass has no metadata.name'),
    );
    return;
  }
  const value = object['value'];
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    const message = `PriorityClass "${name}": value must be an integer`;
    findings.push(engineFinding('invalid-field', source, ['value'], message));
    return;
  }
  if (classes.has(name) && classes.get(name)?.source !== SYSTEM_SOURCE) {
    const message = `PriorityClass "${name}" is defined more than once; the first definition is used`;
    findings.push(engineFinding('duplicate-object', source, ['metadata', 'name'], message));
    return;
  }
  const policy = object['preemptionPolicy'];
  classes.set(name, {
    name,
    value,
    globalDefault: object['globalDefault'] === true,
    preemptionPolicy: policy === 'Never' ? 'Never' : 'PreemptLowerPriority',
    source,
  });
}

/** The resolved priority of a pod, or a finding when it names a class that does not exist (admission rejects it). */
type PriorityResolution =
  | { readonly ok: true; readonly priority: number; readonly preemptionPolicy: string }
  | { readonly ok: false; readonly finding: Finding };

/** Resolves a pod's priority against the known classes. */
export function resolvePodPriority(
  spec: PodSpecObject,
  classes: ReadonlyMap<string, PriorityClassInfo>,
  source: ObjectSource,
  describePod: string,
): PriorityResolution {
  const className = spec.priorityClassName;
  let priorityClass: PriorityClassInfo | undefined;
  if (typeof className === 'string' && className !== '') {
    priorityClass = classes.get(className);
    if (priorityClass === undefined) {
      const message = `${describePod}: no PriorityClass with name ${className} was found`;
      return {
        ok: false,
        finding: engineFinding('unknown-priority-class', source, ['spec', 'priorityClassName'], message),
      };
    }
  } else {
    priorityClass = globalDefaultOf(classes);
  }
  const priority = typeof spec.priority === 'number' ? spec.priority : (priorityClass?.value ?? 0);
  const policy = spec.preemptionPolicy ?? priorityClass?.preemptionPolicy ?? 'PreemptLowerPriority';
  return { ok: true, priority, preemptionPolicy: policy };
}

/** The first globalDefault class in the map's order, without copying the map (this runs for every pod loaded). */
function globalDefaultOf(classes: ReadonlyMap<string, PriorityClassInfo>): PriorityClassInfo | undefined {
  for (const entry of classes.values()) {
    if (entry.globalDefault) {
      return entry;
    }
  }
  return undefined;
}
