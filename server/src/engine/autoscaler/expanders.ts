/**
 * The expanders: which node group grows when several could take the pods (--expander). Each filters the options
 * and hands the best to random, as upstream chains them.
 * https://github.com/kubernetes/autoscaler/tree/master/cluster-autoscaler/expander
 *   random       any option (the engine's seeded random, so the same input picks the same group)
 *   most-pods    the options that schedule the most pods
 *   least-waste  the options leaving the least idle cpu + memory share of the new nodes' capacity (waste.go)
 *   priority     the options whose group matches the highest priority's regular expressions (priority.go); none
 *                matching any priority: all options
 * Left out: price and grpc expanders, chains of several expanders (--expander=priority,least-waste).
 */
import type { PodInfo } from '../model/snapshot/pod-info';
import type { Resources } from '../model/resources';
import { readResourceList } from '../model/resources';
import type { ResourceListObject } from '../model/objects';
import type { SeededRandom } from '../sim/seeded-random';
import type { AutoscalerSettings } from './autoscaler-settings';
import { maxOf, minOf } from '../../../../protocol/collections';

/** A way to grow: a group, how many nodes, which pods they take (expander.Option). */
export interface ExpansionOption {
  readonly group: string;
  readonly nodeCount: number;
  readonly pods: readonly PodInfo[];
  /** The template node's allocatable. */
  readonly allocatable: Resources;
  /**
   * The template node's cpu and memory capacity, which least-waste reads (waste.go resourcesForNode reads
   * status.capacity); a template without status.capacity has its allocatable here.
   */
  readonly capacity?: { readonly milliCpu: number; readonly memory: number };
}

/** The cpu and memory of a template node's status.capacity, each falling back to its allocatable. */
export function templateCapacity(
  capacity: ResourceListObject | undefined,
  allocatable: Resources,
): { milliCpu: number; memory: number } {
  const amounts = readResourceList(capacity, []);
  return {
    milliCpu: amounts.get('cpu') ?? allocatable.milliCpu,
    memory: amounts.get('memory') ?? allocatable.memory,
  };
}

/** random: one of the options, drawn from the seeded random. */
export function randomOption<T>(options: readonly T[], random: SeededRandom): T | null {
  if (options.length === 0) {
    return null;
  }
  return options[random.nextInt(options.length)] ?? null;
}

/** most-pods: the options that place the most pods. */
export function mostPods(options: readonly ExpansionOption[]): ExpansionOption[] {
  const most = maxOf(
    options.map((option) => option.pods.length),
    0,
  );
  return options.filter((option) => option.pods.length === most);
}

/** The waste score of an option: idle cpu share plus idle memory share of its new nodes (waste.go). */
export function wasteScore(option: ExpansionOption): number {
  const node = option.capacity ?? option.allocatable;
  const cpu = node.milliCpu * option.nodeCount;
  const memory = node.memory * option.nodeCount;
  const requestedCpu = option.pods.reduce((sum, pod) => sum + pod.requests.milliCpu, 0);
  const requestedMemory = option.pods.reduce((sum, pod) => sum + pod.requests.memory, 0);
  const wastedCpu = cpu > 0 ? (cpu - requestedCpu) / cpu : 0;
  const wastedMemory = memory > 0 ? (memory - requestedMemory) / memory : 0;
  return wastedCpu + wastedMemory;
}

/** least-waste: the options with the lowest waste score. */
export function leastWaste(options: readonly ExpansionOption[]): ExpansionOption[] {
  const scores = options.map(wasteScore);
  const least = minOf(scores);
  return options.filter((_option, index) => scores[index] === least);
}

/** priority: the options whose group matches the highest priority; all of them when none matches any. */
export function byPriority(
  options: readonly ExpansionOption[],
  priorities: ReadonlyMap<number, readonly string[]>,
): ExpansionOption[] {
  let best: ExpansionOption[] = [];
  let max = -Infinity;
  for (const option of options) {
    for (const [priority, patterns] of priorities) {
      if (!patterns.some((pattern) => new RegExp(pattern).test(option.group))) {
        continue;
      }
      if (priority > max) {
        max = priority;
        best = [];
      }
      if (priority === max && !best.includes(option)) {
        best.push(option);
      }
    }
  }
  return best.length === 0 ? [...options] : best;
}

/** The expander of the settings: its filter, then random among what is left. */
export function bestOption(
  options: readonly ExpansionOption[],
  settings: Pick<AutoscalerSettings, 'expander' | 'priorities'>,
  random: SeededRandom,
): ExpansionOption | null {
  switch (settings.expander) {
    case 'random':
      return randomOption(options, random);
    case 'most-pods':
      return randomOption(mostPods(options), random);
    case 'least-waste':
      return randomOption(leastWaste(options), random);
    case 'priority':
      return settings.priorities === null
        ? null
        : randomOption(byPriority(options, settings.priorities), random);
  }
}
