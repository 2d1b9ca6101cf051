/**
 * A large report for the scale tests, generated deterministically (a seeded LCG): 500 nodes and 5,000 pods of 50
 * Deployments created over four minutes, each started and made Ready; 100 pods that fit nowhere; 5 Deployments
 * rolled out in waves (their old pods replaced by new ones); 5 nodes drained (one eviction blocked by a
 * disruption budget first) and 3 nodes failing. `npx tsx test/webview/support/write-large-report.ts` writes it
 * to a file to look at.
 */
import type { TimelineEvent, TimelineEventDetails } from '../../../protocol/timeline';
import type { PanelPod, PanelReport } from '../../../protocol/webview-messages';

const NODES = 500;
const DEPLOYMENTS = 50;
const PODS_PER_DEPLOYMENT = 96;
const UNSCHEDULABLE = 100;
const ROLLED_OUT = 5;
const ROLLOUT_REPLICAS = 20;
const GI = 1024 ** 3;
const MI = 1024 ** 2;

/** Builds the large report. */
export function largeReport(seed = 42): PanelReport {
  let state = seed >>> 0;
  const random = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const events: TimelineEvent[] = [];
  const add = (
    time: number,
    type: TimelineEvent['type'],
    object: TimelineEvent['object'],
    node: string | null,
    message: string,
    details?: TimelineEventDetails,
  ): void => {
    events.push({
      time: Math.round(time * 10) / 10,
      type,
      object,
      node,
      message,
      ...(details === undefined ? {} : { details }),
    });
  };
  const nodeName = (index: number): string => `node-${String(index).padStart(3, '0')}`;
  for (let n = 0; n < NODES; n++) {
    add(
      0,
      'NodeAdded',
      { kind: 'Node', name: nodeName(n) },
      nodeName(n),
      `Node ${nodeName(n)} is in the cluster`,
      {
        allocatable: { cpuMilli: 8000, memoryBytes: 32 * GI, pods: 110 },
      },
    );
  }
  const final = new Map<string, { pod: PanelPod; node: string | null }>();
  const placed: { key: string; name: string; node: string; deployment: number }[] = [];
  let clock = 1;
  const startPod = (
    time: number,
    name: string,
    node: string,
    revision?: 'old' | 'new',
    deployment = 0,
  ): void => {
    const object = { kind: 'Pod', namespace: 'default', name };
    const cpu = 100 + Math.floor(random() * 6) * 50;
    const details: TimelineEventDetails = {
      owner: { kind: 'Deployment', name: `app-${deployment}` },
      requests: { cpuMilli: cpu, memoryBytes: (128 + Math.floor(random() * 8) * 64) * MI },
      ...(revision === undefined ? {} : { revision }),
    };
    add(time, 'PodCreated', object, null, `Created pod: ${name}`, details);
    add(time, 'PodScheduled', object, node, `Successfully assigned default/${name} to ${node}`);
    add(time + 0.2, 'PodPhaseChanged', object, node, 'Pulling image', { phase: 'ContainerCreating' });
    const running = time + 2 + random() * 8;
    add(running, 'PodPhaseChanged', object, node, 'Started container app', { phase: 'Running' });
    add(running + 5, 'PodPhaseChanged', object, node, 'Readiness probe succeeded', { phase: 'Ready' });
    final.set(name, { pod: reportPod(name, deployment, node), node });
    placed.push({ key: `default/${name}`, name, node, deployment });
  };
  for (let d = 0; d < DEPLOYMENTS; d++) {
    for (let r = 0; r < PODS_PER_DEPLOYMENT; r++) {
      clock += 0.05;
      startPod(
        clock,
        `app-${d}-${hash(d, r, 0)}`,
        nodeName(Math.floor(random() * NODES)),
        d < ROLLED_OUT ? 'old' : undefined,
        d,
      );
    }
  }
  const message = `0/${NODES} nodes are available: ${NODES} Insufficient cpu.`;
  for (let u = 0; u < UNSCHEDULABLE; u++) {
    const name = `batch-huge-${hash(u, 0, 2)}`;
    const object = { kind: 'Pod', namespace: 'default', name };
    add(clock + u * 0.01, 'PodCreated', object, null, `Created pod: ${name}`, {
      owner: { kind: 'Job', name: 'batch-huge' },
      requests: { cpuMilli: 16000, memoryBytes: 8 * GI },
    });
    add(clock + u * 0.01, 'PodUnschedulable', object, null, message);
    final.set(name, {
      pod: {
        ...reportPod(name, -1, null),
        unschedulable: {
          message,
          reasons: { 'Insufficient cpu': NODES },
          nodes: {},
          plugins: { NodeResourcesFit: NODES },
        },
      },
      node: null,
    });
  }
  let time = clock + 20;
  for (let d = 0; d < ROLLED_OUT; d++) {
    const old = placed.filter((pod) => pod.deployment === d).slice(0, ROLLOUT_REPLICAS);
    const deployment = { kind: 'Deployment', namespace: 'default', name: `app-${d}` };
    for (let wave = 0; wave < ROLLOUT_REPLICAS / 4; wave++) {
      const rollout = {
        newReplicas: (wave + 1) * 4,
        oldReplicas: ROLLOUT_REPLICAS - wave * 4,
        available: ROLLOUT_REPLICAS,
        unavailable: 0,
      };
      add(
        time,
        'RolloutStep',
        deployment,
        null,
        `Scaled up replica set app-${d}-new to ${rollout.newReplicas}`,
        { rollout },
      );
      for (let k = 0; k < 4; k++) {
        startPod(
          time,
          `app-${d}-${hash(d, wave * 4 + k, 1)}`,
          nodeName(Math.floor(random() * NODES)),
          'new',
          d,
        );
      }
      time += 12;
      for (const pod of old.slice(wave * 4, wave * 4 + 4)) {
        add(
          time,
          'PodPhaseChanged',
          { kind: 'Pod', namespace: 'default', name: pod.name },
          pod.node,
          'Stopping container app',
          { phase: 'Terminating' },
        );
        add(
          time + 30,
          'PodDeleted',
          { kind: 'Pod', namespace: 'default', name: pod.name },
          pod.node,
          'Pod deleted',
        );
        final.delete(pod.name);
      }
    }
    add(time, 'RolloutComplete', deployment, null, `deployment "app-${d}" successfully rolled out`);
  }
  time += 40;
  for (let k = 0; k < 5; k++) {
    const node = nodeName(100 + k);
    add(time, 'DrainStarted', { kind: 'Node', name: node }, node, `kubectl drain ${node}`);
    add(
      time,
      'NodeCordoned',
      { kind: 'Node', name: node },
      node,
      `Node ${node} status is now: NodeNotSchedulable`,
    );
    const victims = placed.filter((pod) => pod.node === node && final.has(pod.name));
    if (k === 0 && victims[0] !== undefined) {
      add(
        time,
        'EvictionBlocked',
        { kind: 'Pod', namespace: 'default', name: victims[0].name },
        node,
        "Cannot evict pod as it would violate the pod's disruption budget.",
        { disruptionBudget: 'default/app-pdb' },
      );
      add(time, 'DrainBlocked', { kind: 'Node', name: node }, node, 'eviction refused; will retry after 5s', {
        disruptionBudget: 'default/app-pdb',
      });
    }
    for (const victim of victims) {
      const object = { kind: 'Pod', namespace: 'default', name: victim.name };
      add(time + 5, 'EvictionAllowed', object, node, 'eviction allowed', {
        disruptionBudget: 'default/app-pdb',
      });
      add(time + 5, 'PodEvicted', object, node, `Evicted by the drain of ${node}`, { reason: 'Evicted' });
      add(time + 5, 'PodPhaseChanged', object, node, 'Terminating', { phase: 'Terminating' });
      add(time + 35, 'PodDeleted', object, node, 'Pod deleted');
      final.delete(victim.name);
    }
    add(time + 35, 'DrainCompleted', { kind: 'Node', name: node }, node, `node/${node} drained`);
    time += 1;
  }
  for (let k = 0; k < 3; k++) {
    const node = nodeName(200 + k);
    add(
      time + 40,
      'NodeNotReady',
      { kind: 'Node', name: node },
      node,
      `Node ${node} status is now: NodeNotReady`,
    );
  }
  events.sort((a, b) => a.time - b.time);
  return {
    apiVersion: 'foresight/v1',
    kubernetesVersion: '1.35',
    cluster: {
      source: 'generated cluster (500 nodes)',
      nodes: Array.from({ length: NODES }, (_, n) => ({
        name: nodeName(n),
        allocatable: { cpu: '8', memory: '32Gi', 'ephemeral-storage': '100Gi', pods: '110' },
        requested: { cpu: '0', memory: '0', 'ephemeral-storage': '0', pods: '0' },
      })),
    },
    pods: [...final.values()].map((entry) => entry.pod),
    findings: [],
    events,
  };
}

function reportPod(name: string, deployment: number, node: string | null): PanelPod {
  return {
    namespace: 'default',
    name,
    owner:
      deployment < 0
        ? { kind: 'Job', name: 'batch-huge' }
        : { kind: 'Deployment', name: `app-${deployment}` },
    qosClass: 'Burstable',
    priority: 0,
    nodeName: node,
    tiedNodes: node === null ? [] : [node],
    unschedulable: null,
    preempted: [],
  };
}

/** A pod-name suffix like the ReplicaSet controller's (5 characters); distinct inputs give distinct suffixes. */
function hash(a: number, b: number, salt: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const space = alphabet.length ** 5;
  // Multiplying by a number coprime to 27^5 permutes the suffixes: no two pods share a name.
  let value = (((a * 1000 + b) * 4 + salt) * 2654435761) % space;
  let text = '';
  for (let k = 0; k < 5; k++) {
    text += alphabet[value % alphabet.length] ?? 'x';
    value = Math.floor(value / alphabet.length);
  }
  return text;
}
