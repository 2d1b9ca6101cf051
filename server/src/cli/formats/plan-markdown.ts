/**
 * A plan as GitHub-flavoured Markdown for a pull-request comment: a hidden marker (so CI finds and updates its own
 * comment), the verdict line and a table of counts at the top, then one collapsible `<details>` section per part
 * (problems, rollouts, changes, capacity, scope) in a fixed order. The text stays under GitHub's 65,536-character
 * comment limit: rows are added while they fit, and a section cut short says "… N more" and where the rest is.
 * https://docs.github.com/en/get-started/writing-on-github/working-with-advanced-formatting/organizing-information-with-collapsed-sections
 */
import type { Plan } from '../../language/service';
import { readableBytes } from '../../../../protocol/readable-bytes';
import { leftAloneSentence, objectName, placeOf, rolloutLines } from './plan-text';

/** The marker a CI job looks for to update the comment it posted before. */
export const PLAN_COMMENT_MARKER = '<!-- foresight-plan -->';

/** GitHub's limit on a comment's body, in characters. */
export const COMMENT_LIMIT = 65_536;

/** Characters kept free for the closing tags and the "… N more" lines of the sections after a cut. */
const RESERVE = 4_000;

/** One collapsible section: its title, the table's header (none: a list), and its rows. */
interface Section {
  readonly title: string;
  readonly header: readonly string[] | null;
  readonly rows: readonly string[][];
  /** A paragraph after the rows (not cut). */
  readonly after?: string;
  /** What the cut rows are ("objects"). */
  readonly noun: string;
}

/** The plan as Markdown, at most COMMENT_LIMIT characters. */
export function formatPlanMarkdown(plan: Plan, limit: number = COMMENT_LIMIT): string {
  const { verdict } = plan;
  const head = [
    PLAN_COMMENT_MARKER,
    `### Kube Foresight plan: **${verdict.outcome}**`,
    '',
    escapeText(verdict.summary),
    '',
    '| verdict | create | configure | unchanged | left alone | rollouts | failures | warnings |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${verdict.outcome} | ${verdict.created} | ${verdict.configured} | ${verdict.unchanged} | ${verdict.leftAlone} | ` +
      `${verdict.rollouts} | ${verdict.failures} | ${verdict.warnings} |`,
    '',
    `Kubernetes ${plan.kubernetesVersion} · ${escapeText(plan.cluster.source)} · ${plan.cluster.nodes} nodes · ` +
      `the cluster ${plan.timeline.settled ? 'settles' : 'is still moving'} at t=${plan.timeline.endTime}s`,
    '',
    '',
  ].join('\n');
  let text = head;
  const budget = limit - RESERVE;
  for (const section of sectionsOf(plan)) {
    text += `<details><summary>${escapeText(section.title)}</summary>\n\n`;
    if (section.header !== null && section.rows.length > 0) {
      text += `${tableRow(section.header)}\n${tableRow(section.header.map(() => '---'))}\n`;
    }
    let shown = 0;
    for (const row of section.rows) {
      const line = section.header === null ? `- ${row.join(' ')}\n` : `${tableRow(row)}\n`;
      if (text.length + line.length > budget) {
        break;
      }
      text += line;
      shown++;
    }
    if (section.rows.length === 0) {
      text += 'none\n';
    }
    if (shown < section.rows.length) {
      text +=
        `\n… ${section.rows.length - shown} more ${section.noun} not shown (a comment holds ${limit} ` +
        'characters): `foresight plan --output json` lists them all.\n';
    }
    if (section.after !== undefined) {
      text += `\n${section.after}\n`;
    }
    text += '\n</details>\n\n';
  }
  return text;
}

function sectionsOf(plan: Plan): Section[] {
  const problems = plan.problems.map((problem) => [
    problem.severity,
    code(problem.code),
    code(placeOf(problem.file, problem.line)),
    escapeCell(problem.message) + (problem.isPreexisting ? ' *(already so without this apply)*' : ''),
  ]);
  const changes = plan.objects.map((object) => [
    object.action,
    escapeCell(objectName(object)),
    code(placeOf(object.file, object.line)),
    [
      ...object.changes.map(
        (change) =>
          `${code(change.path)}: ${code(change.old ?? '(none)')} → ${code(change.new ?? '(removed)')}`,
      ),
      ...(object.note === null ? [] : [escapeCell(object.note)]),
    ].join('<br>'),
  ]);
  const capacity = plan.capacity;
  return [
    {
      title: `Problems (${plan.problems.length})`,
      header: ['severity', 'code', 'where', 'finding'],
      rows: problems,
      noun: 'problems',
    },
    {
      title: `Rollouts (${plan.rollouts.length})`,
      header: null,
      rows: plan.rollouts.map((rollout) => [
        escapeText(rolloutLines(rollout).join('; ').replace(/\s+/g, ' ')),
      ]),
      noun: 'rollouts',
    },
    {
      title: `Changes (${plan.objects.length} objects)`,
      header: ['action', 'object', 'source', 'fields that change'],
      rows: changes,
      after: escapeText(leftAloneSentence(plan)),
      noun: 'objects',
    },
    {
      title: 'Capacity (requested: before → after)',
      header: ['node group or zone', 'nodes', 'cpu', 'memory'],
      rows: capacity.groups.map((group) => [
        escapeCell(group.group),
        `${group.nodesBefore} → ${group.nodesAfter}`,
        `${group.cpuBefore} → ${group.cpuAfter} of ${group.cpuAllocatable}`,
        `${readableBytes(group.memoryBefore)} → ${readableBytes(group.memoryAfter)} of ${readableBytes(group.memoryAllocatable)}`,
      ]),
      after: [
        ...capacity.nodesAdded.map(
          (node) =>
            `- node added: ${code(node.node)} (group ${escapeText(node.group)}), Ready at ${node.readyAt}s`,
        ),
        ...capacity.nodesRemoved.map(
          (node) => `- node removed: ${code(node.node)} (group ${escapeText(node.group)}) at ${node.time}s`,
        ),
        ...capacity.podsMoved.map(
          (pod) => `- pod moved: ${code(pod.pod)} ${code(pod.from)} → ${code(pod.to ?? 'Pending')}`,
        ),
        capacity.podsMoved.length === 0 ? '- no running pod moves to another node' : '',
      ]
        .filter((line) => line !== '')
        .join('\n'),
      noun: 'node groups',
    },
    {
      title: `What this plan cannot know (${plan.scope.length})`,
      header: null,
      rows: plan.scope.map((sentence) => [escapeText(sentence)]),
      noun: 'notes',
    },
  ];
}

function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** A code span that survives a table cell: no backtick or line break inside, pipes escaped. */
function code(text: string): string {
  return `\`${text
    .replace(/`/g, "'")
    .replace(/[\r\n]+/g, ' ')
    .replace(/\|/g, '\\|')}\``;
}

/** Text in a table cell: HTML and Markdown specials neutralised, pipes escaped, on one line. */
function escapeCell(text: string): string {
  return escapeText(text).replace(/\|/g, '\\|');
}

/** Text outside code: no HTML, no emphasis or links from the user's names, on one line. */
function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]#])/g, '\\$1')
    .replace(/[\r\n]+/g, ' ');
}
