/**
 * Priorities of the tasks that share one instant, lowest first. Within a second of simulated time the world
 * changes first (scenario steps, then kubelets and node agents), controllers then react to what changed (each
 * writes the API objects the next reads), and the scheduler places the pods created last. Ties keep insertion
 * order.
 */
export const PRIORITY = {
  /** A what-if step of the scenario (drain, node failure, scale, add node). */
  scenario: 0,
  /** A kubelet: pulls done, containers started, probes succeeded, containers stopped. */
  kubelet: 10,
  /** The node lifecycle controller and the taint-based eviction manager. */
  nodeLifecycle: 20,
  /** Workload controllers (deployment, replicaset, statefulset, daemonset). */
  controller: 30,
  /** The disruption controller updating PodDisruptionBudget status. */
  disruption: 40,
  /** Clients calling the eviction API (kubectl drain retries). */
  client: 50,
  /** kube-scheduler's scheduling cycles. */
  scheduler: 60,
  /** The cluster autoscaler's scan: it sees the pods the scheduler has just found unschedulable. */
  autoscaler: 70,
} as const;
