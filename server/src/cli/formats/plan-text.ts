/**
 * A plan as text for a terminal: the changes object by object (with the fields that change), what the apply leaves
 * alone, the rollouts, the problems with their file:line, capacity before → after, what the plan cannot know, and
 * the verdict as the last line (where a terminal leaves the eye, as `terraform plan` ends with its summary).
 */
import type { Plan, PlanObject, PlanProblem, PlanRollout } from '../../language/service';
import { appendAll, maxOf } from '../../../../protocol/collections';
import { readableBytes } from '../../../../protocol/readable-bytes';

/** How many left-alone objects the text and the markdown name before "… N more". */
export const LEFT_ALONE_SHOWN = 10;

/** The plan as text. */
export function formatPlanText(plan: Plan): string {
  const lines: string[] = [
    `Plan · Kubernetes ${plan.kubernetesVersion} · ${plan.cluster.source} · ${plan.cluster.nodes} nodes`,
    '',
    'Changes (kubectl apply)',
  ];
  for (const object of plan.objects) {
    lines.push(
      `  ${object.action.padEnd(10)}  ${objectName(object)}  (${placeOf(object.file, object.line)})`,
    );
    for (const change of object.changes) {
      lines.push(`      ${change.path}: ${change.old ?? '(none)'} → ${change.new ?? '(removed)'}`);
    }
    if (object.note !== null) {
      lines.push(`      note: ${object.note}`);
    }
  }
  if (plan.objects.length === 0) {
    lines.push('  (the input holds no object)');
  }
  lines.push(`  ${leftAloneSentence(plan)}`);
  if (plan.rollouts.length > 0) {
    lines.push('', 'Rollouts');
    appendAll(
      lines,
      plan.rollouts.flatMap((rollout) => rolloutLines(rollout).map((line) => `  ${line}`)),
    );
  }
  if (plan.problems.length > 0) {
    lines.push('', 'Problems');
    appendAll(
      lines,
      plan.problems.map((problem) => `  ${problemLine(problem)}`),
    );
  }
  appendAll(lines, [
    '',
    'Capacity (requested: before → after, of allocatable after)',
    ...capacityLines(plan),
  ]);
  if (plan.scope.length > 0) {
    lines.push('', 'What this plan cannot know');
    appendAll(
      lines,
      plan.scope.map((sentence) => `  - ${sentence}`),
    );
  }
  lines.push(
    '',
    `Timeline: ${plan.timeline.settled ? 'the cluster settles' : 'stopped'} at t=${plan.timeline.endTime}s.`,
    plan.verdict.summary,
  );
  return `${lines.join('\n')}\n`;
}

/** "Deployment store/catalog". */
export function objectName(object: Pick<PlanObject, 'kind' | 'namespace' | 'name'>): string {
  return `${object.kind} ${object.namespace === null ? object.name : `${object.namespace}/${object.name}`}`;
}

/** "web.yaml:12", or the file alone. */
export function placeOf(file: string | null, line: number | null): string {
  return file === null ? 'cluster' : line === null ? file : `${file}:${line}`;
}

/** The one sentence about the cluster's objects the apply does not touch. */
export function leftAloneSentence(plan: Plan): string {
  const count = plan.leftAlone.length;
  const named = plan.leftAlone.slice(0, LEFT_ALONE_SHOWN).join(', ');
  const more = count > LEFT_ALONE_SHOWN ? `, … ${count - LEFT_ALONE_SHOWN} more` : '';
  return count === 0
    ? 'left alone: none (kubectl apply without --prune deletes nothing)'
    : `left alone: ${count} object(s) of the cluster not in the input (kubectl apply without --prune deletes nothing): ${named}${more}`;
}

/** A rollout in one or two lines. */
export function rolloutLines(rollout: PlanRollout): string[] {
  const what = rollout.isNew
    ? `${rollout.replicas} pod(s) created`
    : `${rollout.podsReplaced} of ${rollout.replicas} pod(s) replaced`;
  const time =
    rollout.duration === null
      ? `never completes: ${rollout.outcome} (${rollout.message})`
      : `complete in ${rollout.duration}s from t=${rollout.startedAt}s`;
  const unavailable = rollout.isNew
    ? ''
    : `; at most ${rollout.peakUnavailable} of ${rollout.replicas} unavailable at once`;
  const lines = [
    `${rollout.kind} ${rollout.namespace}/${rollout.name} (${rollout.strategy}): ${what} in ${rollout.waves} wave(s), ` +
      `${time}${unavailable}`,
  ];
  for (const budget of rollout.budgets) {
    lines.push(
      `    PodDisruptionBudget ${budget.name}: disruptionsAllowed never below ${budget.minDisruptionsAllowed}`,
    );
  }
  return lines;
}

/** "error pod-unschedulable web.yaml:9: message". */
export function problemLine(problem: PlanProblem): string {
  return (
    `${problem.severity} ${problem.code} ${placeOf(problem.file, problem.line)}: ${problem.message}` +
    (problem.isPreexisting ? ' (already so without this apply)' : '')
  );
}

function capacityLines(plan: Plan): string[] {
  const rows = [
    ['NODE GROUP OR ZONE', 'NODES', 'CPU', 'MEMORY'],
    ...plan.capacity.groups.map((group) => [
      group.group,
      `${group.nodesBefore} → ${group.nodesAfter}`,
      `${group.cpuBefore} → ${group.cpuAfter} of ${group.cpuAllocatable}`,
      `${readableBytes(group.memoryBefore)} → ${readableBytes(group.memoryAfter)} of ${readableBytes(group.memoryAllocatable)}`,
    ]),
  ];
  const widths = [0, 1, 2].map((column) => maxOf(rows.map((row) => (row[column] ?? '').length)));
  const lines = rows.map((row) =>
    `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd(),
  );
  for (const added of plan.capacity.nodesAdded) {
    lines.push(`  node added: ${added.node} (group ${added.group}), Ready at ${added.readyAt}s`);
  }
  for (const removed of plan.capacity.nodesRemoved) {
    lines.push(`  node removed: ${removed.node} (group ${removed.group}) at ${removed.time}s`);
  }
  for (const moved of plan.capacity.podsMoved) {
    lines.push(`  pod moved: ${moved.pod} ${moved.from} → ${moved.to ?? 'Pending'}`);
  }
  if (plan.capacity.podsMoved.length === 0) {
    lines.push('  no running pod moves to another node');
  }
  return lines;
}
