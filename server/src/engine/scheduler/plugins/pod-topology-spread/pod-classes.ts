/**
 * What PodTopologySpread keeps per pod being scheduled (its constraints per action and its node inclusion), shared
 * by the pods of one class: a ReplicaSet's pods share their template's spec object (apiserver/pod-factory.ts), and
 * besides the spec their constraints depend only on their namespace, labels and controller reference, and on the
 * cluster objects the default selector reads (common.ts: podConstraints, defaultSelector). A rolling update
 * schedules 10,000 such pods; each rebuilt the same constraints, selector key and inclusion. A bare pod (no
 * controller) is its own class, kept by pod.
 * `test/engine/scheduler/plugins/pod-topology-spread-classes.test.ts` checks every answer against a fresh build.
 */
import type { Labels } from '../../../model/label-selector';
import { listOf } from '../../../model/objects';
import type { ClusterObjects } from '../../../model/snapshot/cluster-objects';
import type { PodInfo } from '../../../model/snapshot/pod-info';
import { NodeInclusion, podConstraints } from './common';
import type { ConstraintsResult, SpreadDefaults, UnsatisfiableAction } from './common';

/** A pod's spread state: its node inclusion and constraints per action, each built when first asked for. */
export interface PodSpread {
  inclusion?: NodeInclusion;
  DoNotSchedule?: ConstraintsResult;
  ScheduleAnyway?: ConstraintsResult;
}

/**
 * The pods of one spec that share a PodSpread (the class is its own PodSpread: one object per class), and the
 * cluster objects' generation it was built against.
 */
interface SpreadClass extends PodSpread {
  readonly namespace: string;
  readonly labels: Labels;
  readonly ownerApiVersion: string | undefined;
  readonly ownerKind: string | undefined;
  readonly ownerName: string | undefined;
  readonly generation: number;
}

/** The PodSpread of each pod, shared within a class. */
export class SpreadClasses {
  /**
   * A controller's pods by their spec object. A bare pod (no controller) has a spec of its own: it is kept by pod,
   * as before classes, since a class per bare pod only cost memory (the plain-pod scheduling benchmark, 50,000
   * bare pods, lost a tenth of its speed).
   */
  private readonly bySpec = new WeakMap<object, SpreadClass | SpreadClass[]>();
  private readonly perPod = new WeakMap<PodInfo, PodSpread>();

  constructor(
    private readonly defaults: SpreadDefaults,
    private readonly objects: ClusterObjects,
  ) {}

  /** The pod's node inclusion (nodeAffinityPolicy, nodeTaintsPolicy), built once per class. */
  inclusionOf(pod: PodInfo): NodeInclusion {
    const spread = this.spreadOf(pod);
    return (spread.inclusion ??= new NodeInclusion(pod));
  }

  /** The pod's constraints of one action, built once per class. */
  constraintsOf(pod: PodInfo, action: UnsatisfiableAction): ConstraintsResult {
    const spread = this.spreadOf(pod);
    let built = spread[action];
    if (built === undefined) {
      built = podConstraints(pod, action, this.defaults, this.objects);
      spread[action] = built;
    }
    return built;
  }

  /** The PodSpread of the pod's class: found among its spec's classes, or a new one (replacing a stale one). */
  private spreadOf(pod: PodInfo): PodSpread {
    const spec = pod.pod.spec ?? pod;
    const owner = listOf(pod.pod.metadata?.ownerReferences).find((ref) => ref.controller === true);
    if (owner === undefined) {
      let own = this.perPod.get(pod);
      if (own === undefined) {
        own = {};
        this.perPod.set(pod, own);
      }
      return own;
    }
    const generation = this.objects.generation;
    const known = this.bySpec.get(spec);
    // Most specs have one class (a template's pods): kept alone, without a list around it, and found without
    // one (this runs for every pod in every PreFilter and PreScore).
    if (
      known !== undefined &&
      !Array.isArray(known) &&
      known.generation === generation &&
      isClassOf(known, pod, owner)
    ) {
      return known;
    }
    const classes = known === undefined ? [] : Array.isArray(known) ? known : [known];
    for (let i = 0; i < classes.length; i++) {
      const candidate = classes[i] as SpreadClass;
      if (isClassOf(candidate, pod, owner)) {
        if (candidate.generation === generation) {
          return candidate;
        }
        // Built against objects since changed (a Service or ReplicaSet added): this class starts again.
        classes.splice(i, 1);
        break;
      }
    }
    const created: SpreadClass = {
      namespace: pod.namespace,
      labels: pod.labels,
      ownerApiVersion: owner.apiVersion,
      ownerKind: owner.kind,
      ownerName: owner.name,
      generation,
    };
    classes.push(created);
    this.bySpec.set(spec, classes.length === 1 ? created : classes);
    return created;
  }
}

/** Whether the pod belongs to the class: same namespace, controller and labels. */
function isClassOf(
  candidate: SpreadClass,
  pod: PodInfo,
  owner: { readonly apiVersion?: string; readonly kind?: string; readonly name?: string },
): boolean {
  return (
    candidate.namespace === pod.namespace &&
    candidate.ownerApiVersion === owner.apiVersion &&
    candidate.ownerKind === owner.kind &&
    candidate.ownerName === owner.name &&
    sameLabels(candidate.labels, pod.labels)
  );
}

/** Whether two label sets are equal (same keys and values). */
function sameLabels(a: Labels, b: Labels): boolean {
  if (a === b) {
    return true;
  }
  let count = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) {
      continue;
    }
    if (!Object.hasOwn(b, key) || a[key] !== b[key]) {
      return false;
    }
    count++;
  }
  for (const key in b) {
    if (Object.hasOwn(b, key)) {
      count--;
    }
  }
  return count === 0;
}
