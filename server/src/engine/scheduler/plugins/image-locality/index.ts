/**
 * ImageLocality: favours nodes that already have the pod's images. Each image present on the node adds its size
 * scaled by the share of nodes that have it (so images everywhere count little); the sum is clamped between 23MB
 * and 1000MB per container and mapped linearly onto 0..100.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/imagelocality/image_locality.go
 * Node image names (status.images[].names) are taken as written, as the scheduler cache does; the pod's image
 * names get ":latest" when they have no tag.
 */
import type { NodeInfo } from '../../../model/snapshot/node-info';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { MAX_NODE_SCORE } from '../../framework/plugin';
import type { PluginFactory } from '../../framework/plugin';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const IMAGE_LOCALITY = PLUGIN_NAMES.ImageLocality;

const MB = 1024 * 1024;
/** Below this sum the score is 0 (minThreshold). */
const MIN_THRESHOLD = 23 * MB;
/** The sum per container at which the score reaches 100 (maxContainerThreshold). */
const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** Builds the ImageLocality plugin (score only). */
export const createImageLocality: PluginFactory = (context) => ({
  name: IMAGE_LOCALITY,
  score(_state, pod, node) {
    const totalNodes = context.handle.cluster.nodes.length;
    return calculatePriority(sumImageScores(node, pod, totalNodes), pod.containerCount);
  },
  // No node lists an image: every node sums 0, so every node gets the score of a sum of 0.
  uniformScore(_state, pod) {
    return context.handle.cluster.nodeSpecs.hasImages ? null : calculatePriority(0, pod.containerCount);
  },
  scoreNodes(_state, pod, nodes, scores) {
    const totalNodes = context.handle.cluster.nodes.length;
    // A node without images sums 0: its score is the same for every such node, computed once.
    const withoutImages = calculatePriority(0, pod.containerCount);
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as NodeInfo;
      scores[i] =
        node.imageStates.size === 0
          ? withoutImages
          : calculatePriority(sumImageScores(node, pod, totalNodes), pod.containerCount);
    }
  },
});

/** The clamped, scaled score for a sum of image scores. */
export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  const clamped = Math.min(Math.max(sumScores, MIN_THRESHOLD), maxThreshold);
  if (maxThreshold <= MIN_THRESHOLD) {
    return 0;
  }
  return Math.trunc((MAX_NODE_SCORE * (clamped - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

function sumImageScores(node: NodeInfo, pod: PodInfo, totalNodes: number): number {
  if (node.imageStates.size === 0) {
    return 0;
  }
  let sum = 0;
  for (const image of pod.images) {
    const state = node.imageStates.get(image);
    if (state !== undefined) {
      sum += Math.trunc(state.size * (state.numNodes / totalNodes));
    }
  }
  return sum;
}
