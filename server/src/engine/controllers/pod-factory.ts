/**
 * Turns the pod JSON a controller builds into a SimPod: resolves its priority and requests (model/pod-load.ts),
 * gives it a creation sequence, and keeps track of names so generated ones never clash. A pod the API server would
 * refuse (a PriorityClass that does not exist) is not created; its finding is reported once per template.
 */
import type { PriorityClassInfo } from '../model/cluster';
import type { EngineFinding } from '../model/findings';
import { isRecord } from '../model/objects';
import type { PodObject } from '../model/objects';
import type { PodInfo } from '../model/pod-info';
import { loadPod } from '../model/pod-load';
import type { ObjectSource } from '../model/source';
import type { KubernetesMinor } from '../version';
import type { NameAllocator } from '../workloads/names';
import type { ClusterState } from './cluster-state';
import type { SimPod, WorkloadRef } from './sim-pod';
import { newSimPod } from './sim-pod';

/** What a created pod is, besides its JSON. */
export interface PodOrigin {
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

  constructor(
    private readonly state: ClusterState,
    readonly names: NameAllocator,
    private readonly version: KubernetesMinor,
    private readonly priorityClasses: ReadonlyMap<string, PriorityClassInfo>,
    private readonly findings: EngineFinding[],
  ) {}

  /** A SimPod for the JSON, or null when the API server would refuse it. */
  build(json: Record<string, unknown>, origin: PodOrigin): SimPod | null {
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

  private load(json: Record<string, unknown>, origin: PodOrigin): PodInfo | null {
    const problems: EngineFinding[] = [];
    const context = { version: this.version, priorityClasses: this.priorityClasses, findings: problems };
    const owner =
      origin.workload === null ? null : { kind: origin.workload.kind, name: origin.workload.name };
    const info = loadPod(json, origin.source, owner, context, true);
    const key = `${origin.source.file}#${origin.source.documentIndex}#${origin.source.path.join('.')}`;
    if (!this.reported.has(key)) {
      this.reported.add(key);
      this.findings.push(...problems);
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
