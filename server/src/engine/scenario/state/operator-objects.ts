/**
 * Custom resources that an operator turns into pods (a Prometheus, a Kafka, a Postgres cluster): the operator is
 * not in the simulated cluster, so their pods do not exist here, as they would not exist yet in a real cluster
 * until the operator reconciles. Each such object gets one note saying so, and a PodDisruptionBudget that selects
 * no simulated pod in a namespace holding such objects is a note (it may select the operator's pods), not a
 * warning that it protects nothing.
 *
 * What counts as one is read from the object alone: an apiVersion of a group that is not Kubernetes' own (a dot in
 * the group, not ending in `.k8s.io`) and a spec naming what makes pods (replicas, instances, an image, containers,
 * a pod template or pod metadata) at its top or one level down. A heuristic, stated as one: an operator whose
 * resource uses other words is not noticed, and its budgets keep the warning.
 */
import type { SourcedObject } from '../../model/load/cluster-load';
import type { ObjectSource } from '../../model/source';
import { asObject, isJsonObject, readString } from '../../model/json';
import type { Finding } from '../../../../../protocol/finding';
import { engineFinding } from '../../model/findings';

/** Spec fields that say a custom resource runs pods. */
const POD_MAKING_FIELDS = new Set([
  'replicas',
  'instances',
  'image',
  'imageName',
  'containers',
  'template',
  'podTemplate',
  'podSpec',
  'podMetadata',
]);

/** A custom resource whose pods an operator would make. */
export interface OperatorObject {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly source: ObjectSource;
}

/** The manifests' custom resources that an operator turns into pods, in input order. */
export function operatorObjects(manifests: readonly SourcedObject[]): OperatorObject[] {
  const found: OperatorObject[] = [];
  for (const { object, source } of manifests) {
    if (!isJsonObject(object) || !isCustomGroup(readString(object['apiVersion']) ?? '')) {
      continue;
    }
    const spec = asObject(object['spec']);
    const nested = Object.values(spec).filter(isJsonObject);
    if (![spec, ...nested].some((fields) => Object.keys(fields).some((key) => POD_MAKING_FIELDS.has(key)))) {
      continue;
    }
    const metadata = asObject(object['metadata']);
    found.push({
      kind: readString(object['kind']) ?? 'object',
      namespace: readString(metadata['namespace']) ?? 'default',
      name: readString(metadata['name']) ?? '',
      source,
    });
  }
  return found;
}

/** One note per operator object: its pods are not simulated. */
export function noteOperatorObjects(objects: readonly OperatorObject[], findings: Finding[]): void {
  for (const object of objects) {
    const message = `pods made by an operator from ${object.kind}/${object.name} are not simulated (the operator is not part of the simulated cluster)`;
    findings.push(engineFinding('operator-pods-not-simulated', object.source, [], message));
  }
}

/** Whether an apiVersion belongs to a group outside Kubernetes' own. */
function isCustomGroup(apiVersion: string): boolean {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  return group.includes('.') && !group.endsWith('.k8s.io');
}
