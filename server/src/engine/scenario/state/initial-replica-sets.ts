/**
 * The ReplicaSets of the initial state: those the cluster file lists (owned by a Deployment by ownerReferences or
 * by its selector), and those implied by a Deployment's pods (grouped by their pod-template-hash label) or by a
 * Deployment listed alone. A ReplicaSet's template is compared with its Deployment's without the hash label
 * (EqualIgnoreHash), so exported objects with real hashes are recognised.
 */
import type { SourcedObject } from '../../model/load/cluster-load';
import type { ClusterState } from '../../apiserver/cluster-state';
import { deploymentMaxSurge } from '../../controllers/rollout-arithmetic';
import type { SimPod } from '../../apiserver/sim-pod';
import type { SimDeployment, SimReplicaSet } from '../../apiserver/workload-objects';
import { seededUid, templateHash } from '../../workloads/hash';
import type { JsonObject } from '../../model/json';
import { asArray, asObject, cloneJson, isJsonObject, readString } from '../../model/json';
import { POD_TEMPLATE_HASH_LABEL } from '../../workloads/replica-set';

const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';

/** A ReplicaSet's template without its pod-template-hash label (EqualIgnoreHash). */
export function withoutHashLabel(template: JsonObject): JsonObject {
  const metadata = asObject(template['metadata']);
  const labels = { ...asObject(metadata['labels']) };
  delete labels[POD_TEMPLATE_HASH_LABEL];
  return { ...template, metadata: { ...metadata, labels } };
}

/**
 * Hashes of templates without their pod-template-hash label, by template object: templateHash keeps its hashes by
 * object too, but the copy without the label is new on every call, and a capture's 1,500 ReplicaSets were hashed
 * again (their canonical JSON) on every prediction. Templates read from objects are never changed (hash.ts).
 */
const HASHES_IGNORING_HASH = new WeakMap<JsonObject, string>();

/** A template without its pod-template-hash label, hashed for EqualIgnoreHash. */
function hashIgnoringTemplateHash(template: JsonObject): string {
  let hash = HASHES_IGNORING_HASH.get(template);
  if (hash === undefined) {
    hash = templateHash(withoutHashLabel(template));
    HASHES_IGNORING_HASH.set(template, hash);
  }
  return hash;
}

/** The template of a Deployment's ReplicaSet: the Deployment's template plus the pod-template-hash label. */
export function replicaSetTemplate(deployment: SimDeployment, hash: string): JsonObject {
  const template = cloneJson(deployment.template);
  const metadata = asObject(template['metadata']);
  metadata['labels'] = { ...asObject(metadata['labels']), [POD_TEMPLATE_HASH_LABEL]: hash };
  template['metadata'] = metadata;
  return template;
}

/** Adds the cluster file's ReplicaSet objects to the state. */
export function readClusterReplicaSets(state: ClusterState, workloads: readonly SourcedObject[]): void {
  for (const { object, source } of workloads) {
    if (!isJsonObject(object) || object['kind'] !== 'ReplicaSet') {
      continue;
    }
    const metadata = asObject(object['metadata']);
    const name = readString(metadata['name']);
    if (name === undefined) {
      continue;
    }
    const namespace = readString(metadata['namespace']) ?? 'default';
    const spec = asObject(object['spec']);
    const template = asObject(spec['template']);
    const labels = asObject(asObject(template['metadata'])['labels']) as Record<string, string>;
    const ownerName = asArray(metadata['ownerReferences'])
      .map((reference) => asObject(reference))
      .find((reference) => reference['kind'] === 'Deployment')?.['name'];
    const deployment = [...state.deployments.values()].find(
      (candidate) =>
        candidate.namespace === namespace &&
        (typeof ownerName === 'string' ? candidate.name === ownerName : candidate.selector.matches(labels)),
    );
    const annotations = asObject(metadata['annotations']);
    const replicas = typeof spec['replicas'] === 'number' ? spec['replicas'] : 1;
    addReplicaSet(state, {
      namespace,
      name,
      uid: readString(metadata['uid']) ?? seededUid(`ReplicaSet/${namespace}/${name}`),
      deployment: deployment ?? null,
      template,
      source,
      replicas,
      revision: Number(annotations[REVISION_ANNOTATION] ?? 0) || 0,
    });
  }
}

/** The ReplicaSet a cluster-file pod belongs to, made up from its Deployment when the file lists none. */
export function replicaSetFor(
  state: ClusterState,
  pod: Pick<SimPod, 'namespace' | 'labels' | 'controllerRef'>,
): SimReplicaSet | null {
  const ref = pod.controllerRef;
  if (ref?.kind === 'ReplicaSet') {
    const listed = state.replicaSets.get(`${pod.namespace}/${ref.name}`);
    if (listed !== undefined) {
      return listed;
    }
  }
  if (ref !== null && ref.kind !== 'ReplicaSet') {
    return null;
  }
  const deployment = [...state.deployments.values()].find(
    (candidate) => candidate.namespace === pod.namespace && candidate.selector.matches(pod.labels),
  );
  if (deployment === undefined) {
    return null;
  }
  const hash = pod.labels[POD_TEMPLATE_HASH_LABEL] ?? deployment.templateHash;
  const name = `${deployment.name}-${hash}`;
  const existing = state.replicaSets.get(`${deployment.namespace}/${name}`);
  if (existing !== undefined) {
    existing.replicas++;
    return existing;
  }
  const replicaSet = addReplicaSet(state, {
    namespace: deployment.namespace,
    name,
    uid: seededUid(`ReplicaSet/${deployment.namespace}/${name}`),
    deployment,
    template: replicaSetTemplate(deployment, hash),
    source: { ...deployment.source, path: [...deployment.source.path, 'spec', 'template'] },
    replicas: 1,
    revision: 0,
  });
  return replicaSet;
}

/** The ReplicaSet of a Deployment listed without pods: as its controller made it, at full size. */
export function replicaSetOfIdleDeployment(state: ClusterState, deployment: SimDeployment): SimReplicaSet {
  const name = `${deployment.name}-${deployment.templateHash}`;
  return addReplicaSet(state, {
    namespace: deployment.namespace,
    name,
    uid: seededUid(`ReplicaSet/${deployment.namespace}/${name}`),
    deployment,
    template: replicaSetTemplate(deployment, deployment.templateHash),
    source: { ...deployment.source, path: [...deployment.source.path, 'spec', 'template'] },
    replicas: deployment.replicas,
    revision: 1,
  });
}

interface ReplicaSetInput {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly deployment: SimDeployment | null;
  readonly template: JsonObject;
  readonly source: SourcedObject['source'];
  readonly replicas: number;
  readonly revision: number;
}

function addReplicaSet(state: ClusterState, input: ReplicaSetInput): SimReplicaSet {
  const { deployment } = input;
  // Hashed once: canonical JSON of a whole pod template is the costly part of loading a ReplicaSet.
  const ownHash = hashIgnoringTemplateHash(input.template);
  const replicaSet: SimReplicaSet = {
    key: `${input.namespace}/${input.name}`,
    namespace: input.namespace,
    name: input.name,
    uid: input.uid,
    deploymentKey: deployment?.key ?? null,
    template: input.template,
    templateHash:
      ownHash === hashIgnoringTemplateHash(deployment?.template ?? {})
        ? (deployment?.templateHash ?? '')
        : ownHash,
    source: input.source,
    createdSeq: state.nextSeq(),
    minReadySeconds: deployment?.minReadySeconds ?? 0,
    replicas: input.replicas,
    desiredReplicas: deployment?.replicas ?? null,
    maxReplicas:
      deployment === null
        ? null
        : deployment.replicas + deploymentMaxSurge(deployment.strategy, deployment.replicas),
    revision: input.revision,
    status: { replicas: 0, readyReplicas: 0, availableReplicas: 0 },
    podsCreated: 0,
  };
  state.addReplicaSet(replicaSet);
  return replicaSet;
}
