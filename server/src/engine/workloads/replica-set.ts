/**
 * Deployments, ReplicaSets and ReplicationControllers.
 *
 * A Deployment creates a ReplicaSet named "<deployment>-<pod-template-hash>" whose template carries the extra
 * label pod-template-hash; the ReplicaSet creates `replicas` pods named "<replicaset>-<5 characters>". A
 * Deployment created paused gets no ReplicaSet (getNewReplicaSet is called with createIfNotExisted false).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/deployment/sync.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/replicaset/replica_set.go
 * The hash and the five characters are deterministic stand-ins (hash.ts).
 */
import { autoscalerKey, replicasUnderAutoscaler } from './autoscalers';
import type { ExpandContext } from './context';
import { addPod } from './context';
import { WORKLOAD_MESSAGES } from './findings';
import { seededUid, templateHash } from './hash';
import type { JsonObject } from '../model/json';
import { asObject, cloneJson } from '../model/json';
import { podsPrefix } from './names';
import type { ControllerReference } from './pod-builder';
import { controllerReference, podFromTemplate } from './pod-builder';
import type { Workload } from './workload';
import {
  checkSelector,
  isWorkloadRejected,
  ownerOf,
  readCount,
  readTemplate,
  templateSource,
} from './workload';
import { engineFinding } from '../model/findings';

/** The label a Deployment adds to its ReplicaSets' templates and pods. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

const TEMPLATE_PATH = ['spec', 'template'] as const;
const SELECTOR_RULE = {
  selectorPath: ['spec', 'selector'],
  labelsPath: ['spec', 'template', 'metadata', 'labels'],
  isRequired: true,
} as const;

/** Expands a Deployment into the pods of its first ReplicaSet. */
export function expandDeployment(workload: Workload, context: ExpandContext): void {
  const template = readTemplate(workload, TEMPLATE_PATH);
  const replicas = readReplicas(workload, context);
  if (template !== null) {
    checkSelector(workload, template, SELECTOR_RULE);
  }
  if (template === null || replicas === null || isWorkloadRejected(workload)) {
    return;
  }
  if (workload.spec['paused'] === true) {
    const message = WORKLOAD_MESSAGES.deploymentPaused(workload.label);
    workload.findings.push(engineFinding('deployment-paused', workload.source, ['spec', 'paused'], message));
    return;
  }
  // No pod to make (the simulation expands its workloads at 0 replicas to validate them): the ReplicaSet's name
  // and template would be used by nothing, and hashing and copying the template is most of the work.
  if (replicas === 0) {
    return;
  }
  const hash = templateHash(template);
  const replicaSetName = `${workload.name}-${hash}`;
  const replicaSetTemplate = cloneJson(template);
  const metadata = asObject(replicaSetTemplate['metadata']);
  metadata['labels'] = { ...asObject(metadata['labels']), [POD_TEMPLATE_HASH_LABEL]: hash };
  replicaSetTemplate['metadata'] = metadata;
  const uid = seededUid(`ReplicaSet/${workload.namespace}/${replicaSetName}`);
  const owner = controllerReference('apps/v1', 'ReplicaSet', replicaSetName, uid);
  createReplicas(workload, context, replicaSetTemplate, owner, replicas);
}

/** Expands a ReplicaSet (apps/v1) or a ReplicationController (v1, whose selector is a plain map and optional). */
export function expandReplicaSet(workload: Workload, context: ExpandContext): void {
  const isController = workload.kind === 'ReplicationController';
  const template = readTemplate(workload, TEMPLATE_PATH);
  const replicas = readReplicas(workload, context);
  const rule = isController ? { ...SELECTOR_RULE, isRequired: false, isPlainMap: true } : SELECTOR_RULE;
  if (template !== null) {
    checkSelector(workload, template, rule);
  }
  if (template === null || replicas === null || isWorkloadRejected(workload)) {
    return;
  }
  const apiVersion = isController ? 'v1' : 'apps/v1';
  const owner = controllerReference(apiVersion, workload.kind, workload.name, workload.uid);
  createReplicas(workload, context, template, owner, replicas);
}

/** spec.replicas (default 1), moved into the bounds of an HPA that targets the workload. */
function readReplicas(workload: Workload, context: ExpandContext): number | null {
  const replicas = readCount(workload, ['spec', 'replicas'], 1);
  if (replicas === null) {
    return null;
  }
  const bounds = context.autoscalers.get(autoscalerKey(workload.namespace, workload.kind, workload.name));
  return replicasUnderAutoscaler(replicas, bounds);
}

function createReplicas(
  workload: Workload,
  context: ExpandContext,
  template: JsonObject,
  owner: ControllerReference,
  replicas: number,
): void {
  const generateName = podsPrefix(owner.name);
  const source = templateSource(workload, TEMPLATE_PATH);
  for (let index = 0; index < replicas; index++) {
    const name = context.names.generate(workload.namespace, generateName, `${owner.uid}/${index}`);
    const pod = podFromTemplate(template, {
      name,
      generateName,
      namespace: workload.namespace,
      ownerReference: owner,
    });
    addPod(context, { pod, owner: ownerOf(workload), source, replicaIndex: index });
  }
}
