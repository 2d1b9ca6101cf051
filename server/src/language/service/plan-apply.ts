/**
 * The plan of one apply on one cluster, as `foresight plan` prints it and the editor's Preview Apply panel shows it:
 * the one simulation run twice (the cluster without the input: how it runs now and which problems it already has;
 * with it: what the apply does), its findings placed on the input files, and the plan built from both
 * (engine/plan/build-plan.ts). One function for both hosts, so the panel and the CLI cannot disagree.
 */
import type { SourcedObject } from '../../engine/model/load/cluster-load';
import type { ScenarioStep } from '../../engine/scenario/scenario-spec';
import type { simulate, SimulationResult } from '../../engine/simulate/simulate';
import type { KubernetesMinor } from '../../engine/version';
import { buildPlan } from '../../engine/plan/build-plan';
import type { Plan } from '../../engine/plan/plan-types';
import type { Finding } from '../../../../protocol/finding';
import { failureClassOf } from './failure-class';
import type { InputFile } from './input-files';
import { objectLine } from './object-lines';
import { placeSimulationFindings } from './simulation-findings';

/** What one plan is made from: the input read and analysed, and the cluster's objects (never the default). */
export interface PlanApplyInput {
  /** The manifests' files, analysed (their lines name each object's line). */
  readonly manifestFiles: readonly InputFile[];
  /** The cluster files, analysed when they could be (a finding of theirs is placed on them). */
  readonly clusterFiles: readonly InputFile[];
  /** Files of notes that are no input file (a Helm chart's Chart.yaml): findings on them keep their file. */
  readonly chartFiles: readonly string[];
  /** Findings of the reading (left-out documents, charts, the reader's), placed with the run's. */
  readonly inputFindings: readonly Finding[];
  /** The objects `kubectl apply` sends (the one reader's). */
  readonly manifests: readonly SourcedObject[];
  /** The cluster's objects: a capture, a cluster file or a profile. */
  readonly cluster: readonly SourcedObject[];
  readonly clusterDescription: string;
  readonly version: KubernetesMinor;
  /** `-n`: the namespace of objects without one (default otherwise). */
  readonly namespace?: string | undefined;
  readonly steps?: readonly ScenarioStep[];
  /** Stop the timeline here (seconds), or run until the cluster settles. */
  readonly until?: number | null;
}

/** A plan and the placed findings of the run with the input (the CLI's exit code counts them). */
export interface PlanApplyResult {
  readonly plan: Plan;
  readonly findings: Finding[];
}

/** The simulation a plan runs: the service's, which adds the API server of the version. */
type Simulate = (input: Omit<Parameters<typeof simulate>[0], 'apiServing'>) => SimulationResult;

/** Plans one apply on one cluster. */
export function planApply(input: PlanApplyInput, simulate: Simulate): PlanApplyResult {
  const run = (manifests: readonly SourcedObject[]): SimulationResult =>
    simulate({
      manifests: [...manifests],
      cluster: [...input.cluster],
      clusterDescription: input.clusterDescription,
      version: input.version,
      timeline: {
        scenario: { steps: [...(input.steps ?? [])], until: null, timing: {} },
        ...(input.until === undefined || input.until === null ? {} : { until: input.until }),
      },
    });
  const before = run([]);
  const after = run(input.manifests);
  const files = [...input.clusterFiles, ...input.manifestFiles];
  const findings = placeSimulationFindings(
    files,
    input.chartFiles,
    [...input.inputFindings, ...after.report.findings],
    after,
    input.version,
  );
  const plan = buildPlan({
    manifests: input.manifests,
    cluster: input.cluster,
    before: before.report,
    after: after.report,
    findings,
    namespace: input.namespace ?? 'default',
    lineOf: (source) => objectLine(input.manifestFiles, source),
    failureClassOf,
  });
  return { plan, findings };
}
