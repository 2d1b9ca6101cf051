/**
 * The plans of a command line whose units are on several clusters (cli/unit-clusters.ts), or with units that have
 * no cluster file to plan against: one plan per cluster, each under a header naming the cluster and its units,
 * then the units not planned, each with why. JSON: a PlanList (schemas/plan.schema.json) of the plans and the
 * units not planned; one plan alone stays a Plan.
 */
import type { Plan } from '../../language/service';
import { COMMENT_LIMIT, formatPlanMarkdown, PLAN_COMMENT_MARKER } from './plan-markdown';
import { formatPlanText } from './plan-text';

/** One cluster's plan: the cluster as displayed, the units applied to it, in order, and the plan. */
export interface ClusterPlan {
  readonly cluster: string;
  readonly units: readonly string[];
  readonly plan: Plan;
}

/** A unit the command line named that no plan covers, and why. */
export interface NotPlannedUnit {
  readonly unit: string;
  readonly reason: string;
}

/** Why a unit without a cluster file is not planned. */
export const NOT_PLANNED_REASON =
  'no .foresight/cluster.yaml at or above it: the embedded default cluster runs nothing to compare with ' +
  '(make one with foresight capture, or give --cluster FILE)';

/** The JSON of several plans (schemas/plan.schema.json, `PlanList`). */
export interface PlanList {
  readonly apiVersion: 'foresight/v1';
  readonly kind: 'PlanList';
  readonly plans: readonly ClusterPlan[];
  readonly notPlanned: readonly NotPlannedUnit[];
}

/** The JSON document of several plans. */
export function planList(plans: readonly ClusterPlan[], notPlanned: readonly NotPlannedUnit[]): PlanList {
  return { apiVersion: 'foresight/v1', kind: 'PlanList', plans, notPlanned };
}

/** The plans as text: each under `=== CLUSTER: UNITS`, then the units not planned. */
export function formatPlanListText(
  plans: readonly ClusterPlan[],
  notPlanned: readonly NotPlannedUnit[],
): string {
  const parts = plans.map(
    (entry) => `=== ${entry.cluster}: ${unitsOf(entry.units)}\n${formatPlanText(entry.plan)}`,
  );
  if (notPlanned.length > 0) {
    parts.push(
      `=== not planned: ${notPlanned.length} apply unit(s)\n` +
        notPlanned.map((entry) => `  ${entry.unit}: ${entry.reason}\n`).join(''),
    );
  }
  return parts.join('\n');
}

/**
 * The plans as one pull-request comment: the marker once, each plan under a heading naming its cluster with an
 * equal share of the comment limit, then the units not planned.
 */
export function formatPlanListMarkdown(
  plans: readonly ClusterPlan[],
  notPlanned: readonly NotPlannedUnit[],
  limit: number = COMMENT_LIMIT,
): string {
  const tail =
    notPlanned.length === 0
      ? ''
      : `#### Not planned\n\n${notPlanned.map((entry) => `- \`${entry.unit}\`: ${entry.reason}`).join('\n')}\n`;
  const headings = plans.map((entry) => `#### On \`${entry.cluster}\`: ${unitsOf(entry.units)}\n\n`);
  const fixed = PLAN_COMMENT_MARKER.length + 1 + tail.length + headings.join('').length;
  const share = Math.floor((limit - fixed) / Math.max(plans.length, 1));
  const bodies = plans.map((entry, index) => {
    const body = formatPlanMarkdown(entry.plan, share).replace(`${PLAN_COMMENT_MARKER}\n`, '');
    return `${headings[index] ?? ''}${body}`;
  });
  return `${PLAN_COMMENT_MARKER}\n${bodies.join('\n')}${tail === '' ? '' : `\n${tail}`}`;
}

/** "1 apply unit (examples/web-app)", the first five named. */
function unitsOf(units: readonly string[]): string {
  const named = units.slice(0, 5);
  const more = units.length - named.length;
  return (
    `${units.length} apply unit${units.length === 1 ? '' : 's'} ` +
    `(${named.join(', ')}${more > 0 ? ` and ${more} more` : ''})`
  );
}
