/**
 * Builds the plan of an apply from what the engine already computes: the input objects against the cluster
 * file's live objects (field-changes.ts), and two runs of the one simulation, without the input (the cluster as
 * it runs) and with it, for the consequences (plan-consequences.ts). Nothing here simulates.
 */
import type { SourcedObject } from '../model/load/cluster-load';
import type { ObjectSource } from '../model/source';
import type { SimulationReport } from '../simulate/report';
import type { JsonObject } from '../model/json';
import { asObject, isJsonObject, readString } from '../model/json';
import { apiGroupOf, isClusterScoped } from '../model/cluster-scoped-kinds';
import type { Finding } from '../../../../protocol/finding';
import { isPredictedOutcome } from '../../../../protocol/finding-codes';
import { fieldChanges, lastAppliedOf } from './field-changes';
import { planCapacity, planRollouts } from './plan-consequences';
import { planScope } from './plan-scope';
import type { Plan, PlanObject, PlanProblem, PlanVerdict } from './plan-types';

/** What a plan is built from. */
export interface ApplyPlanInput {
  /** The objects `kubectl apply` sends, as the one reader read them. */
  readonly manifests: readonly SourcedObject[];
  /** The cluster file's objects. */
  readonly cluster: readonly SourcedObject[];
  /** The simulation without the input, and with it. */
  readonly before: SimulationReport;
  readonly after: SimulationReport;
  /** Every finding of the run with the input, placed (a place with a line where the input has one). */
  readonly findings: readonly Finding[];
  /** The namespace objects without one go to (`-n`, else default). */
  readonly namespace: string;
  /** The line (1-based) an object starts on, when known. */
  readonly lineOf: (source: ObjectSource) => number | null;
  /** How the command's --fail-on classes a finding (cli/formats/finding-places.ts): one rule for exit and verdict. */
  readonly failureClassOf: (
    finding: Finding,
  ) => 'error' | 'unchecked' | 'prediction' | 'warning' | 'information';
}

/** Kinds that are no object of the API server: the cluster file's own (NodeGroup, a scenario). */
const FORESIGHT_GROUP = 'foresight';

/** Builds the plan. */
export function buildPlan(input: ApplyPlanInput): Plan {
  const live = new Map<string, JsonObject>();
  for (const { object } of input.cluster) {
    const key = isJsonObject(object) ? keyOf(object, '') : undefined;
    if (key !== undefined && isJsonObject(object)) {
      live.set(key, object);
    }
  }
  const seen = new Set<string>();
  const liveKinds = new Set([...live.values()].map((object) => String(object['kind'])));
  const objects: PlanObject[] = [];
  for (const { object, source } of input.manifests) {
    if (!isJsonObject(object)) {
      continue;
    }
    const key = keyOf(object, input.namespace);
    if (key === undefined) {
      continue;
    }
    seen.add(key);
    objects.push(planObject(object, source, live.get(key), liveKinds, input));
  }
  const leftAlone = [...live.entries()]
    .filter(([key, object]) => !seen.has(key) && isLeftAlone(object))
    .map(([, object]) => describe(object))
    .sort();
  const problems = planProblems(input);
  const rollouts = planRollouts(input.after, [...input.cluster, ...input.manifests]);
  const verdict = verdictOf(objects, leftAlone.length, problems, rollouts.length);
  return {
    apiVersion: 'foresight/v1',
    kind: 'Plan',
    kubernetesVersion: input.after.kubernetesVersion,
    cluster: {
      source: input.after.cluster.source,
      kind: input.after.cluster.kind,
      nodes: input.before.cluster.nodes.length,
    },
    verdict,
    objects,
    leftAlone,
    rollouts,
    problems,
    capacity: planCapacity(input.before, input.after, input.cluster),
    scope: planScope(input, objects, liveKinds),
    timeline: input.after.timeline ?? { endTime: 0, settled: true },
  };
}

function planObject(
  object: JsonObject,
  source: ObjectSource,
  liveObject: JsonObject | undefined,
  liveKinds: ReadonlySet<string>,
  input: ApplyPlanInput,
): PlanObject {
  const kind = String(object['kind']);
  const metadata = asObject(object['metadata']);
  const isNamespaced = !isClusterScoped(String(object['apiVersion']), kind);
  const base = {
    kind,
    namespace: isNamespaced ? (readString(metadata['namespace']) ?? input.namespace) : null,
    name: readString(metadata['name']) ?? readString(metadata['generateName']) ?? '',
    file: source.file,
    line: input.lineOf(source),
  };
  if (liveObject === undefined) {
    const note = liveKinds.has(kind)
      ? null
      : `the cluster file holds no ${kind}: it may already exist, and the apply then configures it`;
    return { ...base, action: 'created', changes: [], note };
  }
  const changes = fieldChanges(liveObject, object, lastAppliedOf(liveObject));
  return { ...base, action: changes.length === 0 ? 'unchanged' : 'configured', changes, note: null };
}

/** "apps/Deployment/store/catalog": the identity kubectl apply finds an object by. */
function keyOf(object: JsonObject, defaultNamespace: string): string | undefined {
  const apiVersion = readString(object['apiVersion']);
  const kind = readString(object['kind']);
  const metadata = asObject(object['metadata']);
  const name = readString(metadata['name']);
  if (apiVersion === undefined || kind === undefined || name === undefined) {
    return undefined;
  }
  const namespace = isClusterScoped(apiVersion, kind)
    ? ''
    : (readString(metadata['namespace']) ?? defaultNamespace);
  return `${apiGroupOf(apiVersion)}/${kind}/${namespace}/${name}`;
}

/** Whether a cluster object is one a user applies (not a controller's pod or ReplicaSet, a node, our own kinds). */
function isLeftAlone(object: JsonObject): boolean {
  const metadata = asObject(object['metadata']);
  const owners = Array.isArray(metadata['ownerReferences']) ? metadata['ownerReferences'] : [];
  const group = apiGroupOf(String(object['apiVersion']));
  return (
    owners.length === 0 &&
    object['kind'] !== 'Node' &&
    object['kind'] !== 'Event' &&
    !group.startsWith(FORESIGHT_GROUP)
  );
}

function describe(object: JsonObject): string {
  const metadata = asObject(object['metadata']);
  const namespace = readString(metadata['namespace']);
  const name = readString(metadata['name']) ?? '';
  return `${String(object['kind'])} ${namespace === undefined ? name : `${namespace}/${name}`}`;
}

/**
 * Errors and predicted failures (as --fail-on prediction counts them), warnings, and notes that predict an outcome,
 * each marked when the cluster has it without the input.
 */
function planProblems(input: ApplyPlanInput): PlanProblem[] {
  const before = new Set(input.before.findings.map(findingKey));
  const problems = new Map<string, PlanProblem>();
  for (const finding of input.findings) {
    const failureClass = input.failureClassOf(finding);
    // A note counts only when it predicts an outcome (a pod Pending until a scale-up), never towards the verdict.
    if (failureClass === 'information' && !isPredictedOutcome(finding.code)) {
      continue;
    }
    const file = finding.place?.file ?? finding.object?.file ?? null;
    const line = finding.place?.start === undefined ? null : finding.place.start.line + 1;
    const problem: PlanProblem = {
      severity: failureClass === 'information' ? 'note' : failureClass === 'warning' ? 'warning' : 'failure',
      code: finding.code,
      message: finding.message,
      file: file === '' ? null : file,
      line,
      isPreexisting: before.has(findingKey(finding)),
    };
    problems.set(JSON.stringify([problem.code, problem.message, problem.file, problem.line]), problem);
  }
  return [...problems.values()];
}

function findingKey(finding: Finding): string {
  return JSON.stringify([
    finding.code,
    finding.message,
    finding.object?.file ?? '',
    finding.object?.documentIndex ?? -1,
  ]);
}

function verdictOf(
  objects: readonly PlanObject[],
  leftAlone: number,
  problems: readonly PlanProblem[],
  rollouts: number,
): PlanVerdict {
  const count = (action: PlanObject['action']): number =>
    objects.filter((object) => object.action === action).length;
  const fresh = problems.filter((problem) => !problem.isPreexisting);
  const failures = fresh.filter((problem) => problem.severity === 'failure').length;
  const warnings = fresh.filter((problem) => problem.severity === 'warning').length;
  const outcome = failures > 0 ? 'will fail' : warnings > 0 ? 'needs attention' : 'safe';
  const created = count('created');
  const configured = count('configured');
  const unchanged = count('unchanged');
  const changes =
    created + configured === 0
      ? `no changes (${unchanged} unchanged)`
      : `${created} to create, ${configured} to configure, ${unchanged} unchanged`;
  const summary =
    `${outcome}: ${changes}; ${rollouts} rollout(s); ${failures} failure(s), ${warnings} warning(s)` +
    (problems.length > fresh.length ? ` (${problems.length - fresh.length} already in the cluster)` : '');
  return { outcome, failures, warnings, created, configured, unchanged, leftAlone, rollouts, summary };
}
