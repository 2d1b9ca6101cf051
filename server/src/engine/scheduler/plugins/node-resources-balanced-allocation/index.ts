/**
 * NodeResourcesBalancedAllocation: favours nodes whose requested fractions of cpu and memory (by default) stay
 * close to each other once the pod is placed: 100 * (1 - standard deviation of the fractions). Counts plain
 * requests (not the 100m / 200Mi defaults), and skips best-effort pods (kubernetes/kubernetes#129138, 1.33+).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go
 */
import { StateKey } from '../../framework/cycle-state';
import type { PluginFactory } from '../../framework/plugin';
import { SUCCESS, skip } from '../../framework/status';
import { readBalancedAllocationArgs } from '../../config/node-resources-args';
import {
  ResourceAllocationScorer,
  balancedAllocationScorer,
  podRequestVector,
} from '../node-resources-fit/resource-allocation';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const NODE_RESOURCES_BALANCED_ALLOCATION = PLUGIN_NAMES.NodeResourcesBalancedAllocation;

const PRE_SCORE_KEY = new StateKey<readonly number[]>('PreScoreNodeResourcesBalancedAllocation');

/** Builds the plugin with the profile's NodeResourcesBalancedAllocationArgs (resources). */
export const createBalancedAllocation: PluginFactory = (context) => {
  const parsed = readBalancedAllocationArgs(context.args);
  for (const problem of parsed.problems) {
    context.reportArgsProblem(problem.message);
  }
  const { resources } = parsed.args;
  const scorer = new ResourceAllocationScorer(resources, true, balancedAllocationScorer);
  return {
    name: NODE_RESOURCES_BALANCED_ALLOCATION,
    preScore(state, pod) {
      const requests = podRequestVector(pod, resources, true);
      if (requests.every((amount) => amount === 0)) {
        return skip(NODE_RESOURCES_BALANCED_ALLOCATION);
      }
      state.write(PRE_SCORE_KEY, requests);
      return SUCCESS;
    },
    score(state, pod, node) {
      const requests = state.read(PRE_SCORE_KEY) ?? podRequestVector(pod, resources, true);
      return requests.every((amount) => amount === 0) ? 0 : scorer.score(node, requests);
    },
    scoreNodes(state, pod, nodes, scores) {
      const requests = state.read(PRE_SCORE_KEY) ?? podRequestVector(pod, resources, true);
      if (requests.every((amount) => amount === 0)) {
        scores.fill(0, 0, nodes.length);
      } else {
        scorer.scoreNodes(nodes, requests, scores);
      }
    },
  };
};
