/**
 * Whether the pods of a template the API server refuses would schedule once a fix gets them admitted (issue #28:
 * "a fix whose result would still not schedule says so in its title"). A refused pod never reaches
 * kube-scheduler, so the simulation has no filter outcome for it; this asks the questions of the scheduler's
 * first filters on the simulated cluster's end state, as the toleration and default-resources fixes do:
 * NodeUnschedulable and TaintToleration (landing-nodes.ts), NodeAffinity (nodeSelector and required node
 * affinity, engine/model/node-selector.ts) and NodeResourcesFit on cpu and memory (the pod's requests computed as
 * the scheduler computes them, engine/model/snapshot/pod-requests.ts), each node counted alone.
 * https://github.com/kubernetes/kubernetes/tree/master/pkg/scheduler/framework/plugins
 * Left out: host ports, volumes, pod (anti-)affinity, topology spread and extended resources; a fix whose pods
 * fail only those is not called Pending here (the prediction after the edit says so).
 */
import type { PodSpecObject } from '../../engine/model/objects';
import { RequiredNodeAffinity } from '../../engine/model/node-selector';
import { RESOURCE_CPU, RESOURCE_MEMORY } from '../../engine/model/resources';
import { computePodRequests } from '../../engine/model/snapshot/pod-requests';
import type { ReportNode } from '../../engine/scenario/report/report-entries';
import type { NodeFacts } from './landing-nodes';
import { landingNodes, podsThatFit } from './landing-nodes';

/** What the check reads of the cluster and the version. */
export interface AdmittedScheduleContext {
  /** The simulated cluster's nodes, with what the placed pods request of them. */
  readonly nodes: readonly ReportNode[];
  readonly facts: NodeFacts | undefined;
  /** Whether spec.resources counts (PodLevelResources, on by default from Kubernetes 1.34). */
  readonly podLevelResources: boolean;
}

/**
 * Why `count` pods of `podSpec`, once admitted, would not all schedule ("Pending: no node has room for it"), or undefined when
 * the nodes they can land on have room for all of them. Without node facts nothing is said.
 */
export function stillPendingOnceAdmitted(
  podSpec: PodSpecObject,
  count: number,
  context: AdmittedScheduleContext,
): string | undefined {
  const { facts } = context;
  if (facts === undefined || count < 1) {
    return undefined;
  }
  const affinity = new RequiredNodeAffinity(podSpec);
  const open = landingNodes(context.nodes, facts, podSpec).filter(
    (node) =>
      affinity.isEmpty || affinity.matches({ name: node.name, labels: facts.labels?.get(node.name) ?? {} }),
  );
  const pods = count === 1 ? 'it' : `its ${count} pods`;
  if (open.length === 0) {
    return 'Pending: every node is cordoned, tainted against it or outside its node selector';
  }
  const { requests } = computePodRequests(podSpec, { podLevelResources: context.podLevelResources }, []);
  const room = podsThatFit(open, {
    cpuMilli: requests.get(RESOURCE_CPU) ?? 0,
    memoryBytes: requests.get(RESOURCE_MEMORY) ?? 0,
  });
  if (room >= count) {
    return undefined;
  }
  return room === 0
    ? `Pending: no node has room for ${pods}`
    : `Pending: the nodes have room for ${room} of ${count} pods`;
}
