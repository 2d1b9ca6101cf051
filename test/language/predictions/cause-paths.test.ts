import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { causePath } from '../../../server/src/language/predictions/cause-paths';
import { insufficientResource } from '../../../server/src/engine/scheduler/plugins/node-resources-fit';

// The field behind a scheduling reason comes from the reason's code and data, never from its message text.

const template = {
  spec: {
    containers: [
      { name: 'small', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
      { name: 'big', resources: { requests: { cpu: '3', memory: '32Mi' }, limits: { 'nvidia.com/gpu': 1 } } },
    ],
  },
};

describe('causePath', () => {
  const cases: { name: string; resource: string; path: (string | number)[] }[] = [
    {
      name: 'Insufficient cpu points at the largest cpu request',
      resource: 'cpu',
      path: ['spec', 'containers', 1, 'resources', 'requests', 'cpu'],
    },
    {
      name: 'Insufficient memory points at the largest memory request',
      resource: 'memory',
      path: ['spec', 'containers', 0, 'resources', 'requests', 'memory'],
    },
    {
      name: 'an extended resource requested through its limit points at the limit',
      resource: 'nvidia.com/gpu',
      path: ['spec', 'containers', 1, 'resources', 'limits', 'nvidia.com/gpu'],
    },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      const reason = insufficientResource(entry.resource);
      assert.deepEqual(reason.data, { resource: entry.resource });
      // No message is given: the path comes from the code and the data alone.
      assert.deepEqual(
        causePath(
          { code: reason.code, ...(reason.data === undefined ? {} : { data: reason.data }) },
          template,
        ),
        entry.path,
      );
    });
  }
});
