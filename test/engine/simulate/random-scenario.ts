/**
 * Seeded random inputs for the equivalence cache's differential test (equivalence-differential.test.ts) and its
 * longer sweep (bench/equivalence-sweep.ts): a small cluster (nodes with zones, sometimes a taint or a cordon,
 * sometimes a NodeGroup the autoscaler may grow, sometimes a Scenario that adds a node, scales a Deployment or
 * fails a node) and manifests (Deployments with random replicas, requests, tolerations, node selectors, pod
 * anti-affinity, topology spread and priorities; sometimes two Deployments of one template, sometimes a bare Pod).
 * Sizes are chosen so that many replicas stay Pending: the case the cache serves.
 */
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { SeededRandom } from '../../../server/src/engine/sim/seeded-random';

/** One generated input. */
export interface RandomScenario {
  readonly cluster: SourcedObject[];
  readonly manifests: SourcedObject[];
}

const ZONES = ['zone-a', 'zone-b', 'zone-c'];
const CPUS = ['100m', '250m', '500m', '1'];
const MEMORIES = ['64Mi', '256Mi', '1Gi'];
const TAINT = { key: 'dedicated', value: 'batch', effect: 'NoSchedule' };

/** The input of one seed. */
export function randomScenario(seed: number): RandomScenario {
  const random = new SeededRandom(seed);
  const chance = (p: number): boolean => random.next() < p;
  const pick = <T>(items: readonly T[]): T => items[random.nextInt(items.length)] as T;
  const cluster: SourcedObject[] = [];
  const manifests: SourcedObject[] = [];
  const addTo = (list: SourcedObject[], file: string, object: Record<string, unknown>): void => {
    list.push({ object, source: { file, documentIndex: list.length, path: [] } });
  };

  const nodeCount = 2 + random.nextInt(5);
  for (let i = 0; i < nodeCount; i++) {
    const name = `worker-${i}`;
    addTo(cluster, 'cluster.yaml', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': pick(ZONES) },
      },
      spec: {
        ...(chance(0.25) ? { taints: [TAINT] } : {}),
        ...(chance(0.15) ? { unschedulable: true } : {}),
      },
      status: { allocatable: { cpu: pick(['1', '2', '4']), memory: pick(['4Gi', '8Gi']), pods: '110' } },
    });
  }
  if (chance(0.4)) {
    addTo(cluster, 'cluster.yaml', {
      apiVersion: 'foresight/v1',
      kind: 'NodeGroup',
      metadata: { name: 'pool' },
      spec: {
        minSize: 0,
        maxSize: 1 + random.nextInt(3),
        template: {
          metadata: { labels: { 'topology.kubernetes.io/zone': pick(ZONES) } },
          status: { allocatable: { cpu: '4', memory: '16Gi', pods: '110' } },
        },
      },
    });
  }
  const deploymentCount = 1 + random.nextInt(5);
  if (chance(0.5)) {
    const steps: Record<string, unknown>[] = [];
    if (chance(0.5)) {
      steps.push({ at: 30, addNode: { name: 'worker-added', like: 'worker-0' } });
    }
    if (chance(0.5)) {
      steps.push({ at: 60, scale: { kind: 'Deployment', name: 'app-0', replicas: random.nextInt(15) } });
    }
    if (chance(0.3)) {
      steps.push({ at: 90, failNode: { node: 'worker-0' } });
    }
    addTo(cluster, 'cluster.yaml', {
      apiVersion: 'foresight/v1',
      kind: 'Scenario',
      metadata: { name: 'what-if' },
      spec: { steps },
    });
  }

  const hasPriorityClass = chance(0.5);
  if (hasPriorityClass) {
    addTo(manifests, 'manifests.yaml', {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'high' },
      value: 1000,
    });
  }
  let previous: Record<string, unknown> | null = null;
  for (let i = 0; i < deploymentCount; i++) {
    const name = `app-${i}`;
    const podSpec: Record<string, unknown> =
      previous !== null && chance(0.3) ? previous : randomPodSpec(name, chance, pick, hasPriorityClass);
    previous = podSpec;
    addTo(manifests, 'manifests.yaml', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        replicas: 1 + random.nextInt(12),
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name, tier: 'web' } }, spec: podSpec },
      },
    });
  }
  if (chance(0.2)) {
    addTo(manifests, 'manifests.yaml', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bare', labels: { app: 'bare' } },
      spec: randomPodSpec('bare', chance, pick, hasPriorityClass),
    });
  }
  return { cluster, manifests };
}

/** A pod spec with random requests and scheduling constraints; `app` is the label its selectors use. */
function randomPodSpec(
  app: string,
  chance: (p: number) => boolean,
  pick: <T>(items: readonly T[]) => T,
  hasPriorityClass: boolean,
): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    containers: [
      {
        name: 'app',
        image: `registry.example.com/${app}:1`,
        resources: { requests: { cpu: pick(CPUS), memory: pick(MEMORIES) } },
      },
    ],
  };
  if (chance(0.3)) {
    spec['tolerations'] = [{ key: TAINT.key, operator: 'Equal', value: TAINT.value, effect: TAINT.effect }];
  }
  if (chance(0.2)) {
    spec['nodeSelector'] = { 'topology.kubernetes.io/zone': pick(ZONES) };
  }
  const selector = { matchLabels: { app } };
  if (chance(0.2)) {
    spec['affinity'] = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: selector, topologyKey: 'kubernetes.io/hostname' },
        ],
      },
    };
  }
  if (chance(0.25)) {
    spec['topologySpreadConstraints'] = [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: selector,
      },
    ];
  }
  if (hasPriorityClass && chance(0.3)) {
    spec['priorityClassName'] = 'high';
  }
  return spec;
}
