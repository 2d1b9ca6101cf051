/**
 * The host's checks of what the timeline page sends back: messages (untrusted: the page renders manifest strings)
 * and the saved view state VS Code hands the serializer after a reload.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_FIELD_LENGTH, parseWebviewMessage } from '../../client/src/panel/webview-message-check';
import { readPanelViewState } from '../../protocol/webview-messages';

describe('webview → host message check', () => {
  const cases: readonly { name: string; input: unknown; expected: unknown }[] = [
    { name: 'a ready message is accepted', input: { type: 'ready' }, expected: { type: 'ready' } },
    { name: 'a reload message is accepted', input: { type: 'reload' }, expected: { type: 'reload' } },
    {
      name: 'an openOverlay message with a position in the report is accepted',
      input: { type: 'openOverlay', index: 1 },
      expected: { type: 'openOverlay', index: 1 },
    },
    {
      name: 'an openOverlay with a negative position is dropped',
      input: { type: 'openOverlay', index: -1 },
      expected: undefined,
    },
    {
      name: 'an openOverlay with a fractional position is dropped',
      input: { type: 'openOverlay', index: 0.5 },
      expected: undefined,
    },
    {
      name: 'an openOverlay carrying a folder URI is dropped: the host opens only an overlay its report names',
      input: { type: 'openOverlay', index: 0, uri: 'file:///etc' },
      expected: undefined,
    },
    {
      name: 'a revealPod message with a namespace and a name is accepted',
      input: { type: 'revealPod', namespace: 'default', name: 'web-0' },
      expected: { type: 'revealPod', namespace: 'default', name: 'web-0' },
    },
    {
      name: 'a revealPod name of HTML is accepted as the string it is (the host only looks it up)',
      input: { type: 'revealPod', namespace: 'default', name: '<img src=x onerror=alert(1)>' },
      expected: { type: 'revealPod', namespace: 'default', name: '<img src=x onerror=alert(1)>' },
    },
    { name: 'an unknown type is dropped', input: { type: 'runCommand', command: 'rm' }, expected: undefined },
    { name: 'a message without a type is dropped', input: { name: 'x' }, expected: undefined },
    { name: 'a type that is not a string is dropped', input: { type: ['ready'] }, expected: undefined },
    { name: 'null is dropped', input: null, expected: undefined },
    { name: 'a string is dropped', input: 'ready', expected: undefined },
    { name: 'an array is dropped', input: [{ type: 'ready' }], expected: undefined },
    {
      name: 'a ready message with extra fields is dropped',
      input: { type: 'ready', extra: 1 },
      expected: undefined,
    },
    {
      name: 'a message with an own __proto__ key is dropped',
      input: JSON.parse('{"type":"ready","__proto__":{"polluted":true}}') as unknown,
      expected: undefined,
    },
    {
      name: 'a revealPod without a namespace is dropped',
      input: { type: 'revealPod', name: 'x' },
      expected: undefined,
    },
    {
      name: 'a revealPod with a numeric name is dropped',
      input: { type: 'revealPod', namespace: 'default', name: 42 },
      expected: undefined,
    },
    {
      name: 'a revealPod with an empty name is dropped',
      input: { type: 'revealPod', namespace: 'default', name: '' },
      expected: undefined,
    },
    {
      name: 'a revealPod with a name longer than the limit is dropped',
      input: { type: 'revealPod', namespace: 'default', name: 'a'.repeat(MAX_FIELD_LENGTH + 1) },
      expected: undefined,
    },
    {
      name: 'a revealPod carrying a file URI is dropped: the host never opens what the page names',
      input: { type: 'revealPod', namespace: 'default', name: 'x', uri: 'file:///etc/passwd' },
      expected: undefined,
    },
  ];
  for (const { name, input, expected } of cases) {
    test(name, () => {
      assert.deepEqual(parseWebviewMessage(input), expected);
    });
  }
});

describe('saved view state check', () => {
  const valid = {
    folderUri: 'file:///w/app',
    time: 12.5,
    cursor: 40,
    speed: 10,
    selectedPod: 'default/web-0',
    eventFilter: 'Drain',
  };
  const cases: readonly { name: string; input: unknown; expected: unknown }[] = [
    { name: 'a complete state is read as it is', input: valid, expected: valid },
    {
      name: 'a state without folder, pod or filter reads them as null and empty',
      input: { time: 0, cursor: 0, speed: 1 },
      expected: { folderUri: null, time: 0, cursor: 0, speed: 1, selectedPod: null, eventFilter: '' },
    },
    {
      name: 'fields of the wrong type fall back',
      input: { ...valid, folderUri: 7, selectedPod: {}, eventFilter: ['x'] },
      expected: { ...valid, folderUri: null, selectedPod: null, eventFilter: '' },
    },
    { name: 'a negative time is refused', input: { ...valid, time: -1 }, expected: null },
    { name: 'an infinite cursor is refused', input: { ...valid, cursor: Infinity }, expected: null },
    { name: 'a missing speed is refused', input: { time: 1, cursor: 1 }, expected: null },
    { name: 'undefined (a panel never saved) is null', input: undefined, expected: null },
  ];
  for (const { name, input, expected } of cases) {
    test(name, () => {
      assert.deepEqual(readPanelViewState(input), expected);
    });
  }
});
