/**
 * Findings drawn from the end of a timeline: rollouts that missed their deadline or never finished (with why:
 * the pods that stayed Pending and kube-scheduler's message), disruption budgets that protect nothing, overlap, or
 * never allow a disruption, and drains that fail or never finish (naming the budget and the pod).
 */
import type { OperatorObject } from '../state/operator-objects';
import { budgetNeverAllows } from '../../drain/drain-analysis';
import type { BudgetIndex } from '../../apiserver/budget-index';
import type { ClusterState } from '../../apiserver/cluster-state';
import { EVICTION_MULTIPLE_BUDGETS } from '../../apiserver/eviction';
import { formatIntOrPercent } from '../../model/int-or-percent';
import type { RolloutLog, RolloutRecord } from '../../controllers/rollout-log';
import type { ObjectSource } from '../../model/source';
import type { ScenarioDrain } from '../run-steps';
import type { SimPod } from '../../apiserver/sim-pod';
import type { ClaimInfo, StorageObjects } from '../../model/snapshot/storage-objects';
import { podClaimNames, volumeMismatch } from '../../scheduler/plugins/volume-binding/binder';
import { asArray, asObject } from '../../model/json';
import type { Finding } from '../../../../../protocol/finding';
import { engineFinding } from '../../model/findings';

/**
 * Rollouts past their deadline, or unfinished at the end. A new workload whose pods stay Pending is already
 * reported by its pods; its missed deadline is only a line of the rollouts section. An update is an error: the
 * running pods keep serving, so the pods table alone would not show it.
 */
export function checkRollouts(
  state: ClusterState,
  rollouts: RolloutLog,
  stoppedAtLimit: boolean,
  findings: Finding[],
): void {
  // The pods of each workload, in the cluster's order, found once: a scan of every pod per rollout costs
  // rollouts × pods (a second of CPU at a thousand workloads). Found only when a rollout did not complete: a
  // capture's 150,000 pods are not grouped for a prediction whose rollouts all did.
  let podsOfWorkload: Map<string, SimPod[]> | null = null;
  const unfinished = [...rollouts.records.values()].filter((record) => record.outcome !== 'Complete');
  for (const record of rollouts.records.values()) {
    const source = workloadSource(state, record);
    if (source === undefined || record.outcome === 'Complete') {
      continue;
    }
    podsOfWorkload ??= groupPodsByWorkload(state, new Set(unfinished.map((entry) => entry.name)));
    const pods = podsOfWorkload.get(workloadKey(record.kind, record.namespace, record.name)) ?? [];
    const surge = surgeHint(pods, record);
    const why = stuckPods(pods) + surge;
    const label = `${record.kind} "${record.name}"`;
    if (record.outcome === 'ProgressDeadlineExceeded') {
      if (!record.isUpdate) {
        continue;
      }
      const message = `${label}: ${record.message} (ProgressDeadlineExceeded at t=${record.endedAt ?? 0}s)${why}`;
      const data = surge === '' ? undefined : { surgeBlocked: 'true' };
      findings.push(
        engineFinding('rollout-stalls', source, ['spec', 'progressDeadlineSeconds'], message, data),
      );
      continue;
    }
    const last = record.steps[record.steps.length - 1];
    const progress =
      last === undefined
        ? ''
        : ` (${last.newReplicas} updated, ${last.oldReplicas} old, ${last.available} available)`;
    const message = stoppedAtLimit
      ? `${label}: the rollout had not finished when the simulation stopped${progress}${why}`
      : `${label}: the rollout is stuck and never finishes${progress}${why}`;
    findings.push(engineFinding('rollout-unfinished', source, [], message));
  }
}

/**
 * The pods of each workload (by workloadKey) whose name is one of `names`, in the cluster's order: the others are
 * never asked for, and a capture's 150,000 pods then cost a name lookup each, not a key string each.
 */
function groupPodsByWorkload(state: ClusterState, names: ReadonlySet<string>): Map<string, SimPod[]> {
  const podsOfWorkload = new Map<string, SimPod[]>();
  for (const pod of state.pods.values()) {
    if (pod.workload === null || !names.has(pod.workload.name)) {
      continue;
    }
    const key = workloadKey(pod.workload.kind, pod.namespace, pod.workload.name);
    const pods = podsOfWorkload.get(key);
    if (pods === undefined) {
      podsOfWorkload.set(key, [pod]);
    } else {
      pods.push(pod);
    }
  }
  return podsOfWorkload;
}

function workloadSource(state: ClusterState, record: RolloutRecord): ObjectSource | undefined {
  const key = `${record.namespace}/${record.name}`;
  switch (record.kind) {
    case 'Deployment':
      return state.deployments.get(key)?.source;
    case 'StatefulSet':
      return state.statefulSets.get(key)?.source;
    case 'DaemonSet':
      return state.daemonSets.get(key)?.source;
  }
}

function workloadKey(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** ": pod x stays Pending: 0/3 nodes are available: ..." for the first pod of the workload that is stuck. */
function stuckPods(podsOfWorkload: readonly SimPod[]): string {
  const stuck = podsOfWorkload.filter((pod) => pod.deletionTime === null && !pod.isReady);
  const pending = stuck.find((pod) => pod.nodeName === null && pod.lastUnschedulableMessage !== null);
  if (pending !== undefined) {
    const more = stuck.length > 1 ? ` (${stuck.length} pods not ready)` : '';
    return `: pod ${pending.key} stays Pending: ${pending.lastUnschedulableMessage ?? ''}${more}`;
  }
  const first = stuck[0];
  return first === undefined ? '' : `: pod ${first.key} never becomes Ready (${first.phase})`;
}

/** The classic deadlock: with maxUnavailable 0 a rollout needs room for its surge pods and never makes any. */
function surgeHint(podsOfWorkload: readonly SimPod[], record: RolloutRecord): string {
  if (record.kind !== 'Deployment' || record.maxUnavailable !== 0) {
    return '';
  }
  const pending = podsOfWorkload.some((pod) => pod.nodeName === null && pod.deletionTime === null);
  return pending
    ? `; with maxUnavailable 0 no old pod is removed before a new one is available, and the ${record.maxSurge} surge pod${record.maxSurge === 1 ? '' : 's'} cannot be placed, so the rollout never progresses`
    : '';
}

/** Budgets that select nothing, overlap, fail to sync, or never allow a disruption. */
export function checkBudgets(
  state: ClusterState,
  index: BudgetIndex,
  operators: readonly OperatorObject[],
  findings: Finding[],
): void {
  for (const budget of state.disruptionBudgets.values()) {
    const label = `PodDisruptionBudget "${budget.name}"`;
    const { status } = budget;
    const operatorMade = operators.filter((object) => object.namespace === budget.namespace);
    if (index.podsOf(budget).length === 0 && operatorMade.length > 0) {
      const names = operatorMade.map((object) => `${object.kind}/${object.name}`).join(', ');
      const message = `${label} selects no pod the simulation creates; it may select the pods an operator makes from ${names}, which are not simulated`;
      findings.push(engineFinding('pdb-selects-operator-pods', budget.source, ['spec', 'selector'], message));
    } else if (index.podsOf(budget).length === 0) {
      const message = `${label} selects no pod in namespace "${budget.namespace}": it protects nothing`;
      findings.push(engineFinding('pdb-selects-nothing', budget.source, ['spec', 'selector'], message));
    } else if (status.syncError !== null) {
      const message = `${label}: the disruption controller cannot compute it (${status.syncError}), so it allows no disruption`;
      findings.push(engineFinding('pdb-sync-failed', budget.source, ['spec'], message));
    } else if (budgetNeverAllows(status)) {
      const rule =
        budget.maxUnavailable !== undefined
          ? `maxUnavailable ${formatIntOrPercent(budget.maxUnavailable)}`
          : budget.minAvailable !== undefined
            ? `minAvailable ${formatIntOrPercent(budget.minAvailable)}`
            : 'neither minAvailable nor maxUnavailable';
      const message = `${label} never allows a voluntary disruption: with ${rule} it needs ${status.desiredHealthy} healthy pods of ${status.expectedPods} expected, so every eviction of its pods (and every kubectl drain of their nodes) is refused`;
      const path =
        budget.maxUnavailable !== undefined ? ['spec', 'maxUnavailable'] : ['spec', 'minAvailable'];
      findings.push(engineFinding('pdb-blocks-disruptions', budget.source, path, message));
    }
  }
  const overlaps = new Map<string, { names: string[]; source: ObjectSource; pods: string[] }>();
  for (const pod of state.pods.values()) {
    const budgets = index.budgetsOf(pod);
    const first = budgets[0];
    if (budgets.length > 1 && first !== undefined) {
      const key = budgets.map((budget) => budget.key).join(' ');
      const entry = overlaps.get(key) ?? {
        names: budgets.map((budget) => `"${budget.name}"`),
        source: first.source,
        pods: [],
      };
      entry.pods.push(pod.key);
      overlaps.set(key, entry);
    }
  }
  for (const { names, source, pods } of overlaps.values()) {
    const more = pods.length > 1 ? ` (and ${pods.length - 1} more)` : '';
    const message = `Pod ${pods[0] ?? ''}${more} is selected by PodDisruptionBudgets ${names.join(' and ')}: the eviction API refuses to evict it ("${EVICTION_MULTIPLE_BUDGETS.message}")`;
    findings.push(engineFinding('pdb-overlap', source, ['spec', 'selector'], message));
  }
}

/**
 * StatefulSet pods deleted on a node whose kubelet is down stay Terminating; the StatefulSet never recreates their
 * ordinal (at-most-one semantics) until someone force-deletes them.
 */
export function checkStuckStatefulPods(state: ClusterState, findings: Finding[]): void {
  for (const pod of state.pods.values()) {
    const node = pod.nodeName === null ? undefined : state.nodes.get(pod.nodeName);
    if (
      pod.deletionTime === null ||
      pod.controllerRef?.kind !== 'StatefulSet' ||
      node === undefined ||
      node.isKubeletAlive
    ) {
      continue;
    }
    const set = state.statefulSets.get(`${pod.namespace}/${pod.controllerRef.name}`);
    if (set === undefined) {
      continue;
    }
    const message = `Pod ${pod.key} stays Terminating on ${node.name}, whose kubelet is down: StatefulSet "${set.name}" does not recreate it until it is force-deleted (kubectl delete pod ${pod.name} -n ${pod.namespace} --force --grace-period=0)`;
    findings.push(engineFinding('statefulset-pod-stuck', set.source, [], message));
  }
}

/** Drains of the scenario that failed or never finished. */
export function checkDrains(
  drains: readonly ScenarioDrain[],
  stoppedAtLimit: boolean,
  endTime: number,
  findings: Finding[],
): void {
  for (const { process, step } of drains) {
    const { outcome } = process;
    if (outcome.state === 'Failed') {
      const message = `kubectl drain ${outcome.node} fails: ${outcome.errors.join('; ')}`;
      findings.push(engineFinding('drain-failed', step.source, step.path, message));
      continue;
    }
    if (outcome.state !== 'Evicting') {
      continue;
    }
    outcome.blocked = process.refusals();
    const reasons = outcome.blocked.map(
      (refusal) =>
        `eviction of pod ${refusal.pod} is refused by PodDisruptionBudget ${refusal.budget ?? '?'}: ${refusal.message}`,
    );
    const terminating = process.stillTerminating();
    if (terminating.length > 0) {
      reasons.push(
        `pod${terminating.length > 1 ? 's' : ''} ${terminating.join(', ')} never finish terminating`,
      );
    }
    if (stoppedAtLimit) {
      const message = `kubectl drain ${outcome.node} had not finished at t=${endTime}s: ${reasons.join('; ')}`;
      findings.push(engineFinding('drain-unfinished', step.source, step.path, message));
    } else {
      const message = `kubectl drain ${outcome.node} never finishes: ${reasons.join('; ')}`;
      findings.push(engineFinding('drain-blocked', step.source, step.path, message));
    }
  }
}

/**
 * Pods placed but never started (a missing ConfigMap, Secret or key): one error per template and cause, on the
 * reference, with how many of the workload's pods it holds back.
 */
export function checkStartFailures(state: ClusterState, findings: Finding[]): void {
  const byCause = new Map<string, { pods: number; pod: SimPod }>();
  for (const pod of state.pods.values()) {
    if (pod.waiting === null || pod.deletionTime !== null) {
      continue;
    }
    const source = pod.info.source;
    const key = `${source.file}#${source.documentIndex}#${source.path.join('.')}#${pod.waiting.message}`;
    const entry = byCause.get(key);
    byCause.set(key, { pods: (entry?.pods ?? 0) + 1, pod: entry?.pod ?? pod });
  }
  for (const { pods, pod } of byCause.values()) {
    const waiting = pod.waiting;
    if (waiting === null) {
      continue;
    }
    const owner =
      pod.workload === null
        ? `Pod "${pod.name}"`
        : `${pods} pod${pods === 1 ? '' : 's'} of ${pod.workload.kind} "${pod.workload.name}"`;
    const stuck =
      waiting.reason === 'ContainerCreating' ? 'stay ContainerCreating' : `stay in ${waiting.reason}`;
    const message = `${owner} ${pod.workload === null ? stuck.replace('stay', 'stays') : stuck} and never start: ${waiting.message}`;
    findings.push(
      engineFinding('container-cannot-start', pod.info.source, ['spec', ...waiting.path], message),
    );
  }
}

/**
 * Claims that bind at once but stay Pending while a pod waits for them: one error per claim (or, for a
 * StatefulSet's claims, per volumeClaimTemplate), on the class it names, with why the PV controller cannot bind it.
 */
export function checkPendingClaims(state: ClusterState, storage: StorageObjects, findings: Finding[]): void {
  const waiting = new Map<string, SimPod[]>();
  for (const pod of state.pods.values()) {
    if (pod.nodeName !== null || pod.deletionTime !== null) {
      continue;
    }
    for (const { claimName } of podClaimNames(pod.name, pod.info.pod.spec)) {
      const key = `${pod.namespace}/${claimName}`;
      waiting.set(key, [...(waiting.get(key) ?? []), pod]);
    }
  }
  const reported = new Set<string>();
  for (const claim of storage.claims.values()) {
    const pods = waiting.get(`${claim.namespace}/${claim.name}`);
    const isPrebound = claim.volumeName !== '';
    if (pods === undefined || claim.phase !== 'Pending' || (storage.isDelayBinding(claim) && !isPrebound)) {
      continue;
    }
    const where = claimField(state, claim);
    if (where === null || reported.has(where.key)) {
      continue;
    }
    reported.add(where.key);
    const podNames = pods.map((pod) => pod.name).join(', ');
    const message = `PersistentVolumeClaim "${claim.name}" stays Pending (${pendingClaimReason(storage, claim)}), so pod ${podNames} stays Pending: pod has unbound immediate PersistentVolumeClaims`;
    findings.push(engineFinding('claim-pending', where.source, where.path, message));
  }
}

/** Why the PV controller leaves an immediate claim unbound. */
function pendingClaimReason(storage: StorageObjects, claim: ClaimInfo): string {
  if (claim.volumeName !== '') {
    const volume = storage.volumes.get(claim.volumeName);
    const why =
      volume === undefined ? 'it does not exist' : (volumeMismatch(volume, claim) ?? 'it is not bound');
    const hint =
      volume !== undefined && volume.storageClassName === '' && claim.storageClassName !== ''
        ? `; the volume has no class and the claim has "${claim.storageClassName}" (a claim that names no class gets the default one from DefaultStorageClass; storageClassName: "" asks for a volume without class)`
        : '';
    return `Cannot bind to requested volume "${claim.volumeName}": ${why}${hint}`;
  }
  if (claim.storageClassName === '') {
    return 'no persistent volumes available for this claim and no storage class is set';
  }
  const storageClass = storage.classes.get(claim.storageClassName);
  if (storageClass === undefined) {
    return `storageclass.storage.k8s.io "${claim.storageClassName}" not found`;
  }
  return `no volume of class "${storageClass.name}" fits it and its provisioner "${storageClass.provisioner}" creates none`;
}

/** The field a claim's finding goes on: its own storageClassName, or its StatefulSet template's. */
function claimField(
  state: ClusterState,
  claim: ClaimInfo,
): { source: ObjectSource; path: (string | number)[]; key: string } | null {
  const classPath = (base: (string | number)[], spec: unknown): (string | number)[] =>
    asObject(spec)['storageClassName'] === undefined ? [...base] : [...base, 'storageClassName'];
  if (claim.source !== null) {
    return {
      source: claim.source,
      path: claim.volumeName !== '' ? ['spec', 'volumeName'] : classPath(['spec'], undefined),
      key: `${claim.source.file}#${claim.source.documentIndex}`,
    };
  }
  const [kind, name] = (claim.createdBy ?? '').split('/');
  const set = kind === 'StatefulSet' ? state.statefulSets.get(`${claim.namespace}/${name ?? ''}`) : undefined;
  if (set === undefined) {
    return null;
  }
  const templates = asArray(asObject(set.object['spec'])['volumeClaimTemplates']);
  const index = templates.findIndex((template) => {
    const templateName = asObject(asObject(template)['metadata'])['name'];
    return typeof templateName === 'string' && claim.name.startsWith(`${templateName}-${set.name}-`);
  });
  if (index < 0) {
    return null;
  }
  const spec = asObject(templates[index])['spec'];
  return {
    source: set.source,
    path: classPath(['spec', 'volumeClaimTemplates', index, 'spec'], spec),
    key: `${set.source.file}#${set.source.documentIndex}#${index}`,
  };
}
