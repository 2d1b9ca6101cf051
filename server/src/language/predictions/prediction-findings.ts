/**
 * Predictions as findings, each on the field that causes it: "2 of 5 replicas stay Pending: 0/4 nodes are
 * available: …" on the request that is too large; one finding per cause, not one per replica.
 */
import type { NodeFacts } from './landing-nodes';
import { landingNodes } from './landing-nodes';
import type { DefaultResources, TemplateLocation } from './template-fixes';
import { defaultResourcesFix, withRoomSaid } from './template-fixes';
import { quotaResourcesFix } from './quota-fix';
import type { ObjectSource } from '../../engine/model/source';
import type { AnalyzedDocument } from '../analyzer';
import type { DiagnosticCode, TextFinding } from '../findings';
import type { ReportNode } from '../../engine/scenario/report/report-entries';
import type { ClusterKind } from '../../engine/simulate/report';
import { fieldRangesUnder, nodeAtPath, rangeForField, rangeForKey } from '../yaml/node-at-path';
import type { Node } from 'yaml';
import { pendingFinding, withoutPostFilter } from './pending-finding';
import { antiAffinityDeadlockFix } from './value-fixes';
import { podSecurityFix } from './security-fixes';
import { stillPendingOnceAdmitted } from './admitted-schedule';
import { valueAt } from '../rules/rule-support';
import type { WorkloadPrediction } from './workload-predictions';
import type { Finding } from '../../../../protocol/finding';
import { severityOf } from '../findings';

/** The cluster a prediction was made on, as the report says (engine/simulate/report.ts ReportCluster). */
interface PredictedCluster {
  readonly kind: ClusterKind;
  readonly profile?: string;
}

/** Finds the analysed document a source points into. */
type SourceLocator = (
  source: ObjectSource,
) => { fileId: string; document: AnalyzedDocument; text?: string } | undefined;

/** What the quick fixes of predictions need beyond the simulation (optional: without it, fewer fixes). */
interface PredictionFixContext {
  /** The taints and cordons of the simulated cluster's nodes. */
  readonly nodeFacts?: NodeFacts;
  /** The requests and limits the BestEffort fix adds (the setting kubeForesight.defaultResources). */
  readonly defaultResources?: DefaultResources;
  /** Whether a pod's spec.resources counts (PodLevelResources, on by default from 1.34); default true. */
  readonly podLevelResources?: boolean;
}

const REPLICATED_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);
/**
 * Where an engine finding goes when the manifest has a better field for it than the one the engine names: a
 * stalled rollout is shown on the strategy (the engine names progressDeadlineSeconds). Every engine finding keeps
 * its own code (protocol/finding-codes.ts): the editor, the CLI and docs/codes.md use the same ones.
 */
const PREFERRED_PATHS: Readonly<Record<string, readonly string[]>> = {
  'rollout-stalls': ['spec', 'strategy'],
};

/** Engine notes that say nothing about the user's manifest. */
const QUIET_ENGINE_CODES = new Set(['ignored-object', 'plugin-not-modelled']);

/** The findings of the predictions, by file id. */
export function predictionFindings(
  predictions: readonly WorkloadPrediction[],
  engineFindings: readonly Finding[],
  locate: SourceLocator,
  nodes: readonly ReportNode[],
  rolloutList: readonly RolloutSummary[] = [],
  fixContext: PredictionFixContext = {},
  cluster: PredictedCluster = { kind: 'file' },
): Map<string, TextFinding[]> {
  // Severity follows certainty: Pending on a capture is what a real apply gets (an error); on a profile the
  // message says which cluster was assumed.
  const pendingCode = cluster.kind === 'capture' ? 'pod-unschedulable-on-capture' : 'pod-unschedulable';
  const assumed = cluster.kind === 'profile' ? ` (assumed cluster: profile "${cluster.profile ?? ''}")` : '';
  const rollouts = new Map(
    rolloutList.map((rollout) => [`${rollout.kind}/${rollout.namespace}/${rollout.name}`, rollout]),
  );
  // The cluster autoscaler's "cannot help" for a workload that stays Pending is part of that one cause: it is told
  // with the Pending diagnostic (related information), not as a second entry on the same pod spec.
  // By document, in the findings' order: a file of hundreds of Pending workloads has as many verdicts.
  const verdicts = new Map<string, Finding[]>();
  for (const finding of engineFindings) {
    if (finding.code === 'pod-no-scale-up' && finding.object !== undefined) {
      const key = documentKey(finding.object);
      const list = verdicts.get(key);
      if (list === undefined) {
        verdicts.set(key, [finding]);
      } else {
        list.push(finding);
      }
    }
  }
  const folded = new Set<Finding>();
  const verdictOf = (source: ObjectSource): Finding | undefined => {
    const verdict = verdicts
      .get(documentKey(source))
      ?.find(({ object }) => object?.path.every((key, index) => source.path[index] === key) === true);
    if (verdict !== undefined) {
      folded.add(verdict);
    }
    return verdict;
  };
  const unfold = (source: ObjectSource): void => {
    for (const verdict of verdicts.get(documentKey(source)) ?? []) {
      folded.delete(verdict);
    }
  };
  const byFile = new Map<string, TextFinding[]>();
  const add = (fileId: string, finding: TextFinding | undefined): void => {
    if (finding !== undefined) {
      const list = byFile.get(fileId) ?? [];
      list.push(finding);
      byFile.set(fileId, list);
    }
  };
  for (const prediction of predictions) {
    const located = locate(prediction.source);
    if (located === undefined) {
      continue;
    }
    const { fileId, document } = located;
    const template = valueAt(document.yaml.value, prediction.source.path);
    const root = (document.yaml.document?.contents ?? undefined) as Node | undefined;
    const templateLocation: TemplateLocation | undefined =
      located.text === undefined
        ? undefined
        : {
            root,
            path: prediction.source.path,
            value: template,
            text: located.text,
            offset: document.offset,
          };
    // Every finding of the workload is under its template: the walk down to it is done once.
    const rangeUnderTemplate = fieldRangesUnder(root, prediction.source.path);
    /** On the value when it is a scalar (a request), else on the key of the field (or of its nearest parent). */
    const place = (
      path: readonly (string | number)[],
      code: DiagnosticCode,
      message: string,
    ): TextFinding | undefined => {
      const range = rangeUnderTemplate(path);
      return range === undefined
        ? undefined
        : {
            code,
            severity: severityOf(code),
            message,
            start: range[0] + document.offset,
            end: range[1] + document.offset,
          };
    };
    if (prediction.pending > 0 && prediction.pendingMessage !== null) {
      const rollout = rollouts.get(`${prediction.kind}/${prediction.namespace}/${prediction.name}`);
      const schedulerMessage = withoutPostFilter(prediction.pendingMessage);
      const pending = pendingFinding({
        prediction,
        message: `${pendingSummary(prediction, rollout)}: ${schedulerMessage}${assumed}`,
        code: pendingCode,
        template,
        templateLocation,
        place,
        nodes,
        nodeFacts: fixContext.nodeFacts,
        verdict: verdictOf(prediction.source),
      });
      if (pending === undefined) {
        unfold(prediction.source);
      }
      add(fileId, pending);
    }
    if (prediction.qosClass === 'BestEffort') {
      const finding = place(
        ['spec', 'containers'],
        'best-effort-pod',
        `${prediction.kind} ${prediction.name} runs BestEffort pods (${prediction.qosReason}): they are the first evicted when a node runs short of memory. Set requests (and limits) to make them Burstable or Guaranteed.`,
      );
      const fix =
        finding === undefined || templateLocation === undefined || fixContext.defaultResources === undefined
          ? undefined
          : withRoomSaid(
              defaultResourcesFix(templateLocation, fixContext.defaultResources),
              prediction,
              template,
              fixContext.defaultResources.requests,
              landingNodes(nodes, fixContext.nodeFacts, valueAt(template, ['spec'])),
            );
      add(fileId, finding === undefined || fix === undefined ? finding : { ...finding, fix });
    }
    const preempted = prediction.replicas.flatMap((replica) => replica.preempted);
    if (preempted.length > 0) {
      add(
        fileId,
        place(
          ['spec'],
          'pod-preempts',
          `Scheduling ${prediction.name} preempts lower-priority pods: ${preempted.join(', ')}.`,
        ),
      );
    }
  }
  for (const finding of engineFindings) {
    if (QUIET_ENGINE_CODES.has(finding.code) || folded.has(finding)) {
      continue;
    }
    const located = finding.object === undefined ? undefined : locate(finding.object);
    if (located === undefined || finding.object === undefined) {
      continue;
    }
    const root = (located.document.yaml.document?.contents ?? undefined) as Node | undefined;
    const preferredPath = PREFERRED_PATHS[finding.code];
    const preferred = preferredPath === undefined ? undefined : [...finding.object.path, ...preferredPath];
    const fullPath = [...finding.object.path, ...(finding.path ?? [])];
    const range =
      preferred !== undefined && nodeAtPath(root, preferred) !== undefined
        ? rangeForKey(root, preferred)
        : rangeForField(root, fullPath);
    if (range !== undefined) {
      const fix =
        finding.code === 'rollout-stalls'
          ? antiAffinityDeadlockFix(root, finding, located.document.offset)
          : finding.data?.['plugin'] === 'PodSecurity' && located.text !== undefined
            ? podSecurityFix(
                root,
                located.text,
                located.document.offset,
                fullPath,
                located.document.yaml.value,
                finding.message,
                (spec) =>
                  stillPendingOnceAdmitted(spec, Number(finding.data?.['desired'] ?? '1'), {
                    nodes,
                    facts: fixContext.nodeFacts,
                    podLevelResources: fixContext.podLevelResources ?? true,
                  }),
              )
            : finding.data?.['plugin'] === 'ResourceQuota' &&
                located.text !== undefined &&
                fixContext.defaultResources !== undefined
              ? quotaResourcesFix(
                  {
                    root,
                    path: fullPath.slice(0, -2),
                    value: valueAt(located.document.yaml.value, fullPath.slice(0, -2)),
                    text: located.text,
                    offset: located.document.offset,
                  },
                  fullPath,
                  finding.message,
                  fixContext.defaultResources,
                  {
                    quotaRoom: finding.data?.['quotaRoom'],
                    desired: Number(finding.data?.['desired'] ?? '1'),
                  },
                )
              : undefined;
      add(located.fileId, {
        code: finding.code,
        severity: finding.severity,
        message: finding.message,
        start: range[0] + located.document.offset,
        end: range[1] + located.document.offset,
        ...(fix === undefined ? {} : { fix }),
      });
    }
  }
  return byFile;
}

/** What the timeline says of a workload's rollout (the report's rollouts entry). */
interface RolloutSummary {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly replicas: number;
  readonly outcome: string;
}

/**
 * "2 of 5 replicas stay Pending", "This Pod stays Pending", "All 3 pods stay Pending"; mid-rollout, when only
 * some of the new template's pods exist: "1 new pod of the rollout stays Pending (3 replicas wanted)".
 */
export function pendingSummary(prediction: WorkloadPrediction, rollout?: RolloutSummary): string {
  const total = prediction.replicas.length;
  if (prediction.kind === 'Pod') {
    return 'This Pod stays Pending';
  }
  if (rollout !== undefined && rollout.outcome !== 'Complete' && total < rollout.replicas) {
    const pods = prediction.pending === 1 ? 'new pod of the rollout stays' : 'new pods of the rollout stay';
    return `${prediction.pending} ${pods} Pending (${rollout.replicas} replicas wanted)`;
  }
  const noun = REPLICATED_KINDS.has(prediction.kind)
    ? total === 1
      ? 'replica'
      : 'replicas'
    : total === 1
      ? 'pod'
      : 'pods';
  if (prediction.pending === total) {
    return total === 1 ? `Its only ${noun} stays Pending` : `All ${total} ${noun} stay Pending`;
  }
  return `${prediction.pending} of ${total} ${noun} ${prediction.pending === 1 ? 'stays' : 'stay'} Pending`;
}

/** One key per document of a file. */
function documentKey(source: { readonly file: string; readonly documentIndex: number }): string {
  return `${source.documentIndex}:${source.file}`;
}
