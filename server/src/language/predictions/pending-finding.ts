/**
 * A workload that stays Pending is one cause, so one diagnostic (issue #28): on the field that most causes it (the
 * first of the rejections given by the most nodes), kube-scheduler's message once — its first part, "0/4 nodes are
 * available: …"; the PostFilter part ("preemption: …") is in the hover —, and every other field that causes it as
 * related information: a second short request, the rejections fewer nodes give, the cluster autoscaler's verdict.
 * The quick fix makes the pod fit one node, lowering every request that node is short of.
 */
import type { TolerationObject } from '../../engine/model/objects';
import type { NodeFacts } from './landing-nodes';
import { landingBlock, landingNodes, podsThatFit } from './landing-nodes';
import { UNTOLERATED_TAINT_CODE } from '../../engine/scheduler/plugins/taint-toleration';
import type { ReportNode } from '../../engine/scenario/report/report-entries';
import type { Finding, FixData, RelatedPlace } from '../../../../protocol/finding';
import type { DiagnosticCode, TextFinding } from '../findings';
import { causePath } from './cause-paths';
import type { TemplateLocation } from './template-fixes';
import { tolerationFix } from './template-fixes';
import { lowerRequestFix, lowerRequestsFix } from './value-fixes';
import type { ShortRequest } from './value-fixes';
import type { RejectionCause, WorkloadPrediction } from './workload-predictions';

/** Places a finding on a path of the prediction's template (undefined when the manifest has no such field). */
export type PlaceOnTemplate = (
  path: readonly (string | number)[],
  code: DiagnosticCode,
  message: string,
) => TextFinding | undefined;

/** What the Pending finding of a workload is made from. */
export interface PendingInput {
  readonly prediction: WorkloadPrediction;
  /** The summary and the scheduler's message, as the prediction findings word it. */
  readonly message: string;
  readonly code: DiagnosticCode;
  readonly template: unknown;
  readonly templateLocation: TemplateLocation | undefined;
  readonly place: PlaceOnTemplate;
  readonly nodes: readonly ReportNode[];
  readonly nodeFacts: NodeFacts | undefined;
  /** The cluster autoscaler's verdict on these pods, when it gave one. */
  readonly verdict: Finding | undefined;
}

/** kube-scheduler's FitError message without its PostFilter part (preemption, DRA's "no new claims…"). */
export function withoutPostFilter(message: string): string {
  return message.replace(/\s+(?:no new claims to deallocate, )?preemption: [\s\S]*$/, '');
}

/** The one finding of a Pending workload, or undefined when none of its fields can be found in the text. */
export function pendingFinding(input: PendingInput): TextFinding | undefined {
  const { prediction, template, place } = input;
  const most = prediction.causes[0]?.nodes.length ?? 0;
  const primaries = prediction.causes.filter((cause) => cause.nodes.length === most);
  const others = prediction.causes.filter((cause) => cause.nodes.length < most);
  const placed = primaries.flatMap((cause) => {
    const path = causePath(cause, template);
    const finding = place(path, input.code, input.message);
    return finding === undefined ? [] : [{ cause, path, finding }];
  });
  const [first, ...alsoPrimary] = placed;
  const main = first?.finding ?? place(['spec'], input.code, input.message);
  if (main === undefined) {
    return undefined;
  }
  const related: RelatedPlace[] = [];
  for (const { cause, finding } of alsoPrimary) {
    related.push({ start: finding.start, end: finding.end, message: alsoMessage(cause, prediction) });
  }
  for (const cause of others) {
    const finding = place(causePath(cause, template), input.code, '');
    if (finding !== undefined) {
      related.push({ start: finding.start, end: finding.end, message: alsoMessage(cause, prediction) });
    }
  }
  if (input.verdict !== undefined) {
    const spec = place(['spec'], input.code, '') ?? main;
    related.push({ start: spec.start, end: spec.end, message: input.verdict.message });
  }
  const fix = first === undefined ? undefined : pendingFix(input, first, placed);
  return {
    ...main,
    ...(related.length === 0 ? {} : { related }),
    ...(fix === undefined ? {} : { fix }),
  };
}

/** "2 of 4 nodes (worker-2, worker-3) reject analytics-engine: Insufficient memory." */
function alsoMessage(cause: RejectionCause, prediction: WorkloadPrediction): string {
  const names = cause.nodes.slice(0, 3).join(', ') + (cause.nodes.length > 3 ? ', …' : '');
  return `${cause.nodes.length} of ${prediction.nodeCount} nodes (${names}) also reject ${prediction.name}: ${cause.message}.`;
}

function pendingFix(
  input: PendingInput,
  first: { readonly cause: RejectionCause; readonly path: readonly (string | number)[] },
  placed: readonly {
    readonly cause: RejectionCause;
    readonly path: readonly (string | number)[];
    readonly finding: TextFinding;
  }[],
): FixData | undefined {
  const spec = (input.template as { spec?: unknown } | undefined)?.spec;
  if (first.cause.code === UNTOLERATED_TAINT_CODE) {
    const facts = input.nodeFacts;
    if (input.templateLocation === undefined || facts === undefined) {
      return undefined;
    }
    const rejected = new Set(first.cause.nodes);
    const tainted = input.nodes.filter((node) => rejected.has(node.name));
    const stillPending = (tolerations: readonly TolerationObject[]): string | undefined => {
      const open = tainted.filter((node) => landingBlock(node.name, facts, tolerations) === undefined);
      const requests = input.prediction.requests;
      if (open.length === 0) {
        return 'still Pending: those nodes have other taints or are cordoned';
      }
      const room = requests === undefined ? Infinity : podsThatFit(open, requests);
      return room >= input.prediction.pending
        ? undefined
        : `still Pending: those nodes have room for ${room} of the ${input.prediction.pending} Pending pods`;
    };
    return tolerationFix(input.templateLocation, first.cause.nodes, facts.taints, stillPending);
  }
  // The same nodes the hover counts: those the pod can land on (not cordoned, not tainted against it).
  const nodes = landingNodes(input.nodes, input.nodeFacts, spec);
  const requests: ShortRequest[] = placed.map(({ cause, path, finding }) => ({
    cause,
    path,
    start: finding.start,
    end: finding.end,
  }));
  return requests.length > 1
    ? lowerRequestsFix(requests, nodes)
    : lowerRequestFix(first.cause, first.path, nodes);
}
