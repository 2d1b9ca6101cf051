import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isScalar } from 'yaml';
import type { Node } from 'yaml';
import {
  fieldRangesUnder,
  nodeAtPath,
  rangeForField,
  rangeForKey,
  rangeForValue,
} from '../../../server/src/language/yaml/node-at-path';
import type { InstancePath } from '../../../server/src/language/yaml/node-at-path';
import { parseSlice } from '../../../server/src/language/yaml/parse-document';

const TEXT = [
  'spec:',
  '  template:',
  '    metadata:',
  '      labels: {app: web}',
  '    spec:',
  '      containers:',
  '        - name: app',
  '          resources:',
  '            requests:',
  '              cpu: 100m',
  '      empty:',
  '      nulled: null',
  '      tolerations: []',
  '      flags: {debug}',
  '      ? explicit',
  '',
].join('\n');

const root = parseSlice(TEXT)[0]?.document?.contents as Node;

/** The placing rangeForField stands for: the value when it is a scalar, else the key (or nearest parent's). */
function placedBefore(path: InstancePath): readonly [number, number] | undefined {
  return isScalar(nodeAtPath(root, path)) ? rangeForValue(root, path) : rangeForKey(root, path);
}

describe('rangeForField and fieldRangesUnder place as nodeAtPath then rangeForValue or rangeForKey did', () => {
  const cases: { name: string; prefix: InstancePath; path: InstancePath; text: string }[] = [
    {
      name: 'a scalar request is placed on its value',
      prefix: ['spec', 'template'],
      path: ['spec', 'containers', 0, 'resources', 'requests', 'cpu'],
      text: '100m',
    },
    { name: 'a map is placed on its key', prefix: ['spec', 'template'], path: ['spec'], text: 'spec' },
    {
      name: 'a missing field is placed on the key of its nearest parent',
      prefix: ['spec', 'template'],
      path: ['spec', 'containers', 0, 'resources', 'limits', 'cpu'],
      text: 'resources',
    },
    {
      name: 'a field written without a value is placed on its empty value',
      prefix: ['spec', 'template'],
      path: ['spec', 'empty'],
      text: '',
    },
    {
      name: 'a pair without a value node is placed on its key',
      prefix: ['spec', 'template'],
      path: ['spec', 'explicit'],
      text: 'explicit',
    },
    {
      name: 'a path under a pair without a value node is placed on its key',
      prefix: ['spec', 'template', 'spec', 'flags'],
      path: ['debug', 'x'],
      text: 'debug',
    },
    {
      name: 'a null is placed on its value',
      prefix: ['spec', 'template'],
      path: ['spec', 'nulled'],
      text: 'null',
    },
    {
      name: 'an empty sequence is placed on its key',
      prefix: ['spec', 'template'],
      path: ['spec', 'tolerations'],
      text: 'tolerations',
    },
    {
      name: 'a sequence item past the end falls back to the sequence key',
      prefix: ['spec', 'template'],
      path: ['spec', 'containers', 3, 'name'],
      text: 'containers',
    },
    {
      name: 'a name on a sequence falls back to the sequence key',
      prefix: ['spec', 'template'],
      path: ['spec', 'containers', 'name'],
      text: 'containers',
    },
    {
      name: 'a flow map is placed on its key',
      prefix: ['spec'],
      path: ['template', 'metadata', 'labels'],
      text: 'labels',
    },
    {
      name: 'a missing prefix is placed on the key of its deepest existing part',
      prefix: ['spec', 'jobTemplate'],
      path: ['spec'],
      text: 'spec',
    },
    {
      name: 'a prefix ending on a pair without a value node places everything on its key',
      prefix: ['spec', 'template', 'spec', 'explicit'],
      path: ['x'],
      text: 'explicit',
    },
    {
      name: 'an empty path under a prefix is the prefix',
      prefix: ['spec', 'template'],
      path: [],
      text: 'template',
    },
    {
      name: 'a path under a scalar falls back to the scalar',
      prefix: ['spec', 'template', 'spec', 'containers', 0, 'name'],
      path: ['x'],
      text: 'name',
    },
  ];
  for (const { name, prefix, path, text } of cases) {
    test(name, () => {
      const full = [...prefix, ...path];
      const expected = placedBefore(full);
      assert.ok(expected);
      assert.equal(TEXT.slice(expected[0], expected[1]), text);
      assert.deepEqual(rangeForField(root, full), expected);
      const under = fieldRangesUnder(root, prefix);
      assert.deepEqual(under(path), expected);
      // The prefix's location is kept between calls: a second path under it is placed as the first.
      assert.deepEqual(under(['spec']), placedBefore([...prefix, 'spec']));
    });
  }
});
