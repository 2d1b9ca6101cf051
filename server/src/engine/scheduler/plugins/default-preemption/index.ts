/**
 * DefaultPreemption, the PostFilter plugin: when a pod fits no node, find the node where evicting pods of lower
 * priority would let it in, and name those victims. Its messages end kube-scheduler's FitError after
 * "preemption: ": the reason the pod may not preempt ("not eligible due to preemptionPolicy=Never."), or a
 * second FitError over the nodes tried ("0/4 nodes are available: 1 Preemption is not helpful for scheduling,
 * 3 No preemption victims found for incoming pod.").
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/preemption/preemption.go (Preempt)
 *
 * Not modelled: nominated pods of other preemptors and victims still terminating (preemption completes at once in
 * the simulation), extenders, asynchronous preemption. See candidates.ts for the order of the dry run.
 */
import { resolvePodPriority } from '../../../model/load/priority';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { readDefaultPreemptionArgs } from '../../config';
import { formatFitError } from '../../framework/fit-error';
import type { PluginContext, PluginFactory, PostFilterResult } from '../../framework/plugin';
import { SUCCESS, errorStatus, newStatus, statusMessage, unschedulable } from '../../framework/status';
import type { Reason, Status } from '../../framework/status';
import { dryRunPreemption, numCandidates, pickOneCandidate } from './candidates';
import type { DryRunResult } from './candidates';
import { disruptionsAllowed } from './disruption-budgets';
import { DEFAULT_PREEMPTION } from './select-victims';

export { DEFAULT_PREEMPTION, REASON_NO_VICTIMS } from './select-victims';

/** The status of nodes preemption did not try (their filters failed with UnschedulableAndUnresolvable). */
export const REASON_NOT_HELPFUL: Reason = {
  code: 'DefaultPreemption/NotHelpful',
  message: 'Preemption is not helpful for scheduling',
};

/** Why a pod with preemptionPolicy Never (its own or its PriorityClass's) preempts nothing. */
export const NOT_ELIGIBLE_PREEMPT_NEVER = 'not eligible due to preemptionPolicy=Never.';

/** The PostFilter rejection: the message DefaultPreemption.PostFilter prefixes with "preemption: ". */
export function preemptionReason(message: string): Reason {
  return { code: 'DefaultPreemption/PreemptionFailed', message: `preemption: ${message}` };
}

/** Builds the DefaultPreemption plugin with the profile's DefaultPreemptionArgs. */
export const createDefaultPreemption: PluginFactory = (context: PluginContext) => {
  const parsed = readDefaultPreemptionArgs(context.args);
  for (const problem of parsed.problems) {
    context.reportArgsProblem(problem.message);
  }
  const args = parsed.args;
  const handle = context.handle;
  const cluster = handle.cluster;
  const reject = (message: string): PostFilterResult => ({
    status: unschedulable(DEFAULT_PREEMPTION, preemptionReason(message)),
    nominatedNodeName: null,
    victims: [],
  });

  return {
    name: DEFAULT_PREEMPTION,
    postFilter(state, pod, statuses) {
      if (preemptionPolicy(pod, context) === 'Never') {
        return reject(NOT_ELIGIBLE_PREEMPT_NEVER);
      }
      const potential = cluster.nodes.filter((node) => statuses.get(node.name).code === 'Unschedulable');
      const budgetList = cluster.objects.podDisruptionBudgets;
      const budgets = { budgets: budgetList, allowed: budgetList.map((b) => disruptionsAllowed(b, cluster)) };
      const dryRun: DryRunResult =
        potential.length === 0
          ? { candidates: [], statuses: new Map<string, Status>() }
          : dryRunPreemption(handle, state, pod, potential, budgets, numCandidates(args, potential.length));
      const errors = [...dryRun.statuses.values()].filter((status) => status.code === 'Error');
      const best = pickOneCandidate(dryRun.candidates);
      if (best === undefined) {
        if (errors.length > 0) {
          const detail = errors.map((status) => statusMessage(status)).join(', ');
          return { status: errorStatus(DEFAULT_PREEMPTION, detail), nominatedNodeName: null, victims: [] };
        }
        const message = formatFitError({
          numAllNodes: cluster.nodes.length,
          diagnosis: {
            nodeStatuses: dryRun.statuses,
            absentNodesStatus: newStatus(
              'UnschedulableAndUnresolvable',
              DEFAULT_PREEMPTION,
              REASON_NOT_HELPFUL,
            ),
            unschedulablePlugins: new Set(),
            preFilterMessage: '',
            postFilterMessage: '',
          },
        });
        return reject(message);
      }
      return { status: SUCCESS, nominatedNodeName: best.nodeName, victims: best.victims };
    },
  };
};

/** spec.preemptionPolicy as admission sets it: the pod's own, else its PriorityClass's, else PreemptLowerPriority. */
function preemptionPolicy(pod: PodInfo, context: PluginContext): string {
  const spec = pod.pod.spec ?? {};
  const resolved = resolvePodPriority(spec, context.handle.cluster.priorityClasses, pod.source, pod.key);
  return resolved.ok ? resolved.preemptionPolicy : (spec.preemptionPolicy ?? 'PreemptLowerPriority');
}
