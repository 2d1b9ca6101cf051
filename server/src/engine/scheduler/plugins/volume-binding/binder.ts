/**
 * The volume binder of VolumeBinding (binder.go), over the simulation's storage objects: a pod's claims sorted
 * into bound, unbound immediate and unbound WaitForFirstConsumer (GetPodVolumeClaims); for one node, whether bound
 * claims' volumes accept it, which static volume each delayed claim would bind (FindMatchingVolume: the smallest
 * that fits) and whether the others can be provisioned there (checkVolumeProvisions); and, once the pod is bound,
 * the bindings and provisioning made real (PreBind, with the PV controller and the provisioner completing them).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/volumebinding/binder.go
 * https://github.com/kubernetes/component-helpers/blob/master/storage/volume/pv_helpers.go
 */
import { compileLabelSelector } from '../../../model/label-selector';
import type { PodSpecObject } from '../../../model/objects';
import { RequiredNodeAffinity } from '../../../model/node-selector';
import type {
  ClaimInfo,
  StorageClassInfo,
  StorageObjects,
  VolumeInfo,
} from '../../../model/snapshot/storage-objects';
import {
  NOT_SUPPORTED_PROVISIONER,
  StorageObjects as Storage,
} from '../../../model/snapshot/storage-objects';
import { isRecord } from '../../../model/objects';
import { appendAll } from '../../../../../../protocol/collections';

/**
 * ErrReasonNodeConflict and the other ConflictReasons, in the order FindPodVolumes appends them. ErrReasonNodeConflict
 * reads "didn't match PersistentVolume's node affinity" since v1.33 (kubernetes PR #129887, CHANGELOG-1.33 "Other";
 * it was "had volume node affinity conflict"), the oldest minor modelled.
 */
export const CONFLICT_NODE = "node(s) didn't match PersistentVolume's node affinity";
export const CONFLICT_BIND = "node(s) didn't find available persistent volumes to bind";
export const CONFLICT_NOT_ENOUGH_SPACE = 'node(s) did not have enough free storage';
export const CONFLICT_PV_NOT_EXIST =
  'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

/** The zone label a simulated provisioner pins a new volume to. */
const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** A pod's claims, sorted as GetPodVolumeClaims sorts them. */
export interface PodVolumeClaims {
  readonly bound: readonly ClaimInfo[];
  readonly unboundImmediate: readonly ClaimInfo[];
  readonly unboundDelayed: readonly ClaimInfo[];
}

/** What a pod's volumes need on one node: static bindings and claims to provision (PodVolumes). */
export interface PodVolumes {
  readonly staticBindings: readonly { readonly claim: ClaimInfo; readonly volume: VolumeInfo }[];
  readonly dynamicProvisions: readonly ClaimInfo[];
}

/** A node as the binder reads it. */
export interface BinderNode {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** The names of the claims a pod's volumes use: persistentVolumeClaim, and generic ephemeral volumes. */
export function podClaimNames(
  podName: string,
  spec: unknown,
): { readonly claimName: string; readonly isEphemeral: boolean; readonly volumeIndex: number }[] {
  const volumes = isRecord(spec) && Array.isArray(spec['volumes']) ? spec['volumes'] : [];
  if (volumes.length === 0) {
    // No volume, no claim: the scheduler asks for every pod in every cycle, most pods have none.
    return [];
  }
  const result: { claimName: string; isEphemeral: boolean; volumeIndex: number }[] = [];
  volumes.forEach((volume: unknown, volumeIndex: number) => {
    if (!isRecord(volume)) {
      return;
    }
    const claim = volume['persistentVolumeClaim'];
    if (isRecord(claim)) {
      const claimName = typeof claim['claimName'] === 'string' ? claim['claimName'] : '';
      result.push({ claimName, isEphemeral: false, volumeIndex });
    } else if (isRecord(volume['ephemeral'])) {
      const name = typeof volume['name'] === 'string' ? volume['name'] : '';
      result.push({ claimName: `${podName}-${name}`, isEphemeral: true, volumeIndex });
    }
  });
  return result;
}

/** Sorts the claims (they all exist: podHasPVCs checked that first). */
export function getPodVolumeClaims(storage: StorageObjects, claims: readonly ClaimInfo[]): PodVolumeClaims {
  const bound: ClaimInfo[] = [];
  const unboundImmediate: ClaimInfo[] = [];
  const unboundDelayed: ClaimInfo[] = [];
  for (const claim of claims) {
    if (Storage.isFullyBound(claim)) {
      bound.push(claim);
    } else if (storage.isDelayBinding(claim) && claim.volumeName === '') {
      unboundDelayed.push(claim);
    } else {
      // Prebound claims and immediate ones: the PV controller should have bound them already.
      unboundImmediate.push(claim);
    }
  }
  return { bound, unboundImmediate, unboundDelayed };
}

/**
 * GetEligibleNodes: the nodes a pod's bound local volumes allow (their node affinity's hostname In values, by
 * term: intersected within a term, united across terms; intersected across volumes), or null when no bound
 * claim narrows them (no local volume, or a volume that cannot be found).
 */
export function eligibleNodes(
  storage: StorageObjects,
  bound: readonly ClaimInfo[],
): ReadonlySet<string> | null {
  let eligible: Set<string> | null = null;
  for (const claim of bound) {
    const volume = storage.volumes.get(claim.volumeName);
    if (volume === undefined) {
      return null;
    }
    const names = localVolumeNodeNames(volume);
    if (names.size === 0) {
      continue;
    }
    eligible = intersect(eligible, names);
  }
  return eligible;
}

/** The intersection of two sets; null stands for "everything". */
function intersect(a: ReadonlySet<string> | null, b: ReadonlySet<string>): Set<string> {
  return new Set(a === null ? b : [...a].filter((name) => b.has(name)));
}

/** GetLocalPersistentVolumeNodeNames: only for a `local` volume with required node affinity. */
function localVolumeNodeNames(volume: VolumeInfo): Set<string> {
  const result = new Set<string>();
  if (volume.spec['local'] === undefined || !isRecord(volume.nodeAffinity)) {
    return result;
  }
  const terms = volume.nodeAffinity['nodeSelectorTerms'];
  for (const term of Array.isArray(terms) ? terms : []) {
    let nodes: Set<string> | null = null;
    const expressions =
      isRecord(term) && Array.isArray(term['matchExpressions']) ? term['matchExpressions'] : [];
    for (const expression of expressions) {
      if (
        !isRecord(expression) ||
        expression['key'] !== 'kubernetes.io/hostname' ||
        expression['operator'] !== 'In'
      ) {
        continue;
      }
      const values = new Set(
        (Array.isArray(expression['values']) ? expression['values'] : []).filter(
          (value): value is string => typeof value === 'string',
        ),
      );
      nodes = intersect(nodes, values);
    }
    for (const name of nodes ?? []) {
      result.add(name);
    }
  }
  return result;
}

/** The outcome of FindPodVolumes on one node: the conflict reasons, an error, or what the volumes need. */
export type FindResult =
  | { readonly kind: 'fits'; readonly volumes: PodVolumes }
  | { readonly kind: 'conflicts'; readonly reasons: readonly string[] }
  | { readonly kind: 'error'; readonly message: string };

/** FindPodVolumes: whether the pod's claims can be satisfied on the node. */
export function findPodVolumes(
  storage: StorageObjects,
  claims: PodVolumeClaims,
  node: BinderNode,
): FindResult {
  let boundSatisfied = true;
  let unboundSatisfied = true;
  let boundVolumesFound = true;
  const sufficientStorage = true;
  let staticBindings: { claim: ClaimInfo; volume: VolumeInfo }[] = [];
  let dynamicProvisions: ClaimInfo[] = [];
  const finish = (): FindResult => {
    const reasons: string[] = [];
    if (!boundSatisfied) {
      reasons.push(CONFLICT_NODE);
    }
    if (!unboundSatisfied) {
      reasons.push(CONFLICT_BIND);
    }
    if (!sufficientStorage) {
      reasons.push(CONFLICT_NOT_ENOUGH_SPACE);
    }
    if (!boundVolumesFound) {
      reasons.push(CONFLICT_PV_NOT_EXIST);
    }
    return reasons.length > 0
      ? { kind: 'conflicts', reasons }
      : { kind: 'fits', volumes: { staticBindings, dynamicProvisions } };
  };

  // checkBoundClaims: the first claim whose volume is missing or refuses the node decides.
  for (const claim of claims.bound) {
    const volume = storage.volumes.get(claim.volumeName);
    if (volume === undefined) {
      boundVolumesFound = false;
      break;
    }
    if (!volumeAcceptsNode(volume, node)) {
      boundSatisfied = false;
      break;
    }
  }

  if (claims.unboundDelayed.length > 0) {
    const toMatch: ClaimInfo[] = [];
    const toProvision: ClaimInfo[] = [];
    for (const claim of claims.unboundDelayed) {
      if (claim.selectedNode !== null) {
        if (claim.selectedNode !== node.name) {
          unboundSatisfied = false;
          return finish();
        }
        toProvision.push(claim);
      } else {
        toMatch.push(claim);
      }
    }
    if (toMatch.length > 0) {
      const matched = findMatchingVolumes(storage, toMatch, node);
      unboundSatisfied = matched.allMatched;
      staticBindings = matched.bindings;
      appendAll(toProvision, matched.unmatched);
    }
    if (toProvision.length > 0) {
      const provisions = checkVolumeProvisions(storage, toProvision, node);
      if (provisions.kind === 'error') {
        return provisions;
      }
      unboundSatisfied = provisions.satisfied;
      dynamicProvisions = provisions.satisfied ? provisions.claims : [];
    }
  }
  return finish();
}

/** findMatchingVolumes: claims by increasing request, each taking the smallest volume that fits. */
function findMatchingVolumes(
  storage: StorageObjects,
  claims: readonly ClaimInfo[],
  node: BinderNode,
): { allMatched: boolean; bindings: { claim: ClaimInfo; volume: VolumeInfo }[]; unmatched: ClaimInfo[] } {
  const sorted = [...claims].sort((a, b) => a.requestBytes - b.requestBytes);
  const chosen = new Set<string>();
  const bindings: { claim: ClaimInfo; volume: VolumeInfo }[] = [];
  const unmatched: ClaimInfo[] = [];
  for (const claim of sorted) {
    const candidates = [...storage.volumes.values()].filter(
      (volume) => volume.storageClassName === claim.storageClassName,
    );
    const volume = findMatchingVolume(claim, candidates, node, chosen);
    if (volume === null) {
      unmatched.push(claim);
      continue;
    }
    chosen.add(volume.name);
    bindings.push({ claim, volume });
  }
  return { allMatched: unmatched.length === 0, bindings, unmatched };
}

/**
 * FindMatchingVolume on the scheduler's path (a node given, delayed binding): a volume pre-bound to the claim
 * wins when it accepts the node; otherwise the smallest Available volume of the claim's class whose capacity,
 * volume mode, selector, node affinity and access modes fit.
 */
export function findMatchingVolume(
  claim: ClaimInfo,
  volumes: readonly VolumeInfo[],
  node: BinderNode | null,
  excluded: ReadonlySet<string>,
): VolumeInfo | null {
  const selector = claim.selector === null ? null : compileLabelSelector(claim.selector);
  let smallest: VolumeInfo | null = null;
  for (const volume of volumes) {
    if (excluded.has(volume.name)) {
      continue;
    }
    const boundToClaim =
      volume.claimRef !== null &&
      volume.claimRef.name === claim.name &&
      volume.claimRef.namespace === claim.namespace;
    if (volume.claimRef !== null && !boundToClaim) {
      continue;
    }
    if (volume.capacityBytes < claim.requestBytes || volume.volumeMode !== claim.volumeMode) {
      continue;
    }
    const accepts = node === null || volumeAcceptsNode(volume, node);
    if (boundToClaim) {
      return accepts ? volume : null;
    }
    if (volume.phase !== 'Available') {
      continue;
    }
    if (selector !== null && (!selector.ok || !selector.selector.matches(volume.labels))) {
      continue;
    }
    if (volume.storageClassName !== claim.storageClassName || !accepts) {
      continue;
    }
    // The scheduler checks access modes here; the PV controller's volume index only offers volumes that have them.
    if (!claim.accessModes.every((mode) => volume.accessModes.includes(mode))) {
      continue;
    }
    if (smallest === null || volume.capacityBytes < smallest.capacityBytes) {
      smallest = volume;
    }
  }
  return smallest;
}

/**
 * checkVolumeSatisfyClaim (the PV controller, for a claim that names its volume): why the volume cannot bind it,
 * or null when it can.
 */
export function volumeMismatch(volume: VolumeInfo, claim: ClaimInfo): string | null {
  if (
    volume.claimRef !== null &&
    (volume.claimRef.name !== claim.name || volume.claimRef.namespace !== claim.namespace)
  ) {
    return 'volume already bound to a different claim.';
  }
  if (volume.capacityBytes < claim.requestBytes) {
    return 'requested PV is too small';
  }
  if (volume.storageClassName !== claim.storageClassName) {
    return 'storageClassName does not match';
  }
  if (volume.volumeMode !== claim.volumeMode) {
    return 'incompatible volumeMode';
  }
  if (!claim.accessModes.every((mode) => volume.accessModes.includes(mode))) {
    return 'incompatible accessMode';
  }
  return null;
}

/** checkVolumeProvisions: every claim's class can provision on this node. */
function checkVolumeProvisions(
  storage: StorageObjects,
  claims: readonly ClaimInfo[],
  node: BinderNode,
): { kind: 'checked'; satisfied: boolean; claims: ClaimInfo[] } | { kind: 'error'; message: string } {
  for (const claim of claims) {
    if (claim.storageClassName === '') {
      return { kind: 'error', message: `no class for claim "${claim.namespace}/${claim.name}"` };
    }
    const storageClass = storage.classes.get(claim.storageClassName);
    if (storageClass === undefined) {
      return { kind: 'error', message: `failed to find storage class "${claim.storageClassName}"` };
    }
    if (!canProvision(storageClass) || !matchesTopology(storageClass.allowedTopologies, node.labels)) {
      return { kind: 'checked', satisfied: false, claims: [] };
    }
  }
  return { kind: 'checked', satisfied: true, claims: [...claims] };
}

/** Whether a class has a provisioner that creates volumes. */
export function canProvision(storageClass: StorageClassInfo): boolean {
  return storageClass.provisioner !== '' && storageClass.provisioner !== NOT_SUPPORTED_PROVISIONER;
}

/** CheckNodeAffinity: a volume without required node affinity accepts every node. */
export function volumeAcceptsNode(volume: VolumeInfo, node: BinderNode): boolean {
  if (volume.nodeAffinity === null) {
    return true;
  }
  const spec: PodSpecObject = {
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: volume.nodeAffinity } },
  };
  // CheckNodeAffinity builds a node from the labels alone: a metadata.name field term matches no name.
  return new RequiredNodeAffinity(spec).matches({ name: '', labels: node.labels });
}

/** MatchTopologySelectorTerms: no terms allow every node; an empty term allows none. */
export function matchesTopology(
  terms: readonly unknown[],
  labels: Readonly<Record<string, string>>,
): boolean {
  if (terms.length === 0) {
    return true;
  }
  return terms.some((term) => {
    const expressions =
      isRecord(term) && Array.isArray(term['matchLabelExpressions']) ? term['matchLabelExpressions'] : [];
    if (expressions.length === 0) {
      return false;
    }
    return expressions.every((expression: unknown) => {
      if (!isRecord(expression) || typeof expression['key'] !== 'string') {
        return false;
      }
      const value = labels[expression['key']];
      const values = Array.isArray(expression['values']) ? expression['values'] : [];
      return value !== undefined && values.includes(value);
    });
  });
}

/** What binding the pod's volumes did, for the timeline. */
export interface VolumeBindingOutcome {
  readonly claim: ClaimInfo;
  readonly volume: VolumeInfo;
  readonly provisioned: boolean;
}

/**
 * PreBind, completed by the PV controller and the provisioner: static bindings bind, claims to provision get a
 * new volume ("pvc-<namespace>-<claim>", the claim's request, class and access modes) that a zonal provisioner
 * pins to the node's zone (node affinity on topology.kubernetes.io/zone) when the node has one.
 */
export function bindPodVolumes(
  storage: StorageObjects,
  volumes: PodVolumes,
  node: BinderNode,
): VolumeBindingOutcome[] {
  const outcomes: VolumeBindingOutcome[] = [];
  for (const { claim, volume } of volumes.staticBindings) {
    storage.bind(claim, volume);
    outcomes.push({ claim, volume, provisioned: false });
  }
  for (const claim of volumes.dynamicProvisions) {
    claim.selectedNode = node.name;
    const volume = provisionVolume(storage, claim, node.labels[ZONE_LABEL] ?? null);
    storage.bind(claim, volume);
    outcomes.push({ claim, volume, provisioned: true });
  }
  return outcomes;
}

/** A provisioned volume for the claim, optionally pinned to a zone. */
export function provisionVolume(
  storage: StorageObjects,
  claim: ClaimInfo,
  zone: string | null,
  /** The volume's name when it is known (a volume assumed to exist); else "pvc-<namespace>-<claim>". */
  knownName?: string,
): VolumeInfo {
  const nodeAffinity =
    zone === null
      ? null
      : { nodeSelectorTerms: [{ matchExpressions: [{ key: ZONE_LABEL, operator: 'In', values: [zone] }] }] };
  let name = knownName ?? `pvc-${claim.namespace}-${claim.name}`;
  for (let suffix = 2; knownName === undefined && storage.volumes.has(name); suffix++) {
    name = `pvc-${claim.namespace}-${claim.name}-${suffix}`;
  }
  const volume: VolumeInfo = {
    name,
    storageClassName: claim.storageClassName,
    capacityBytes: claim.requestBytes,
    accessModes: claim.accessModes,
    volumeMode: claim.volumeMode,
    nodeAffinity,
    // CSI provisioners express topology as node affinity only, not labels (VolumeZone reads labels).
    labels: {},
    claimRef: null,
    phase: 'Available',
    spec: {
      persistentVolumeReclaimPolicy: storage.classes.get(claim.storageClassName)?.reclaimPolicy ?? 'Delete',
    },
    source: null,
  };
  storage.addVolume(volume);
  return volume;
}
