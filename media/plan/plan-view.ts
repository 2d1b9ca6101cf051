/**
 * The Preview Apply page's view: first the changes `kubectl apply` makes (created, configured with the fields that
 * change, unchanged, and the cluster's objects left alone), then the consequences (rollouts with their waves, time
 * and peak unavailable; what fails or needs a look, with its finding; capacity before and after; what the plan
 * cannot know), the verdict on top. Every item with a place links to it: a click posts `openSource` with its file
 * and line, which the host opens only if the plan names that place. Everything from a manifest goes in as text
 * (dom.ts), never as HTML.
 */
import type { Plan, PlanObject, PlanProblem } from '../../protocol/plan';
import type { HostToPlanMessage, PlanToHostMessage } from '../../protocol/plan-messages';
import type { PanelFolder } from '../../protocol/webview-messages';
import { h, replaceChildren } from '../dom';
import { capacitySection, rolloutItem } from './plan-consequences';

/** Posts a message to the host. */
export type PostToHost = (message: PlanToHostMessage) => void;

/** Shows a message of the host. */
export function renderPlanMessage(root: HTMLElement, message: HostToPlanMessage, post: PostToHost): void {
  root.setAttribute('aria-busy', message.type === 'loading' ? 'true' : 'false');
  root.dataset['state'] = message.type;
  switch (message.type) {
    case 'loading':
      replaceChildren(
        root,
        header(message.folder, null, post),
        h('p', { className: 'notice', text: 'Planning…' }),
      );
      break;
    case 'unavailable':
      replaceChildren(root, unavailable(message.message, message.needsCluster, message.isError, post));
      break;
    case 'plan':
      replaceChildren(root, ...planView(message.folder, message.cluster, message.plan, post));
      break;
  }
}

function unavailable(
  message: string,
  needsCluster: boolean,
  isError: boolean,
  post: PostToHost,
): HTMLElement {
  const box = h('div', {
    className: `notice${isError ? ' is-error' : ''}${needsCluster ? ' needs-cluster' : ''}`,
  });
  box.append(h('h2', { text: needsCluster ? 'A plan needs a cluster file or a capture' : 'No plan' }));
  box.append(h('p', { className: 'notice-message', text: message }));
  if (needsCluster) {
    box.append(
      h('p', {
        text: 'From a terminal with access to the cluster, in the manifests’ folder (it writes .foresight/cluster.yaml):',
      }),
      h('pre', { text: 'foresight capture' }),
    );
  }
  box.append(actionButton('Plan again', () => post({ type: 'reload' })));
  return box;
}

function planView(folder: PanelFolder, cluster: string, plan: Plan, post: PostToHost): HTMLElement[] {
  const { verdict } = plan;
  const verdictLine = h('p', {
    className: `verdict is-${verdict.outcome.replace(/ /g, '-')}`,
    text: verdict.summary,
    attrs: { role: 'status' },
  });
  const link = (file: string | null, line: number | null): HTMLElement | null =>
    sourceLink(folder, file, line, post);
  return [
    header(folder, cluster, post, plan),
    verdictLine,
    changesSection(plan, link),
    h('h2', { className: 'part', text: 'What follows' }),
    rolloutsSection(plan, link),
    problemsSection(plan.problems, link),
    capacitySection(plan),
    listSection('What this plan cannot know', plan.scope, 'scope'),
    timelineLine(plan, post),
  ];
}

function header(folder: PanelFolder, cluster: string | null, post: PostToHost, plan?: Plan): HTMLElement {
  const facts = h('div', { className: 'meta' });
  if (cluster !== null) {
    facts.append(h('span', { className: 'meta-item', text: `against ${cluster}` }));
  }
  if (plan !== undefined) {
    facts.append(
      h('span', { className: 'meta-item', text: `Kubernetes ${plan.kubernetesVersion}` }),
      h('span', { className: 'meta-item', text: `${plan.cluster.nodes} nodes` }),
    );
  }
  const actions = h(
    'div',
    { className: 'actions' },
    actionButton('Plan again', () => post({ type: 'reload' })),
  );
  if (plan !== undefined) {
    actions.prepend(actionButton('Open the timeline', () => post({ type: 'openTimeline' })));
  }
  return h(
    'header',
    { className: 'top' },
    h(
      'h1',
      { className: 'title' },
      document.createTextNode('Preview Apply: '),
      h('span', { text: folder.name }),
    ),
    actions,
    facts,
  );
}

type LinkOf = (file: string | null, line: number | null) => HTMLElement | null;

function changesSection(plan: Plan, link: LinkOf): HTMLElement {
  const section = h('section', { className: 'changes' }, h('h2', { className: 'part', text: 'Changes' }));
  const list = h('ul', { className: 'rows' });
  for (const object of plan.objects) {
    list.append(changeRow(object, link));
  }
  if (plan.objects.length === 0) {
    list.append(h('li', { className: 'muted', text: 'The input holds no object.' }));
  }
  section.append(list);
  if (plan.leftAlone.length > 0) {
    const details = h(
      'details',
      { className: 'left-alone' },
      h('summary', {
        text: `left alone: ${plan.leftAlone.length} object(s) of the cluster not in the input (kubectl apply without --prune deletes nothing)`,
      }),
    );
    details.append(h('ul', {}, ...plan.leftAlone.map((name) => h('li', { text: name }))));
    section.append(details);
  }
  return section;
}

function changeRow(object: PlanObject, link: LinkOf): HTMLElement {
  const name = object.namespace === null ? object.name : `${object.namespace}/${object.name}`;
  const row = h(
    'li',
    { className: `row change is-${object.action}`, dataset: { action: object.action } },
    h('span', { className: `badge is-${object.action}`, text: object.action }),
    h('span', { className: 'subject', text: `${object.kind} ${name}` }),
  );
  const place = link(object.file, object.line);
  if (place !== null) {
    row.append(place);
  }
  if (object.changes.length > 0) {
    const fields = h('ul', { className: 'fields' });
    for (const change of object.changes) {
      fields.append(
        h(
          'li',
          {},
          h('code', { className: 'path', text: change.path }),
          h('span', { className: 'old', text: change.old ?? '(new)' }),
          h('span', { className: 'arrow', text: '→' }),
          h('span', { className: 'new', text: change.new ?? '(removed)' }),
        ),
      );
    }
    row.append(fields);
  }
  if (object.note !== null) {
    row.append(h('p', { className: 'note', text: object.note }));
  }
  return row;
}

function rolloutsSection(plan: Plan, link: LinkOf): HTMLElement {
  const section = h(
    'section',
    { className: 'rollouts' },
    h('h3', { text: `Rollouts (${plan.rollouts.length})` }),
  );
  const list = h('ul', { className: 'rows' });
  for (const rollout of plan.rollouts) {
    const object = plan.objects.find(
      (entry) =>
        entry.kind === rollout.kind && entry.name === rollout.name && entry.namespace === rollout.namespace,
    );
    list.append(rolloutItem(rollout, object === undefined ? null : link(object.file, object.line)));
  }
  if (plan.rollouts.length === 0) {
    list.append(h('li', { className: 'muted', text: 'No workload rolls.' }));
  }
  section.append(list);
  return section;
}

function problemsSection(problems: readonly PlanProblem[], link: LinkOf): HTMLElement {
  const section = h('section', { className: 'problems' }, h('h3', { text: `Problems (${problems.length})` }));
  const list = h('ul', { className: 'rows' });
  for (const problem of problems) {
    const row = h(
      'li',
      { className: `row problem is-${problem.severity}` },
      h('span', { className: `badge is-${problem.severity}`, text: problem.severity }),
      h('span', { className: 'message', text: problem.message }),
      h('code', { className: 'code', text: problem.code }),
    );
    if (problem.isPreexisting) {
      row.append(h('span', { className: 'muted', text: 'already in the cluster' }));
    }
    const place = link(problem.file, problem.line);
    if (place !== null) {
      row.append(place);
    }
    list.append(row);
  }
  if (problems.length === 0) {
    list.append(h('li', { className: 'muted', text: 'Nothing fails or needs a look.' }));
  }
  section.append(list);
  return section;
}

function listSection(title: string, lines: readonly string[], className: string): HTMLElement {
  return h(
    'section',
    { className },
    h('h3', { text: title }),
    h('ul', {}, ...lines.map((line) => h('li', { text: line }))),
  );
}

function timelineLine(plan: Plan, post: PostToHost): HTMLElement {
  const { endTime, settled } = plan.timeline;
  return h(
    'p',
    { className: 'timeline-line' },
    document.createTextNode(
      settled ? `The cluster settles at t=${endTime}s. ` : `The cluster is still moving at t=${endTime}s. `,
    ),
    actionButton('Replay it in the timeline', () => post({ type: 'openTimeline' }), 'link'),
  );
}

/** A link to a place of the plan ("web.yaml:3"), or null when the plan has no line for it. */
function sourceLink(
  folder: PanelFolder,
  file: string | null,
  line: number | null,
  post: PostToHost,
): HTMLElement | null {
  if (file === null || line === null || !file.startsWith('file:')) {
    return null;
  }
  const label = `${displayPath(folder, file)}:${line}`;
  const button = actionButton(label, () => post({ type: 'openSource', file, line }), 'link source');
  button.dataset['file'] = file;
  button.dataset['line'] = String(line);
  button.setAttribute('title', `Open ${label}`);
  return button;
}

/** A file URI as a path relative to the folder, else its name. */
function displayPath(folder: PanelFolder, file: string): string {
  const relative = file.startsWith(`${folder.uri}/`)
    ? file.slice(folder.uri.length + 1)
    : file.split('/').pop();
  try {
    return decodeURIComponent(relative ?? file);
  } catch {
    return relative ?? file;
  }
}

function actionButton(text: string, onClick: () => void, className = 'action'): HTMLButtonElement {
  const button = h('button', { className, text, attrs: { type: 'button' } });
  button.addEventListener('click', onClick);
  return button;
}
