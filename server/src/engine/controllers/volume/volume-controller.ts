/**
 * Claims over time: what the PersistentVolume controller, the provisioner and the StatefulSet and ephemeral
 * volume controllers do to PersistentVolumeClaims, and the scheduler's VolumeBinding PreBind.
 *
 * - A claim whose class binds at once (Immediate, or no class) is bound by the PV controller when it is created:
 *   to the smallest Available volume that fits (FindMatchingVolume without a node), else, when its class has a
 *   provisioner, to a new volume (the simulation cannot know where an Immediate provisioner puts it: the volume
 *   gets no zone). A class that does not exist: ProvisioningFailed, `storageclass.storage.k8s.io "x" not found`,
 *   and the claim stays Pending (its pods: "pod has unbound immediate PersistentVolumeClaims").
 * - A WaitForFirstConsumer claim waits for the scheduler: when its pod is bound, PreBind binds it to the volume the
 *   Filter chose or provisions one in the node's zone (scheduler/plugins/volume-binding/binder.ts).
 * - A StatefulSet creates the claims of a pod's volumeClaimTemplates, "<template>-<set>-<ordinal>", before the
 *   pod, with the selector's matchLabels as labels (stateful_pod_control.go createPersistentVolumeClaims), and
 *   keeps them when the pod goes (persistentVolumeClaimRetentionPolicy Retain, the default).
 * - A pod's generic ephemeral volume gets its claim "<pod>-<volume>" when the pod is created.
 * Claims made here pass DefaultStorageClass as the apply's do.
 */
import type { StorageObjects, ClaimInfo } from '../../model/snapshot/storage-objects';
import { readClaim } from '../../model/snapshot/storage-objects';
import { withDefaultStorageClass } from '../../admission/plugins/default-storage-class';
import type { ClaimAdmission } from '../../admission/admit-claim';
import { rejectedObject } from '../../admission/rejected';
import type { Refusal, RejectedObject } from '../../admission/rejected';
import {
  canProvision,
  findMatchingVolume,
  podClaimNames,
  provisionVolume,
} from '../../scheduler/plugins/volume-binding/binder';
import type { BinderNode } from '../../scheduler/plugins/volume-binding/binder';
import { prebindPodVolumes } from '../../scheduler/plugins/volume-binding';
import { asArray, asObject, readString } from '../../model/json';
import type { ClusterState } from '../../apiserver/cluster-state';
import type { SimPod } from '../../apiserver/sim-pod';
import type { SimStatefulSet } from '../../apiserver/workload-objects';
import type { Finding } from '../../../../../protocol/finding';
import { engineFinding } from '../../model/findings';
import { EVENT_COMPONENT, controllerEvent } from '../../model/kubernetes-events';
import type { KubeEvent } from '../../model/kubernetes-events';

/** The PV controller's event for a claim whose class does not exist (pv_controller.go provisionClaim). */
const PROVISIONING_FAILED: KubeEvent = {
  reason: 'ProvisioningFailed',
  component: EVENT_COMPONENT.persistentVolume,
  warning: true,
};

/** Claims, volumes and their binding over time. */
export class VolumeController {
  /** Claims assumed to exist, once per template ("file#doc#namespace/claim"). */
  private readonly assumed = new Set<string>();
  /** Claim refusals already reported, by namespace and message (a StatefulSet retries the ordinal every sync). */
  private readonly refused = new Set<string>();

  constructor(
    private readonly state: ClusterState,
    private readonly storage: StorageObjects,
    private readonly defaultClass: string | null,
    private readonly findings: Finding[] = [],
    /** Admission of the claims it creates (LimitRanger, ResourceQuota); all admitted when absent. */
    private readonly admitClaim: ClaimAdmission = () => null,
    /** Receives the claims the API server refuses. */
    private readonly rejected: RejectedObject[] = [],
  ) {
    state.onPod((pod, change) => {
      if (change === 'created') {
        this.createEphemeralClaims(pod);
        this.noteAssumedClaims(pod);
      }
    });
  }

  /**
   * A claim the pod names that is not in the manifests, in a namespace whose claims the cluster file does not
   * list: the real cluster may have it, so it is taken as bound (VolumeBinding does the same) and noted.
   */
  private noteAssumedClaims(pod: SimPod): void {
    const source = pod.info.source;
    for (const { claimName, isEphemeral, volumeIndex } of podClaimNames(pod.name, pod.info.pod.spec)) {
      if (isEphemeral || this.storage.claim(pod.namespace, claimName) !== undefined) {
        continue;
      }
      if (this.storage.areClaimsKnownIn(pod.namespace)) {
        continue;
      }
      const key = `${source.file}#${source.documentIndex}#${pod.namespace}/${claimName}`;
      if (this.assumed.has(key)) {
        continue;
      }
      this.assumed.add(key);
      const message = `PersistentVolumeClaim "${claimName}" is not in the manifests; the cluster is assumed to have it, bound, in namespace "${pod.namespace}" (without it, the pods stay Pending: persistentvolumeclaim "${claimName}" not found)`;
      const path = ['spec', 'volumes', volumeIndex, 'persistentVolumeClaim', 'claimName'];
      this.findings.push(
        engineFinding('claim-assumed', source, path, message, { kind: 'PersistentVolumeClaim' }),
      );
    }
  }

  /** The PV controller's first pass: every claim that binds at once and is not bound yet. */
  syncAll(): void {
    for (const claim of this.storage.claims.values()) {
      this.syncClaim(claim);
    }
  }

  /** PreBind: the pod's WaitForFirstConsumer claims, bound or provisioned for the node it is bound to. */
  preBind(pod: SimPod, node: BinderNode): void {
    for (const outcome of prebindPodVolumes(this.storage, pod.info, node)) {
      const { claim, volume } = outcome;
      const how = outcome.provisioned
        ? `Successfully provisioned volume ${volume.name} for node ${node.name}`
        : `Bound to volume ${volume.name} for pod ${pod.key} on node ${node.name}`;
      this.state.recordClaim('ClaimBound', claim.namespace, claim.name, how, node.name);
    }
  }

  /**
   * createPersistentVolumeClaims: the StatefulSet's claims for one ordinal that do not exist yet, each through
   * admission. Returns whether every claim exists, so the pod may be created: a refused claim fails the pod's
   * creation (stateful_pod_control.go CreateStatefulPod), with the controller's two FailedCreate events, once per
   * refusal, and the claim in the report's refused objects.
   */
  createStatefulSetClaims(set: SimStatefulSet, ordinal: number): boolean {
    const spec = asObject(set.object['spec']);
    const matchLabels = asObject(asObject(spec['selector'])['matchLabels']);
    const podName = `${set.name}-${ordinal}`;
    const errors: string[] = [];
    asArray(spec['volumeClaimTemplates']).forEach((template, index) => {
      const templateObject = asObject(template);
      const templateName = readString(asObject(templateObject['metadata'])['name']);
      if (templateName === undefined) {
        return;
      }
      const name = `${templateName}-${set.name}-${ordinal}`;
      if (this.storage.claim(set.namespace, name) !== undefined) {
        return;
      }
      const templateMetadata = asObject(templateObject['metadata']);
      const object = withDefaultStorageClass(
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: {
            ...templateMetadata,
            name,
            namespace: set.namespace,
            labels: { ...asObject(templateMetadata['labels']), ...matchLabels },
          },
          spec: asObject(templateObject['spec']),
        },
        this.defaultClass,
      );
      const refusal = this.admitClaim(object, set.namespace, name);
      if (refusal !== null) {
        errors.push(`failed to create PVC ${name}: ${refusal.message}`);
        this.reportClaimRefusal(set, podName, name, refusal, index);
        return;
      }
      const claim = readClaim(object, null, `StatefulSet/${set.name}`);
      this.storage.addClaim(claim);
      const message = `create Claim ${name} Pod ${podName} in StatefulSet ${set.name} success`;
      const kube = controllerEvent(
        'SuccessfulCreate',
        { kind: 'StatefulSet', name: set.name },
        set.namespace,
      );
      this.state.recordClaim('ClaimCreated', set.namespace, name, message, null, kube);
      this.syncClaim(claim);
    });
    if (errors.length === 0) {
      return true;
    }
    // utilerrors.NewAggregate: one error as itself, several in brackets.
    const error = errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
    const key = `${set.namespace}/${podName}#${error}`;
    if (!this.refused.has(key)) {
      this.refused.add(key);
      this.recordFailedCreate(set, `create Pod ${podName} in StatefulSet ${set.name} failed error: ${error}`);
    }
    return false;
  }

  /** The StatefulSet controller's warning event FailedCreate (recordClaimEvent, recordPodEvent) on the set. */
  private recordFailedCreate(set: SimStatefulSet, message: string): void {
    const kube = controllerEvent(
      'FailedCreate',
      { kind: 'StatefulSet', name: set.name },
      set.namespace,
      true,
    );
    this.state.recordWorkload(
      'FailedCreate',
      'StatefulSet',
      set.namespace,
      set.name,
      message,
      undefined,
      kube,
    );
  }

  /** recordClaimEvent's FailedCreate and the refused claim in the report, once per refusal. */
  private reportClaimRefusal(
    set: SimStatefulSet,
    podName: string,
    name: string,
    refusal: Refusal,
    templateIndex: number,
  ): void {
    const key = `${set.namespace}#${refusal.message}`;
    if (this.refused.has(key)) {
      return;
    }
    this.refused.add(key);
    this.recordFailedCreate(
      set,
      `create Claim ${name} for Pod ${podName} in StatefulSet ${set.name} failed error: ${refusal.message}`,
    );
    this.rejected.push(
      rejectedObject(
        { kind: 'PersistentVolumeClaim', namespace: set.namespace, name },
        refusal,
        set.source,
        { kind: 'StatefulSet', name: set.name },
        ['spec', 'volumeClaimTemplates', templateIndex],
      ),
    );
  }

  /**
   * A claim naming a volume that neither the apply nor the cluster file has, when the cluster file lists no
   * PersistentVolumes: the real cluster may have it, so it is taken as existing, fitting and bound, and noted.
   */
  private assumeVolume(claim: ClaimInfo): void {
    const volume = provisionVolume(this.storage, claim, null, claim.volumeName);
    this.storage.bind(claim, volume);
    this.state.recordClaim('ClaimBound', claim.namespace, claim.name, `Bound to volume ${volume.name}`, null);
    if (claim.source !== null) {
      const message = `PersistentVolume "${volume.name}" is not in the manifests and the cluster file lists no PersistentVolumes: it is assumed to exist and to bind this claim`;
      const data = { kind: 'PersistentVolume' };
      this.findings.push(engineFinding('claim-assumed', claim.source, ['spec', 'volumeName'], message, data));
    }
  }

  /**
   * A scaled-down ordinal's claims under persistentVolumeClaimRetentionPolicy.whenScaled Delete: deleted with the
   * pod (the controller makes the pod their owner; the garbage collector removes them). Retain (the default) keeps
   * them for the next scale-up, bound to the same volumes.
   */
  releaseScaledDownClaims(set: SimStatefulSet, ordinal: number): void {
    const spec = asObject(set.object['spec']);
    const policy = asObject(spec['persistentVolumeClaimRetentionPolicy']);
    if (policy['whenScaled'] !== 'Delete') {
      return;
    }
    for (const template of asArray(spec['volumeClaimTemplates'])) {
      const templateName = readString(asObject(asObject(template)['metadata'])['name']);
      const claim =
        templateName === undefined
          ? undefined
          : this.storage.claim(set.namespace, `${templateName}-${set.name}-${ordinal}`);
      if (claim === undefined) {
        continue;
      }
      this.storage.deleteClaim(claim);
      const message = `Claim ${claim.name} deleted with Pod ${set.name}-${ordinal} (persistentVolumeClaimRetentionPolicy whenScaled: Delete)`;
      this.state.recordClaim('ClaimDeleted', claim.namespace, claim.name, message, null);
    }
  }

  /** The ephemeral volume controller: a claim per generic ephemeral volume of a new pod. */
  private createEphemeralClaims(pod: SimPod): void {
    const volumes = asArray(asObject(pod.info.pod.spec)['volumes']);
    for (const volume of volumes) {
      const volumeObject = asObject(volume);
      const ephemeral = volumeObject['ephemeral'];
      const volumeName = readString(volumeObject['name']);
      if (ephemeral === undefined || volumeName === undefined) {
        continue;
      }
      const name = `${pod.name}-${volumeName}`;
      if (this.storage.claim(pod.namespace, name) !== undefined) {
        continue;
      }
      const template = asObject(asObject(ephemeral)['volumeClaimTemplate']);
      const object = withDefaultStorageClass(
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { ...asObject(template['metadata']), name, namespace: pod.namespace },
          spec: asObject(template['spec']),
        },
        this.defaultClass,
      );
      const claim = readClaim(object, null, `Pod/${pod.name}`);
      this.storage.addClaim(claim);
      this.syncClaim(claim);
    }
  }

  /** syncUnboundClaim for a claim that binds at once; a WaitForFirstConsumer claim waits for its pod. */
  private syncClaim(claim: ClaimInfo): void {
    if (claim.phase === 'Bound' || claim.phase === 'Lost' || claim.deleting) {
      return;
    }
    if (this.storage.isDelayBinding(claim) && claim.volumeName === '') {
      return;
    }
    const candidates = [...this.storage.volumes.values()].filter(
      (volume) =>
        volume.storageClassName === claim.storageClassName ||
        (claim.volumeName !== '' && volume.name === claim.volumeName),
    );
    const volume = findMatchingVolume(claim, candidates, null, new Set());
    if (volume !== null && (claim.volumeName === '' || claim.volumeName === volume.name)) {
      this.storage.bind(claim, volume);
      this.state.recordClaim(
        'ClaimBound',
        claim.namespace,
        claim.name,
        `Bound to volume ${volume.name}`,
        null,
      );
      return;
    }
    if (
      claim.volumeName !== '' &&
      !this.storage.volumes.has(claim.volumeName) &&
      !this.storage.volumesListed
    ) {
      this.assumeVolume(claim);
      return;
    }
    if (claim.storageClassName === '' || claim.volumeName !== '') {
      return; // no class: only a volume made by hand binds it; pre-bound: waits for its volume
    }
    const storageClass = this.storage.classes.get(claim.storageClassName);
    if (storageClass === undefined) {
      const message = `storageclass.storage.k8s.io "${claim.storageClassName}" not found`;
      this.state.recordClaim(
        'ProvisioningFailed',
        claim.namespace,
        claim.name,
        message,
        null,
        PROVISIONING_FAILED,
      );
      return;
    }
    if (!canProvision(storageClass)) {
      return;
    }
    const provisioned = provisionVolume(this.storage, claim, null);
    this.storage.bind(claim, provisioned);
    const message = `Successfully provisioned volume ${provisioned.name} using ${storageClass.provisioner}`;
    this.state.recordClaim('ClaimBound', claim.namespace, claim.name, message, null);
  }
}
