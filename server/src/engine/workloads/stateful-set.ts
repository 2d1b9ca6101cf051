/**
 * StatefulSets: pods named "<set>-<ordinal>" for ordinals start..start+replicas-1 (spec.ordinals.start), each
 * with hostname = its name and subdomain = spec.serviceName, the labels statefulset.kubernetes.io/pod-name,
 * apps.kubernetes.io/pod-index and controller-revision-hash ("<set>-<hash>", the ControllerRevision's name), and
 * one PersistentVolumeClaim volume per volumeClaimTemplate ("<claim>-<set>-<ordinal>").
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/statefulset/stateful_set_utils.go
 * The hash is our deterministic stand-in (hash.ts). Upstream orders the claim volumes by map iteration; we keep
 * the volumeClaimTemplates order, then the template's other volumes.
 */
import { autoscalerKey, replicasUnderAutoscaler } from './autoscalers';
import type { ExpandContext } from './context';
import { addPod } from './context';
import { templateHash } from './hash';
import type { JsonObject } from '../model/json';
import { asArray, asObject, cloneJson, readString } from '../model/json';
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

/** Label with the pod's own name, set by the StatefulSet controller. */
const STATEFUL_SET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** Label with the pod's ordinal (PodIndexLabel, on by default since 1.28). */
const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** Label with the controller revision a pod was made from. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';

const TEMPLATE_PATH = ['spec', 'template'] as const;
/** ControllerRevisionName cuts the prefix to 223 characters so that the name stays valid. */
const MAX_REVISION_PREFIX = 223;

/** Expands a StatefulSet into its pods, in ordinal order. */
export function expandStatefulSet(workload: Workload, context: ExpandContext): void {
  const template = readTemplate(workload, TEMPLATE_PATH);
  const replicas = readCount(workload, ['spec', 'replicas'], 1);
  const start = readCount(workload, ['spec', 'ordinals', 'start'], 0);
  if (template !== null) {
    checkSelector(workload, template, {
      selectorPath: ['spec', 'selector'],
      labelsPath: ['spec', 'template', 'metadata', 'labels'],
      isRequired: true,
    });
  }
  if (template === null || replicas === null || start === null || isWorkloadRejected(workload)) {
    return;
  }
  const bounds = context.autoscalers.get(autoscalerKey(workload.namespace, workload.kind, workload.name));
  const count = replicasUnderAutoscaler(replicas, bounds);
  const revision = `${workload.name.slice(0, MAX_REVISION_PREFIX)}-${templateHash(template)}`;
  const owner = controllerReference('apps/v1', 'StatefulSet', workload.name, workload.uid);
  const serviceName = readString(workload.spec['serviceName']);
  const claimTemplates = asArray(workload.spec['volumeClaimTemplates']).map((claim) => asObject(claim));
  const source = templateSource(workload, TEMPLATE_PATH);
  for (let index = 0; index < count; index++) {
    const ordinal = start + index;
    const name = `${workload.name}-${ordinal}`;
    context.names.reserve(workload.namespace, name);
    const spec = cloneJson(asObject(template['spec']));
    spec['hostname'] = name;
    if (serviceName !== undefined) {
      spec['subdomain'] = serviceName;
    }
    const volumes = claimVolumes(workload.name, ordinal, claimTemplates, asArray(spec['volumes']));
    if (volumes.length > 0) {
      spec['volumes'] = volumes;
    }
    const extraLabels = {
      [STATEFUL_SET_POD_NAME_LABEL]: name,
      [POD_INDEX_LABEL]: String(ordinal),
      [CONTROLLER_REVISION_HASH_LABEL]: revision,
    };
    const identity = { name, namespace: workload.namespace, ownerReference: owner, extraLabels };
    addPod(context, {
      pod: podFromTemplate(template, identity, spec),
      owner: ownerOf(workload),
      source,
      replicaIndex: index,
    });
  }
}

/** updateStorage: a claim volume per template (replacing a same-named volume), then the other volumes. */
function claimVolumes(
  setName: string,
  ordinal: number,
  claimTemplates: readonly JsonObject[],
  volumes: readonly unknown[],
): unknown[] {
  const claimNames = new Set<string>();
  const result: unknown[] = [];
  for (const claim of claimTemplates) {
    const claimName = readString(asObject(claim['metadata'])['name']);
    if (claimName === undefined || claimNames.has(claimName)) {
      continue;
    }
    claimNames.add(claimName);
    result.push({
      name: claimName,
      persistentVolumeClaim: { claimName: `${claimName}-${setName}-${ordinal}` },
    });
  }
  for (const volume of volumes) {
    const volumeName = readString(asObject(volume)['name']);
    if (volumeName === undefined || !claimNames.has(volumeName)) {
      result.push(volume);
    }
  }
  return result;
}
