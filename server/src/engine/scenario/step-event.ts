/**
 * The ScenarioStep timeline event (protocol/timeline.ts): recorded when a step of the scenario runs, before what
 * it causes, naming the step and where it was written. A cluster file's Scenario runs in every folder simulated on
 * that cluster, so the timeline says so rather than showing a drain nobody asked for in this folder.
 */
import type { TimelineObjectRef } from '../../../../protocol/timeline';
import type { ClusterState } from '../apiserver/cluster-state';
import type { ScenarioAction, ScenarioStep, ScenarioStepOrigin } from './scenario-spec';

/** Records the step's event at the current time (the step's `at`). */
export function recordScenarioStep(state: ClusterState, step: ScenarioStep): void {
  const { object, text } = describeAction(step.action);
  // A node that is not (yet) in the cluster gets no lane from this event: addNode's NodeAdded brings it in.
  const node = object.kind === 'Node' && state.nodes.has(object.name) ? object.name : null;
  state.timeline.record({
    time: state.sim.now,
    type: 'ScenarioStep',
    object,
    node,
    message: `Scenario step: ${text} (${describeOrigin(step.origin)})`,
    details: { scenarioStep: { action: step.action.type, ...step.origin } },
  });
}

/** Where a step was written, in words: "Scenario maintenance of the cluster file cluster.yaml", "flag --drain w1". */
function describeOrigin(origin: ScenarioStepOrigin): string {
  if (origin.from === 'flag') {
    return `flag ${origin.source}`;
  }
  const file = origin.source.slice(origin.source.lastIndexOf('/') + 1);
  const scenario = origin.scenario === undefined ? 'Scenario' : `Scenario ${origin.scenario}`;
  return `${scenario} of the cluster file ${file}`;
}

/** The object a step acts on and what it does, in words. */
function describeAction(action: ScenarioAction): { object: TimelineObjectRef; text: string } {
  switch (action.type) {
    case 'drain':
      return { object: nodeRef(action.node), text: `drain ${action.node}` };
    case 'failNode':
      return { object: nodeRef(action.node), text: `stop the kubelet of ${action.node}` };
    case 'addNode':
      return {
        object: nodeRef(action.name),
        text: `add node ${action.name}${action.like === null ? '' : ` like ${action.like}`}`,
      };
    case 'memoryPressure': {
      const subjects = action.usage.length;
      return {
        object: nodeRef(action.node),
        text: `memory use on ${action.node} (${subjects} pod${subjects === 1 ? '' : 's'} or workload${subjects === 1 ? '' : 's'} named)`,
      };
    }
    case 'scale':
      return {
        object: { kind: action.kind, namespace: action.namespace, name: action.name },
        text: `scale ${action.kind} ${action.namespace}/${action.name} to ${action.replicas}`,
      };
    case 'load': {
      const load =
        'cpuUtilization' in action.load
          ? `${action.load.cpuUtilization}% of its Ready pods' cpu requests`
          : `${action.load.cpuMilli}m cpu`;
      return {
        object: { kind: action.kind, namespace: action.namespace, name: action.name },
        text: `cpu load on ${action.kind} ${action.namespace}/${action.name}: ${load}`,
      };
    }
  }
}

function nodeRef(name: string): TimelineObjectRef {
  return { kind: 'Node', name };
}
