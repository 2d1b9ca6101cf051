/**
 * Turns the pod JSON a controller builds into a SimPod: resolves its priority and requests (model/pod-load.ts),
 * gives it a creation sequence, and keeps track of names so generated ones never clash. A pod the API server would
 * refuse (a PriorityClass that does not exist) is not created; its finding is reported once per template.
 */
import type { PriorityClassInfo } from '../model/cluster';
import type { EngineFinding } from '../model/findings';
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

  constructor(
    private readonly state: ClusterState,
    readonly names: NameAllocator,
    private readonly version: KubernetesMinor,
    private readonly priorityClasses: ReadonlyMap<string, PriorityClassInfo>,
    private readonly findings: EngineFinding[],
  ) {}

  /** A SimPod for the JSON, or null when the API server would refuse it. */
  build(json: Record<string, unknown>, origin: PodOrigin): SimPod | null {
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
    if (info === null) {
      return null;
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
}
