/**
 * Predictions as findings, each on the field that causes it: "2 of 5 replicas stay Pending: 0/4 nodes are
 * available: …" on the request that is too large; one finding per cause, not one per replica.
 */
import type { TaintObject } from '../../engine/model/objects';
import { UNTOLERATED_TAINT_CODE } from '../../engine/scheduler/plugins/taint-toleration';
import type { DefaultResources, TemplateLocation } from './template-fixes';
import { defaultResourcesFix, quotaResourcesFix, tolerationFix } from './template-fixes';
import type { ObjectSource } from '../../engine/model/source';
import type { AnalyzedDocument } from '../analyzer';
import type { DiagnosticCode, TextFinding } from '../findings';
import type { ReportNode } from '../../engine/scenario/report/report-entries';
import type { ClusterKind } from '../../engine/simulate/report';
import { nodeAtPath, rangeForKey, rangeForValue } from '../yaml/node-at-path';
import { isScalar } from 'yaml';
import type { Node } from 'yaml';
import { causePath } from './cause-paths';
import { antiAffinityDeadlockFix, lowerRequestFix } from './value-fixes';
import { podSecurityFix } from './security-fixes';
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
  /** The taints of each node of the simulated cluster. */
  readonly nodeTaints?: ReadonlyMap<string, readonly TaintObject[]>;
  /** The requests and limits the BestEffort fix adds (the setting kubeForesight.defaultResources). */
  readonly defaultResources?: DefaultResources;
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
    /** On the value when it is a scalar (a request), else on the key of the field (or of its nearest parent). */
    const place = (
      path: readonly (string | number)[],
      code: DiagnosticCode,
      message: string,
    ): TextFinding | undefined => {
      const fullPath = [...prediction.source.path, ...path];
      const range = isScalar(nodeAtPath(root, fullPath))
        ? rangeForValue(root, fullPath)
        : rangeForKey(root, fullPath);
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
      // The causes given by the most nodes are the ones to fix: each gets the warning, on its own field.
      const most = prediction.causes[0]?.nodes.length ?? 0;
      const primaries = prediction.causes.filter((cause) => cause.nodes.length === most);
      const others = prediction.causes.filter((cause) => cause.nodes.length < most);
      const rollout = rollouts.get(`${prediction.kind}/${prediction.namespace}/${prediction.name}`);
      const message = `${pendingSummary(prediction, rollout)}: ${prediction.pendingMessage}${assumed}`;
      if (primaries.length === 0) {
        add(fileId, place(['spec'], pendingCode, message));
      }
      for (const cause of primaries) {
        const path = causePath(cause, template);
        const finding = place(path, pendingCode, message);
        const fix =
          finding === undefined
            ? undefined
            : cause.code === UNTOLERATED_TAINT_CODE
              ? templateLocation === undefined || fixContext.nodeTaints === undefined
                ? undefined
                : tolerationFix(templateLocation, cause.nodes, fixContext.nodeTaints)
              : lowerRequestFix(cause, path, nodes);
        add(fileId, finding === undefined || fix === undefined ? finding : { ...finding, fix });
      }
      for (const cause of others) {
        const nodes = cause.nodes.slice(0, 3).join(', ') + (cause.nodes.length > 3 ? ', …' : '');
        add(
          fileId,
          place(
            causePath(cause, template),
            'pod-unschedulable-cause',
            `${cause.nodes.length} of ${prediction.nodeCount} nodes (${nodes}) also reject ${prediction.name}: ${cause.message}.`,
          ),
        );
      }
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
          : defaultResourcesFix(templateLocation, fixContext.defaultResources);
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
    if (QUIET_ENGINE_CODES.has(finding.code)) {
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
        : isScalar(nodeAtPath(root, fullPath))
          ? rangeForValue(root, fullPath)
          : rangeForKey(root, fullPath);
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
