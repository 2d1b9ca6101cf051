/**
 * Null items in lists of objects: which objects are left out and the path each finding names (the first null item
 * in document order), while lists of strings accept a null item as the API server does.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withoutNullListItems } from '../../../server/src/engine/model/load/null-items';
import type { Finding } from '../../../protocol/finding';

const SOURCE = { file: 'file:///m.yaml', documentIndex: 0, path: [] };

const CASES: { name: string; object: unknown; path: readonly (string | number)[] | null }[] = [
  {
    name: 'a null container is found at its index',
    object: { kind: 'Pod', spec: { containers: [{ name: 'a' }, null] } },
    path: ['spec', 'containers', 1],
  },
  {
    name: 'a null item in args (a list of strings) is accepted',
    object: { kind: 'Pod', spec: { containers: [{ name: 'a', args: [null, 'x'] }] } },
    path: null,
  },
  {
    name: 'the first null item in document order is named, deep in a later list',
    object: {
      kind: 'Deployment',
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'a', ports: [{ containerPort: 80 }] },
              { name: 'b', env: [{ name: 'x' }, null] },
            ],
            tolerations: [null],
          },
        },
      },
    },
    path: ['spec', 'template', 'spec', 'containers', 1, 'env', 1],
  },
  {
    name: 'a null item in a list inside a list is found with both indexes',
    object: { kind: 'List', items: [{ kind: 'Pod', spec: { volumes: [[null]] } }] },
    path: ['items', 0, 'spec', 'volumes', 0, 0],
  },
  {
    name: "keys are walked in Object.keys order (integer-like keys first), so that list's null is the one named",
    object: { kind: 'Pod', metadata: { annotations: { b: [null], '7': [null] } } },
    path: ['metadata', 'annotations', '7', 0],
  },
  {
    name: 'a key the object inherits is not walked (only its own keys are)',
    object: Object.assign(Object.create({ inherited: [null] }) as object, { kind: 'Pod', spec: {} }),
    path: null,
  },
  {
    name: 'an object without lists is kept',
    object: { kind: 'ConfigMap', data: { a: null } },
    path: null,
  },
];

describe('withoutNullListItems', () => {
  for (const { name, object, path } of CASES) {
    test(name, () => {
      const findings: Finding[] = [];
      const kept = withoutNullListItems([{ object, source: SOURCE }], findings);
      assert.equal(kept.length, path === null ? 1 : 0);
      assert.deepEqual(
        findings.map((finding) => finding.path),
        path === null ? [] : [path],
      );
    });
  }
});

describe('withoutNullListItems, given the same objects again (kept by object)', () => {
  for (const { name, object, path } of CASES) {
    test(`the second run's answer is the first's: ${name}`, () => {
      const runs = [0, 1].map(() => {
        const findings: Finding[] = [];
        const kept = withoutNullListItems([{ object, source: SOURCE }], findings);
        return { kept: kept.length, findings };
      });
      assert.deepEqual(runs[1], runs[0]);
      assert.equal(runs[1]?.kept, path === null ? 1 : 0);
      // Each finding has a path array of its own, not the one kept for the object.
      if (path !== null) {
        assert.notEqual(runs[1]?.findings[0]?.path, runs[0]?.findings[0]?.path);
      }
    });
  }
});
