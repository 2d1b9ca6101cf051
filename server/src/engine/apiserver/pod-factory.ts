/**
 * Turns the pod JSON a controller builds into a SimPod: the API server's admission first (admission/admit-pod.ts:
 * defaults and plugins; a refused pod is not created, the refusal joins the report's `rejected` and the
 * controller's FailedCreate event the timeline, once per controller and reason), then its priority and requests
 * (model/load/pod-load.ts), a creation sequence, and names that never clash.
 */
import { defaultPodAdmission, failedCreateMessage } from '../admission/pod-admission';
import type { PodAdmissionChain } from '../admission/admit-pod';
import { rejectedObject } from '../admission/rejected';
import type { Refusal, RejectedObject } from '../admission/rejected';
import type { PriorityClassInfo } from '../model/snapshot/cluster';
import { isRecord } from '../model/objects';
import type { PodObject } from '../model/objects';
import type { PodInfo } from '../model/snapshot/pod-info';
import { loadPod } from '../model/load/pod-load';
import type { ObjectSource } from '../model/source';
import type { KubernetesMinor } from '../version';
import type { NameAllocator } from '../workloads/names';
import type { ClusterState } from './cluster-state';
import type { SimPod, WorkloadRef } from './sim-pod';
import { newSimPod } from './sim-pod';
import type { Finding } from '../../../../protocol/finding';
import { controllerEvent } from '../model/kubernetes-events';
import { appendAll } from '../../../../protocol/collections';

/** What a created pod is, besides its JSON. */
interface PodOrigin {
  /** The template (or Pod) it was made from. */
  readonly source: ObjectSource;
  readonly workload: WorkloadRef | null;
  readonly revision: string | null;
  readonly ordinal?: number | null;
}

/** Builds SimPods from pod JSON. */
export class PodFactory {
  private readonly reported = new Set<string>();
  /**
   * PodInfos by the spec object they were computed from (a ReplicaSet's pods share their template's spec) and
   * owner: what a PodInfo holds besides identity and labels depends on those only, so later pods copy it.
   */
  private readonly bySpec = new WeakMap<object, Map<string, PodInfo>>();

  private readonly refused = new Set<string>();
  /**
   * Whether pods pass admission. Off while the cluster file's running state is built: those pods exist already,
   * admitted when they were created (a quota or a Pod Security label added since does not remove them).
   */
  admitting = true;
  private readonly admission: PodAdmissionChain;

  constructor(
    private readonly state: ClusterState,
    readonly names: NameAllocator,
    private readonly version: KubernetesMinor,
    private readonly priorityClasses: ReadonlyMap<string, PriorityClassInfo>,
    private readonly findings: Finding[],
    /** Receives the pods the API server refuses. */
    private readonly rejected: RejectedObject[] = [],
    admission?: PodAdmissionChain,
  ) {
    this.admission = admission ?? defaultPodAdmission(priorityClasses);
  }

  /** A SimPod for the JSON, or null when the API server would refuse it. */
  build(raw: Record<string, unknown>, origin: PodOrigin): SimPod | null {
    const outcome = this.admitting ? this.admission.admit(raw) : { admitted: true as const, pod: raw };
    if (!outcome.admitted) {
      this.reportRefusal(raw, origin, outcome.refusal, outcome.path);
      // A pod whose PriorityClass is missing also keeps its finding, on the field (model/load/pod-load.ts).
      this.load(raw, origin);
      return null;
    }
    const json = outcome.pod;
    const spec = json['spec'];
    const ownerKey = origin.workload === null ? '' : `${origin.workload.kind}/${origin.workload.name}`;
    const known = isRecord(spec) ? this.bySpec.get(spec)?.get(ownerKey) : undefined;
    const info = known === undefined ? this.load(json, origin) : withIdentity(known, json);
    if (info === null) {
      return null;
    }
    if (known === undefined && isRecord(spec)) {
      const byOwner = this.bySpec.get(spec) ?? new Map<string, PodInfo>();
      byOwner.set(ownerKey, info);
      this.bySpec.set(spec, byOwner);
    }
    return newSimPod({
      info,
      workload: origin.workload,
      revision: origin.revision,
      ordinal: origin.ordinal ?? null,
      createdAt: this.state.sim.now,
      createdSeq: this.state.nextSeq(),
    });
  }

  /** The refusal in the report and the controller's FailedCreate event, once per controller and reason. */
  private reportRefusal(
    json: Record<string, unknown>,
    origin: PodOrigin,
    refusal: Refusal,
    field: readonly (string | number)[],
  ): void {
    // The controller that tried (a Deployment's pods are its ReplicaSet's), as the pod's controller reference.
    const owner = controllerOf(json) ?? origin.workload ?? undefined;
    const key = `${owner?.kind ?? ''}/${owner?.name ?? ''}#${origin.source.file}#${origin.source.documentIndex}#${refusal.message}`;
    if (this.refused.has(key)) {
      return;
    }
    this.refused.add(key);
    const metadata = isRecord(json['metadata']) ? json['metadata'] : {};
    const namespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : 'default';
    const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';
    // A pod the API server refuses gets no generated name: the refusal names its generateName, as the error does.
    const shown = typeof metadata['generateName'] === 'string' ? metadata['generateName'] : name;
    this.rejected.push(
      rejectedObject({ kind: 'Pod', namespace, name: shown }, refusal, origin.source, owner, field),
    );
    if (owner !== undefined) {
      this.state.recordWorkload(
        'FailedCreate',
        owner.kind,
        namespace,
        owner.name,
        failedCreateMessage(owner, name, refusal),
        undefined,
        controllerEvent('FailedCreate', owner, namespace, true),
      );
    }
  }

  private load(json: Record<string, unknown>, origin: PodOrigin): PodInfo | null {
    const problems: Finding[] = [];
    const context = { version: this.version, priorityClasses: this.priorityClasses, findings: problems };
    const owner =
      origin.workload === null ? null : { kind: origin.workload.kind, name: origin.workload.name };
    const info = loadPod(json, origin.source, owner, context, true);
    const key = `${origin.source.file}#${origin.source.documentIndex}#${origin.source.path.join('.')}`;
    if (!this.reported.has(key)) {
      this.reported.add(key);
      appendAll(this.findings, problems);
    }
    return info;
  }
}

/** A copy of a pod's PodInfo for another pod of the same spec: its own name, namespace, object and labels. */
function withIdentity(template: PodInfo, json: Record<string, unknown>): PodInfo {
  const pod = json as PodObject;
  const namespace = pod.metadata?.namespace ?? 'default';
  const name = pod.metadata?.name ?? pod.metadata?.generateName ?? '';
  const nodeName = pod.spec?.nodeName;
  return {
    ...template,
    key: `${namespace}/${name}`,
    namespace,
    name,
    pod,
    labels: pod.metadata?.labels ?? {},
    // The template's nodeName changed when it was bound: a copy starts from its own spec.
    nodeName: typeof nodeName === 'string' && nodeName !== '' ? nodeName : null,
  };
}

/** The controller reference of pod JSON, as {kind, name}. */
function controllerOf(json: Record<string, unknown>): { kind: string; name: string } | undefined {
  const metadata = isRecord(json['metadata']) ? json['metadata'] : {};
  const references: unknown[] = Array.isArray(metadata['ownerReferences']) ? metadata['ownerReferences'] : [];
  const controller = references.find((reference) => isRecord(reference) && reference['controller'] === true);
  return isRecord(controller) &&
    typeof controller['kind'] === 'string' &&
    typeof controller['name'] === 'string'
    ? { kind: controller['kind'], name: controller['name'] }
    : undefined;
}
