/**
 * The shapes of the Kubernetes objects the engine reads, as plain JSON (what `yaml` parses a manifest into).
 * Only the fields the engine uses are declared; every field is optional because input comes from users and is
 * checked where it is read (model/load/cluster-load.ts for cluster files). Names follow the Kubernetes API exactly.
 * https://kubernetes.io/docs/reference/kubernetes-api/
 */

/** A quantity as written in YAML: "500m", "1Gi", or a bare number. */
type QuantityValue = string | number;

/** A map of resource name to quantity (requests, limits, allocatable, overhead). */
export type ResourceListObject = Readonly<Record<string, QuantityValue>>;

/** An owner reference (metadata.ownerReferences[]). */
interface OwnerReferenceObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly controller?: boolean;
}

/** ObjectMeta: the parts the engine reads. */
interface ObjectMetaObject {
  readonly name?: string;
  readonly generateName?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly OwnerReferenceObject[];
}

/** The effect of a taint, and of a toleration when it names one. */
type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

/** A node taint (spec.taints[]). */
export interface TaintObject {
  readonly key: string;
  readonly value?: string;
  readonly effect: TaintEffect;
}

/** A pod toleration (spec.tolerations[]). An empty operator means Equal. */
export interface TolerationObject {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
  readonly tolerationSeconds?: number;
}

/** A node selector requirement: In, NotIn, Exists, DoesNotExist, Gt, Lt. */
export interface NodeSelectorRequirementObject {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

/** A node selector term: every requirement of the term must match (AND). */
export interface NodeSelectorTermObject {
  readonly matchExpressions?: readonly NodeSelectorRequirementObject[];
  readonly matchFields?: readonly NodeSelectorRequirementObject[];
}

/** A node selector: any one term may match (OR). */
export interface NodeSelectorObject {
  readonly nodeSelectorTerms?: readonly NodeSelectorTermObject[];
}

/** A weighted preferred node selector term. */
export interface PreferredSchedulingTermObject {
  readonly weight: number;
  readonly preference: NodeSelectorTermObject;
}

/** A label selector (matchLabels and matchExpressions). */
export interface LabelSelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] }[];
}

/** A pod (anti-)affinity term. */
export interface PodAffinityTermObject {
  readonly labelSelector?: LabelSelectorObject;
  readonly namespaceSelector?: LabelSelectorObject;
  readonly namespaces?: readonly string[];
  readonly topologyKey: string;
  readonly matchLabelKeys?: readonly string[];
  readonly mismatchLabelKeys?: readonly string[];
}

/** A weighted pod (anti-)affinity term. */
export interface WeightedPodAffinityTermObject {
  readonly weight: number;
  readonly podAffinityTerm: PodAffinityTermObject;
}

/** Pod affinity or anti-affinity. */
interface PodAffinityObject {
  readonly requiredDuringSchedulingIgnoredDuringExecution?: readonly PodAffinityTermObject[];
  readonly preferredDuringSchedulingIgnoredDuringExecution?: readonly WeightedPodAffinityTermObject[];
}

/** spec.affinity. */
interface AffinityObject {
  readonly nodeAffinity?: {
    readonly requiredDuringSchedulingIgnoredDuringExecution?: NodeSelectorObject;
    readonly preferredDuringSchedulingIgnoredDuringExecution?: readonly PreferredSchedulingTermObject[];
  };
  readonly podAffinity?: PodAffinityObject;
  readonly podAntiAffinity?: PodAffinityObject;
}

/** A topology spread constraint (read by the PodTopologySpread plugin). */
export interface TopologySpreadConstraintObject {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly whenUnsatisfiable: string;
  readonly labelSelector?: LabelSelectorObject;
  readonly minDomains?: number;
  readonly nodeAffinityPolicy?: string;
  readonly nodeTaintsPolicy?: string;
  readonly matchLabelKeys?: readonly string[];
}

/** A container port. */
interface ContainerPortObject {
  readonly containerPort?: number;
  readonly hostPort?: number;
  readonly hostIP?: string;
  readonly protocol?: string;
  readonly name?: string;
}

/** Requests and limits of a container or of the whole pod. */
interface ResourceRequirementsObject {
  readonly requests?: ResourceListObject;
  readonly limits?: ResourceListObject;
}

/** A container or init container. restartPolicy "Always" on an init container makes it a sidecar. */
export interface ContainerObject {
  readonly name?: string;
  readonly image?: string;
  readonly resources?: ResourceRequirementsObject;
  readonly ports?: readonly ContainerPortObject[];
  readonly restartPolicy?: string;
}

/** PodSpec: the parts the scheduler reads. */
export interface PodSpecObject {
  readonly nodeName?: string;
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly affinity?: AffinityObject;
  readonly tolerations?: readonly TolerationObject[];
  readonly containers?: readonly ContainerObject[];
  readonly initContainers?: readonly ContainerObject[];
  readonly overhead?: ResourceListObject;
  readonly resources?: ResourceRequirementsObject;
  readonly priority?: number;
  readonly priorityClassName?: string;
  readonly preemptionPolicy?: string;
  readonly schedulerName?: string;
  readonly topologySpreadConstraints?: readonly TopologySpreadConstraintObject[];
  readonly hostNetwork?: boolean;
  readonly schedulingGates?: readonly { name: string }[];
}

/** A Pod. */
export interface PodObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMetaObject;
  readonly spec?: PodSpecObject;
  readonly status?: { readonly nominatedNodeName?: string; readonly phase?: string };
}

/** An image present on a node (status.images[]). */
interface ContainerImageObject {
  readonly names?: readonly string[];
  readonly sizeBytes?: number;
}

/** A Node. */
export interface NodeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMetaObject;
  readonly spec?: { readonly unschedulable?: boolean; readonly taints?: readonly TaintObject[] };
  readonly status?: {
    readonly allocatable?: ResourceListObject;
    readonly capacity?: ResourceListObject;
    readonly images?: readonly ContainerImageObject[];
  };
}

/** Whether a JSON value is a plain object (a YAML mapping). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The elements of an array field, or none when the field is absent or not an array (input is unchecked JSON).
 * Typed so that readonly arrays do not widen to any[] as Array.isArray alone would.
 */
export function listOf<T>(value: readonly T[] | undefined): readonly T[] {
  return Array.isArray(value) ? (value as readonly T[]) : [];
}
