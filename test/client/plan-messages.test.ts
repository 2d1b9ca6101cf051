/**
 * The host's checks of what the Preview Apply page sends back (client/src/panel/plan-message-check.ts): messages
 * are untrusted (the page renders manifest strings), a source link is opened only at a place the plan names, and
 * the saved state VS Code hands the serializer after a reload names a file folder or nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { isPlanPlace, parsePlanMessage, readPlanViewState } from '../../client/src/panel/plan-message-check';
import { PLAN_VIEW_TYPE } from '../../client/src/panel/view-type';
import type { Plan } from '../../protocol/plan';

const FILE = 'file:///work/app/web.yaml';

describe('plan page → host message check', () => {
  const cases: readonly { name: string; input: unknown; expected: unknown }[] = [
    { name: 'a ready message is accepted', input: { type: 'ready' }, expected: { type: 'ready' } },
    { name: 'a reload message is accepted', input: { type: 'reload' }, expected: { type: 'reload' } },
    {
      name: 'an openTimeline message is accepted',
      input: { type: 'openTimeline' },
      expected: { type: 'openTimeline' },
    },
    {
      name: 'an openSource message with a file URI and a 1-based line is accepted',
      input: { type: 'openSource', file: FILE, line: 3 },
      expected: { type: 'openSource', file: FILE, line: 3 },
    },
    {
      name: 'an openSource of another scheme is dropped',
      input: { type: 'openSource', file: 'command:x', line: 3 },
      expected: undefined,
    },
    {
      name: 'an openSource at line 0 is dropped',
      input: { type: 'openSource', file: FILE, line: 0 },
      expected: undefined,
    },
    {
      name: 'an openSource at a fractional line is dropped',
      input: { type: 'openSource', file: FILE, line: 2.5 },
      expected: undefined,
    },
    {
      name: 'an openSource with a line as text is dropped',
      input: { type: 'openSource', file: FILE, line: '3' },
      expected: undefined,
    },
    {
      name: 'an openSource with an extra field is dropped',
      input: { type: 'openSource', file: FILE, line: 3, preview: true },
      expected: undefined,
    },
    {
      name: 'an openSource with a URI longer than any path is dropped',
      input: { type: 'openSource', file: `file:///${'a'.repeat(5000)}`, line: 1 },
      expected: undefined,
    },
    {
      name: "the timeline page's revealPod is no message of this page",
      input: { type: 'revealPod', namespace: 'a', name: 'b' },
      expected: undefined,
    },
    {
      name: 'a ready message with extra fields is dropped',
      input: { type: 'ready', extra: 1 },
      expected: undefined,
    },
    { name: 'null is dropped', input: null, expected: undefined },
    { name: 'an array is dropped', input: [{ type: 'ready' }], expected: undefined },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      assert.deepEqual(parsePlanMessage(entry.input), entry.expected);
    });
  }
});

describe('a source link opens only a place the plan names', () => {
  const plan = {
    objects: [{ file: FILE, line: 3 }],
    problems: [
      { file: FILE, line: 12 },
      { file: null, line: null },
    ],
  } as unknown as Plan;
  const cases: readonly { name: string; file: string; line: number; expected: boolean }[] = [
    { name: "an object's first line", file: FILE, line: 3, expected: true },
    { name: "a problem's line", file: FILE, line: 12, expected: true },
    { name: 'another line of the same file', file: FILE, line: 4, expected: false },
    { name: 'a file the plan does not name', file: 'file:///etc/passwd', line: 1, expected: false },
  ];
  for (const entry of cases) {
    test(`${entry.name}: ${entry.expected ? 'opened' : 'refused'}`, () => {
      assert.equal(isPlanPlace(plan, entry.file, entry.line), entry.expected);
    });
  }
});

describe('the Preview Apply panel after a reload', () => {
  test('its saved state names a file folder, or nothing', () => {
    assert.equal(readPlanViewState({ folderUri: 'file:///work/app' }), 'file:///work/app');
    assert.equal(readPlanViewState({ folderUri: 'https://example.com' }), undefined);
    assert.equal(readPlanViewState({ folderUri: 7 }), undefined);
    assert.equal(readPlanViewState(null), undefined);
  });

  test('the manifest contributes the command and revives the panel by its view type', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      activationEvents: string[];
      contributes: { commands: { command: string; title: string; category: string }[] };
    };
    assert.deepEqual(
      manifest.contributes.commands.find((command) => command.command === 'kubeForesight.previewApply'),
      { command: 'kubeForesight.previewApply', title: 'Preview Apply', category: 'Kube Foresight' },
    );
    assert.ok(manifest.activationEvents.includes(`onWebviewPanel:${PLAN_VIEW_TYPE}`));
  });
});
