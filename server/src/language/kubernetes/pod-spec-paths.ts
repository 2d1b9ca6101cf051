/**
 * Where the pod specs of an object live: a Pod's own spec, the pod template of a workload, the job template of a
 * CronJob. Rules, hover and the engine adapters all find pods through these paths, so that a kind added here is
 * known everywhere at once.
 */
import type { InstancePath } from '../yaml/node-at-path';

/** The parts of an object that decide where its pod specs are. */
interface KindReference {
  readonly apiVersion: string;
  readonly kind: string;
}

const POD_SPEC: InstancePath = ['spec'];
const TEMPLATE_SPEC: InstancePath = ['spec', 'template', 'spec'];
const POD_TEMPLATE_SPEC: InstancePath = ['template', 'spec'];
const CRON_JOB_SPEC: InstancePath = ['spec', 'jobTemplate', 'spec', 'template', 'spec'];

/**
 * Pod spec paths by "<group>/<kind>" ("" is the core group). extensions/v1beta1 and apps/v1beta* workloads are
 * long removed but kept: their layout is the same, and the removed-API finding says the rest.
 */
const POD_SPEC_PATHS: Readonly<Record<string, InstancePath>> = {
  '/Pod': POD_SPEC,
  '/PodTemplate': POD_TEMPLATE_SPEC,
  '/ReplicationController': TEMPLATE_SPEC,
  'apps/Deployment': TEMPLATE_SPEC,
  'apps/ReplicaSet': TEMPLATE_SPEC,
  'apps/StatefulSet': TEMPLATE_SPEC,
  'apps/DaemonSet': TEMPLATE_SPEC,
  'extensions/Deployment': TEMPLATE_SPEC,
  'extensions/ReplicaSet': TEMPLATE_SPEC,
  'extensions/DaemonSet': TEMPLATE_SPEC,
  'batch/Job': TEMPLATE_SPEC,
  'batch/CronJob': CRON_JOB_SPEC,
};

/** The API group of an apiVersion: "apps" for "apps/v1", "" for the core "v1". */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

/**
 * The paths of every pod spec in an object, whether or not the object fills them in: ['spec'] for a Pod,
 * ['spec', 'template', 'spec'] for a Deployment, ReplicaSet, StatefulSet, DaemonSet, ReplicationController or
 * Job, ['spec', 'jobTemplate', 'spec', 'template', 'spec'] for a CronJob, ['template', 'spec'] for a PodTemplate;
 * none for other kinds.
 */
export function podSpecPaths(object: KindReference): InstancePath[] {
  const path = POD_SPEC_PATHS[`${groupOf(object.apiVersion)}/${object.kind}`];
  return path === undefined ? [] : [path];
}

/**
 * The path of the metadata of the pods a pod spec path describes: ['metadata'] for a Pod's own spec, the
 * template's metadata otherwise (['spec', 'template', 'metadata'] for ['spec', 'template', 'spec']).
 */
export function podMetadataPath(specPath: InstancePath): InstancePath {
  return specPath.length === 1 ? ['metadata'] : [...specPath.slice(0, -1), 'metadata'];
}

/** Whether a pod spec path is a template (pods are made from it) rather than a Pod's own spec. */
export function isTemplateSpecPath(specPath: InstancePath): boolean {
  return specPath.length > 1;
}
