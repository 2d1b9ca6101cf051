/**
 * Runs a scenario's steps at their times: a drain is a `kubectl drain` client (drain/drain.ts), a node failure
 * stops the node's kubelet (controllers/nodelifecycle/node-lifecycle.ts), a scale is `kubectl scale`, an added node
 * registers a copy of an existing node (its allocatable, labels and taints; no images yet), a load sets the cpu
 * use its HPA reads (controllers/podautoscaler/hpa-controller.ts), a memory pressure sets pods' memory use on a
 * node (kubelet/eviction-manager.ts).
 */
import { NodeInfo } from '../model/snapshot/node-info';
import type { NodeObject } from '../model/objects';
import type { BudgetIndex } from '../apiserver/budget-index';
import type { ClusterState } from '../apiserver/cluster-state';
import { DrainProcess } from '../drain/drain';
import type { EvictionManager } from '../kubelet/eviction-manager';
import type { HpaController } from '../controllers/podautoscaler/hpa-controller';
import type { NodeLifecycle } from '../controllers/nodelifecycle/node-lifecycle';
import type { ScaleSubresource } from '../apiserver/scale-subresource';
import type { TimingSettings } from '../sim/timing-settings';
import { PRIORITY } from '../sim/priorities';
import type { ScenarioStep } from './scenario-spec';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';
import { recordScenarioStep } from './step-event';
import { recordRegisteredNode } from '../controllers/controller-events';

/** The controllers a step pokes (through the API objects they watch). */
interface StepTargets {
  readonly state: ClusterState;
  readonly index: BudgetIndex;
  readonly settings: TimingSettings;
  readonly lifecycle: NodeLifecycle;
  /** spec.replicas of the workloads, as kubectl scale writes it. */
  readonly scale: ScaleSubresource;
  readonly autoscalers: HpaController;
  readonly evictions: EvictionManager;
  readonly findings: Finding[];
}

/** A drain of the scenario, with the step that asked for it. */
export interface ScenarioDrain {
  readonly process: DrainProcess;
  readonly step: ScenarioStep;
}

/** Schedules every step; returns the drains, filled in as the simulation runs. */
export function scheduleSteps(steps: readonly ScenarioStep[], targets: StepTargets): ScenarioDrain[] {
  const drains: ScenarioDrain[] = [];
  const ordered = [...steps].sort((a, b) => a.at - b.at);
  for (const step of ordered) {
    targets.state.sim.at(step.at, PRIORITY.scenario, () => runStep(step, targets, drains));
  }
  return drains;
}

function runStep(step: ScenarioStep, targets: StepTargets, drains: ScenarioDrain[]): void {
  const { state, findings } = targets;
  const action = step.action;
  recordScenarioStep(state, step);
  const problem = (message: string): void => {
    findings.push(
      engineFinding('scenario-invalid', step.source, step.path, `Scenario step at t=${step.at}s: ${message}`),
    );
  };
  switch (action.type) {
    case 'drain': {
      const node = state.nodes.get(action.node);
      if (node === undefined) {
        problem(`drain: the cluster has no node "${action.node}"`);
        return;
      }
      const drain = new DrainProcess(state, targets.index, targets.settings, node, action.options);
      drains.push({ process: drain, step });
      drain.start();
      return;
    }
    case 'failNode': {
      const node = state.nodes.get(action.node);
      if (node === undefined) {
        problem(`failNode: the cluster has no node "${action.node}"`);
        return;
      }
      targets.lifecycle.failNode(node);
      return;
    }
    case 'scale':
      scale(step, targets, problem);
      return;
    case 'addNode':
      addNode(action.name, action.like, targets, problem);
      return;
    case 'load': {
      const wrong = targets.autoscalers.setLoad(action.kind, action.namespace, action.name, action.load);
      if (wrong !== null) {
        problem(`load: ${wrong}`);
      }
      return;
    }
    case 'memoryPressure': {
      const wrong = targets.evictions.setUsage(action.node, action.usage);
      if (wrong !== null) {
        problem(`memoryPressure: ${wrong}`);
      }
      return;
    }
  }
}

function scale(step: ScenarioStep, targets: StepTargets, problem: (message: string) => void): void {
  const { state } = targets;
  if (step.action.type !== 'scale') {
    return;
  }
  const { kind, namespace, name, replicas } = step.action;
  const key = `${namespace}/${name}`;
  const record = (from: number): void =>
    state.recordWorkload(
      'ScaleChanged',
      kind,
      namespace,
      name,
      `${kind.toLowerCase()}.apps/${name} scaled from ${from} to ${replicas}`,
    );
  // kubectl scale writes spec.replicas; each controller sees its own object change.
  const before = targets.scale.replicas(kind, key);
  if (before === undefined) {
    problem(`scale: no ${kind} "${key}" in the cluster or the manifests`);
    return;
  }
  record(before);
  targets.scale.write(kind, key, replicas);
  targets.autoscalers.scaleChanged(kind, namespace, name);
}

function addNode(
  name: string,
  like: string | null,
  targets: StepTargets,
  problem: (message: string) => void,
): void {
  const { state } = targets;
  if (state.nodes.has(name)) {
    problem(`addNode: the cluster already has a node "${name}"`);
    return;
  }
  const nodes = state.nodeList();
  const model = like === null ? nodes[nodes.length - 1] : state.nodes.get(like);
  if (model === undefined) {
    problem(
      like === null ? 'addNode: no node to copy' : `addNode: the cluster has no node "${like}" to copy`,
    );
    return;
  }
  const original = model.info.node;
  const labels = { ...original.metadata?.labels };
  if ('kubernetes.io/hostname' in labels) {
    labels['kubernetes.io/hostname'] = name;
  }
  const taints = (original.spec?.taints ?? []).filter(
    (taint) => !taint.key.startsWith('node.kubernetes.io/'),
  );
  const object: NodeObject = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: { taints },
    status: { allocatable: original.status?.allocatable ?? {} },
  };
  state.addNode(
    new NodeInfo(object, model.info.source, model.info.allocatable),
    `Registered Node ${name} in Controller`,
  );
  recordRegisteredNode(state, name);
}
