/**
 * Node failure and what follows, as the node lifecycle controller and the taint-based eviction manager do it:
 * when a node's kubelet stops, its Ready condition turns Unknown after node-monitor-grace-period; the node gets the
 * node.kubernetes.io/unreachable taints (NoSchedule and NoExecute) and its pods are marked not Ready
 * (MarkPodsNotReady). The taint manager then deletes each pod that does not tolerate the NoExecute taint, at once
 * or after its tolerationSeconds; the DefaultTolerationSeconds admission plugin gives every pod 300s for
 * not-ready and unreachable unless it tolerates them already. With the kubelet gone, deleted pods stay Terminating.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/nodelifecycle/node_lifecycle_controller.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/tainteviction/taint_eviction.go
 * https://github.com/kubernetes/kubernetes/blob/master/plugin/pkg/admission/defaulttolerationseconds/admission.go
 */
import { admittedTolerations, TAINT_UNREACHABLE } from '../../admission/plugins/default-toleration-seconds';
import { listOf } from '../../model/objects';
import type { TaintObject, TolerationObject } from '../../model/objects';
import { parseRfc3339 } from '../../model/rfc3339-time';
import { toleratesTaint } from '../../model/taints';
import { PRIORITY } from '../../sim/priorities';
import type { ClusterState, SimNode } from '../../apiserver/cluster-state';
import type { SimPod } from '../../apiserver/sim-pod';
import type { TimingSettings } from '../../sim/timing-settings';
import { EVENT_COMPONENT } from '../../model/kubernetes-events';
import { recordPodNodeNotReady } from '../controller-events';
import { appendAll } from '../../../../../protocol/collections';

/** The DisruptionTarget condition message the taint manager sets on the pods it deletes. */
const TAINT_EVICTION_MESSAGE = 'Taint manager: deleting due to NoExecute taint';

/**
 * How long a pod may stay on a node with these NoExecute taints (getMinTolerationTime): null when some taint is not
 * tolerated (evict now), Infinity when the tolerations that match set no tolerationSeconds, else the smallest.
 */
export function tolerationSecondsFor(
  tolerations: readonly TolerationObject[],
  taints: readonly TaintObject[],
): number | null {
  const used: TolerationObject[] = [];
  for (const taint of taints.filter((candidate) => candidate.effect === 'NoExecute')) {
    const matching = tolerations.filter((toleration) => toleratesTaint(toleration, taint));
    if (matching.length === 0) {
      return null;
    }
    appendAll(used, matching);
  }
  let minimum = Number.POSITIVE_INFINITY;
  for (const toleration of used) {
    if (typeof toleration.tolerationSeconds === 'number') {
      minimum = Math.min(minimum, Math.max(0, toleration.tolerationSeconds));
    }
  }
  return minimum;
}

/** The node lifecycle controller and the taint manager. */
export class NodeLifecycle {
  constructor(
    private readonly state: ClusterState,
    private readonly settings: TimingSettings,
  ) {
    // The taint manager watches pods too: a pod bound to a node with NoExecute taints (a not-ready node it
    // tolerates for 300 s, a dedicated node it tolerates for a while) is handled like the node's own pods.
    state.onPod((pod, change) => {
      if (change === 'scheduled' && pod.nodeName !== null) {
        const node = state.nodes.get(pod.nodeName);
        if (node !== undefined && node.isKubeletAlive) {
          this.scheduleTaintEviction(pod, listOf(node.object.spec?.taints));
        }
      }
    });
  }

  /**
   * The taint manager's first pass over the cluster as captured: each pod on a node whose NoExecute taints it
   * does not tolerate is deleted now; one that tolerates them for a while, after the shortest tolerationSeconds.
   * The manager's clock for a pod starts when it saw both the taint and the pod (processPodOnNode's startTime):
   * with `capturedAt`, the epoch second of time 0 from a capture's header, that is the later of the newest
   * NoExecute taint's timeAdded and the pod's start, so the time already spent counts; without it (or without a
   * timeAdded) the clock starts at time 0, as nothing says when the controller first saw them.
   */
  evictForCapturedTaints(capturedAt: number | null = null): void {
    for (const node of this.state.nodeList()) {
      const taints = listOf(node.object.spec?.taints);
      if (!taints.some((taint) => taint.effect === 'NoExecute')) {
        continue;
      }
      const tainted = capturedAt === null ? null : newestTimeAdded(taints);
      for (const pod of this.state.podsOn(node.name)) {
        const seen =
          capturedAt === null || tainted === null
            ? 0
            : capturedAt - Math.max(tainted, pod.info.startTime ?? tainted);
        this.scheduleTaintEviction(pod, taints, Math.max(0, seen));
      }
    }
  }

  /** The node's kubelet stops now; the controller notices after the grace period. */
  failNode(node: SimNode): void {
    const { state } = this;
    state.failNode(node);
    state.sim.after(this.settings.nodeMonitorGracePeriodSeconds, PRIORITY.nodeLifecycle, () =>
      this.markUnreachable(node),
    );
  }

  private markUnreachable(node: SimNode): void {
    const { state } = this;
    state.recordNode('NodeNotReady', node.name, `Node ${node.name} status is now: NodeNotReady`, undefined, {
      reason: 'NodeNotReady',
      component: EVENT_COMPONENT.nodeController,
    });
    const added: TaintObject[] = [
      { key: TAINT_UNREACHABLE, effect: 'NoSchedule' },
      { key: TAINT_UNREACHABLE, effect: 'NoExecute' },
    ];
    const taints = [...listOf(node.object.spec?.taints), ...added];
    const object = { ...node.object, spec: { ...node.object.spec, taints } };
    const names = added.map((taint) => `${taint.key}:${taint.effect}`).join(', ');
    state.updateNode(node, object, 'NodeTainted', `Added taints ${names}`);
    for (const pod of state.podsOn(node.name)) {
      if (pod.deletionTime === null && pod.isReady) {
        state.markNotReady(pod, `Node ${node.name} is not ready: pod marked not Ready`);
        recordPodNodeNotReady(state, pod);
      }
      this.scheduleTaintEviction(pod, taints);
    }
  }

  /** Schedules the pod's deletion after its toleration time, less `elapsed` seconds already spent tolerating. */
  private scheduleTaintEviction(pod: SimPod, taints: readonly TaintObject[], elapsed = 0): void {
    const { state } = this;
    if (pod.deletionTime !== null) {
      return;
    }
    if (!taints.some((taint) => taint.effect === 'NoExecute')) {
      return;
    }
    const seconds = tolerationSecondsFor(admittedTolerations(listOf(pod.object.spec?.tolerations)), taints);
    if (seconds === Number.POSITIVE_INFINITY) {
      return;
    }
    const evict = (): void => {
      if (pod.deletionTime === null && !pod.isGone) {
        state.deletePod(pod, `Marking for deletion Pod ${pod.key}`, {
          reason: TAINT_EVICTION_MESSAGE,
          kube: { reason: 'TaintManagerEviction', component: EVENT_COMPONENT.taintEviction },
        });
      }
    };
    if (seconds === null || seconds - elapsed <= 0) {
      evict();
    } else {
      state.sim.after(seconds - elapsed, PRIORITY.nodeLifecycle, evict);
    }
  }
}

/** The newest timeAdded of a node's NoExecute taints in epoch seconds, or null when none says. */
function newestTimeAdded(taints: readonly TaintObject[]): number | null {
  let newest: number | null = null;
  for (const taint of taints) {
    const added = (taint as { timeAdded?: unknown }).timeAdded;
    const seconds = taint.effect === 'NoExecute' && typeof added === 'string' ? parseRfc3339(added) : null;
    if (seconds !== null) {
      newest = Math.max(newest ?? seconds, seconds);
    }
  }
  return newest;
}
