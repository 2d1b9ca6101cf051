/**
 * DaemonSets: one pod per eligible node (node-eligibility.ts), named "<daemonset>-<5 characters>". The
 * controller adds tolerations so that node problems neither block nor evict daemon pods
 * (AddOrUpdateDaemonPodTolerations), labels each pod with controller-revision-hash (the bare hash) and
 * pod-template-generation, and pins it to its node with a required node affinity on metadata.name
 * (ReplaceDaemonSetPodNodeNameNodeAffinity), leaving the binding itself to the scheduler.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/daemon/util/daemonset_util.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/daemon/daemon_controller.go
 */
import type { ExpandContext } from './context';
import { addPod } from './context';
import { WORKLOAD_MESSAGES } from './findings';
import { templateHash } from './hash';
import type { JsonObject } from '../model/json';
import { asArray, asObject, cloneJson, readString } from '../model/json';
import { podsPrefix } from './names';
import { nodeShouldRunDaemonPod } from './node-eligibility';
import type { IneligibleReason } from './node-eligibility';
import { controllerReference, podFromTemplate } from './pod-builder';
import { CONTROLLER_REVISION_HASH_LABEL } from './stateful-set';
import type { Workload } from './workload';
import { checkSelector, isWorkloadRejected, ownerOf, readTemplate, templateSource } from './workload';
import { engineFinding } from '../model/findings';

/** Label with the DaemonSet's generation when the pod was made (kept for backward compatibility upstream). */
const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

const TEMPLATE_PATH = ['spec', 'template'] as const;
/** How many refused nodes a finding names before summarising the rest. */
const MAX_REASONS_SHOWN = 3;

/** The tolerations every daemon pod gets, in the order the controller adds them. */
function daemonTolerations(hostNetwork: boolean): JsonObject[] {
  const tolerations: JsonObject[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (hostNetwork) {
    tolerations.push({
      key: 'node.kubernetes.io/network-unavailable',
      operator: 'Exists',
      effect: 'NoSchedule',
    });
  }
  return tolerations;
}

/**
 * AddOrUpdateTolerationInPodSpec for each daemon toleration: a toleration with the same key, operator, value and
 * effect is replaced in place (dropping, say, its tolerationSeconds); otherwise the new one is appended.
 */
export function addDaemonTolerations(spec: JsonObject): void {
  const tolerations = asArray(spec['tolerations']).map((t) => asObject(t));
  for (const wanted of daemonTolerations(spec['hostNetwork'] === true)) {
    const index = tolerations.findIndex((existing) => isSameToleration(existing, wanted));
    if (index >= 0) {
      tolerations[index] = { ...wanted };
    } else {
      tolerations.push({ ...wanted });
    }
  }
  spec['tolerations'] = tolerations;
}

function isSameToleration(a: JsonObject, b: JsonObject): boolean {
  const fields = ['key', 'operator', 'value', 'effect'];
  return fields.every((field) => (readString(a[field]) ?? '') === (readString(b[field]) ?? ''));
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes "metadata.name In [node]". */
function pinToNode(spec: JsonObject, nodeName: string): void {
  const affinity = asObject(spec['affinity']);
  const nodeAffinity = asObject(affinity['nodeAffinity']);
  nodeAffinity['requiredDuringSchedulingIgnoredDuringExecution'] = {
    nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
  };
  affinity['nodeAffinity'] = nodeAffinity;
  spec['affinity'] = affinity;
}

/** Expands a DaemonSet into one pod per eligible node, in the order of the nodes. */
export function expandDaemonSet(workload: Workload, context: ExpandContext): void {
  const template = readTemplate(workload, TEMPLATE_PATH);
  if (template !== null) {
    checkSelector(workload, template, {
      selectorPath: ['spec', 'selector'],
      labelsPath: ['spec', 'template', 'metadata', 'labels'],
      isRequired: true,
    });
  }
  if (template === null || isWorkloadRejected(workload)) {
    return;
  }
  const hash = templateHash(template);
  const generation = workload.metadata['generation'];
  const extraLabels = {
    [CONTROLLER_REVISION_HASH_LABEL]: hash,
    [POD_TEMPLATE_GENERATION_LABEL]: String(typeof generation === 'number' ? generation : 1),
  };
  const owner = controllerReference('apps/v1', 'DaemonSet', workload.name, workload.uid);
  const generateName = podsPrefix(workload.name);
  const source = templateSource(workload, TEMPLATE_PATH);
  const daemonSpec = cloneJson(asObject(template['spec']));
  addDaemonTolerations(daemonSpec);
  const refusals = new Map<IneligibleReason, string[]>();
  let created = 0;
  for (const node of context.nodes) {
    const nodeName = readString(asObject(asObject(node)['metadata'])['name']);
    if (nodeName === undefined) {
      continue;
    }
    const verdict = nodeShouldRunDaemonPod(daemonSpec, node);
    if (!verdict.shouldRun) {
      refusals.set(verdict.reason, [
        ...(refusals.get(verdict.reason) ?? []),
        `${nodeName}: ${verdict.detail}`,
      ]);
      continue;
    }
    const spec = cloneJson(daemonSpec);
    pinToNode(spec, nodeName);
    const name = context.names.generate(workload.namespace, generateName, `${workload.uid}/${nodeName}`);
    const identity = {
      name,
      generateName,
      namespace: workload.namespace,
      ownerReference: owner,
      extraLabels,
    };
    const pod = podFromTemplate(template, identity, spec);
    addPod(context, { pod, owner: ownerOf(workload), source, replicaIndex: created });
    created++;
  }
  if (created === 0) {
    const all = [...refusals.values()].flat();
    const shown = all.slice(0, MAX_REASONS_SHOWN).join('; ');
    const reasons =
      all.length > MAX_REASONS_SHOWN ? `${shown}; and ${all.length - MAX_REASONS_SHOWN} more` : shown;
    const message = WORKLOAD_MESSAGES.noEligibleNode(workload.label, context.nodes.length, reasons);
    workload.findings.push(
      engineFinding('daemonset-no-eligible-node', workload.source, ['spec', 'template'], message),
    );
  }
}
