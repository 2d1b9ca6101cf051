/**
 * The code lenses and hover of a file judged through its kustomize renders (issue #28; language/service/
 * document-answers.ts): the renders' lenses on the file's lines replace its folder's, the same summary of several
 * overlays is shown once, overlays that disagree are named, each overlay has its Replay of its own timeline, and
 * a lens of a render older than the text (a line the text no longer has) is not shown.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DocumentState, OverlayLens } from '../../server/src/language/service';
import { LineIndex } from '../../server/src/language/service';
import { DEFAULT_KUBERNETES_VERSION } from '../../server/src/language/service';
import { TEST_SERVICE } from '../support/language-service';

const URI = 'file:///w/base/deployment.yaml';
const TEXT = [
  '# the base',
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  name: api',
  'spec:',
  '  template:',
  '    spec:',
  '      containers: [{name: api, image: nginx}]',
  '',
].join('\n');

function stateOf(text: string): DocumentState {
  const context = TEST_SERVICE.analysisContext(DEFAULT_KUBERNETES_VERSION, 1_000_000);
  return {
    uri: URI,
    version: 1,
    text,
    lines: new LineIndex(text),
    analysis: TEST_SERVICE.analyzeText(text, context),
    context,
  };
}

/** A render's lens of Deployment api (its overlay's name prefix) at a line of the file. */
function lens(label: string, title: string, line = 1): OverlayLens {
  return {
    line,
    character: 0,
    title,
    workload: { kind: 'Deployment', namespace: 'default', name: `${label}-api` },
    label,
    replayUri: `file:///w/${label}/kustomization.yaml`,
    hover: `**Prediction** · Deployment ${label}-api: ${title}`,
  };
}

/** The lenses as "LINE TITLE REPLAY-URI" rows (line from 1). */
function rows(lenses: readonly OverlayLens[]): string[] {
  return TEST_SERVICE.codeLenses(stateOf(TEXT), undefined, lenses).map((shown) => {
    const [uri] = (shown.command?.arguments ?? []) as unknown[];
    return `${shown.range.start.line + 1} ${shown.command?.title ?? ''}${typeof uri === 'string' ? ` ${uri}` : ''}`;
  });
}

describe('the lenses of a file judged through its renders', () => {
  const cases: { name: string; lenses: OverlayLens[]; expected: string[] }[] = [
    {
      name: 'one overlay: its summary and its Replay, on the line its object came from',
      lenses: [lens('prod', '2/2 scheduled')],
      expected: ['2 2/2 scheduled', '2 Replay file:///w/prod/kustomization.yaml'],
    },
    {
      name: 'two overlays that agree: the summary once, a Replay of each named by its overlay',
      lenses: [lens('blue', '0/2 scheduled · 2 Pending'), lens('green', '0/2 scheduled · 2 Pending')],
      expected: [
        '2 0/2 scheduled · 2 Pending',
        '2 Replay blue file:///w/blue/kustomization.yaml',
        '2 Replay green file:///w/green/kustomization.yaml',
      ],
    },
    {
      name: 'two overlays that disagree: each summary named by its overlay',
      lenses: [lens('narrow', '2/2 scheduled'), lens('wide', '3/6 scheduled · 3 Pending')],
      expected: [
        '2 narrow: 2/2 scheduled',
        '2 wide: 3/6 scheduled · 3 Pending',
        '2 Replay narrow file:///w/narrow/kustomization.yaml',
        '2 Replay wide file:///w/wide/kustomization.yaml',
      ],
    },
    {
      name: 'a lens on a line the text no longer has (a render older than the edit) is not shown',
      lenses: [lens('prod', '2/2 scheduled', 40)],
      expected: [],
    },
    {
      name: 'renders that give the file no workload: no lens, not its folder’s',
      lenses: [],
      expected: [],
    },
  ];
  for (const { name, lenses, expected } of cases) {
    test(name, () => {
      assert.deepEqual(rows(lenses), expected);
    });
  }
});

describe('the hover of a file judged through its renders', () => {
  const state = stateOf(TEXT);
  const onKind = TEXT.indexOf('Deployment');
  const hoverOf = (lenses: readonly OverlayLens[], offset = onKind): string => {
    const hover = TEST_SERVICE.hover(state, offset, undefined, lenses);
    const contents = hover?.contents;
    return typeof contents === 'object' && 'value' in contents ? contents.value : '';
  };

  test('on the kind: the render’s prediction, then the schema’s description', () => {
    const value = hoverOf([lens('prod', 'all 2 scheduled')]);
    assert.match(
      value,
      /^\*\*Prediction\*\* · Deployment prod-api: all 2 scheduled\n\n---\n\n\*\*`Deployment`\*\*/,
    );
  });

  test('overlays that disagree: each prediction under its overlay’s name', () => {
    const value = hoverOf([lens('narrow', 'all 2 scheduled'), lens('wide', '3 of 6 Pending')]);
    assert.match(
      value,
      /^\*\*overlay `narrow`\*\*\n\n\*\*Prediction\*\* · Deployment narrow-api: all 2 scheduled\n\n---\n\n\*\*overlay `wide`\*\*\n\n\*\*Prediction\*\* · Deployment wide-api: 3 of 6 Pending\n\n---\n\n/,
    );
  });

  test('elsewhere than the kind or name (a container’s image): no prediction, only the schema', () => {
    const value = hoverOf([lens('prod', 'all 2 scheduled')], TEXT.indexOf('nginx'));
    assert.doesNotMatch(value, /Prediction/);
  });
});
