import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { computePodRequests } from '../../../server/src/engine/model/snapshot/pod-requests';
import type { PodResourceProblem } from '../../../server/src/engine/model/snapshot/pod-requests';
import type { PodSpecObject } from '../../../server/src/engine/model/objects';

// resourcehelper.PodRequests (component-helpers/resource/helpers.go) and the non-zero requests scoring uses
// (PodInfo.CalculateResource), with cpu in millicores and memory in bytes.

const Mi = 1024 * 1024;

function c(requests: Record<string, string> = {}, limits: Record<string, string> = {}, extra: object = {}) {
  return { name: 'c', resources: { requests, limits }, ...extra };
}

const CASES: readonly {
  name: string;
  spec: PodSpecObject;
  podLevel?: boolean;
  requests: Record<string, number>;
  nonZero: [number, number];
}[] = [
  {
    name: 'containers are summed',
    spec: { containers: [c({ cpu: '100m', memory: '64Mi' }), c({ cpu: '250m' })] },
    requests: { cpu: 350, memory: 64 * Mi },
    nonZero: [350, 64 * Mi + 200 * Mi],
  },
  {
    name: 'a container without requests counts 100m and 200Mi for scoring only',
    spec: { containers: [c()] },
    requests: {},
    nonZero: [100, 200 * Mi],
  },
  {
    name: 'a limit without a request becomes the request',
    spec: { containers: [c({}, { cpu: '2', memory: '1Gi' })] },
    requests: { cpu: 2000, memory: 1024 * Mi },
    nonZero: [2000, 1024 * Mi],
  },
  {
    name: 'the largest init container wins over the containers when bigger',
    spec: { initContainers: [c({ cpu: '1' })], containers: [c({ cpu: '500m' })] },
    requests: { cpu: 1000 },
    nonZero: [1000, 200 * Mi],
  },
  {
    name: 'sidecars add to the containers and to every later init container',
    spec: {
      initContainers: [c({ cpu: '200m' }, {}, { restartPolicy: 'Always' }), c({ cpu: '1' })],
      containers: [c({ cpu: '500m' })],
    },
    // containers + sidecar = 700m; init phase: 1000m + 200m sidecar = 1200m
    requests: { cpu: 1200 },
    nonZero: [1200, 400 * Mi],
  },
  {
    name: 'overhead is added after the maximum',
    spec: { overhead: { cpu: '250m', memory: '120Mi' }, containers: [c({ cpu: '1' })] },
    requests: { cpu: 1250, memory: 120 * Mi },
    nonZero: [1250, 320 * Mi],
  },
  {
    name: 'pod-level requests replace the containers for cpu and memory',
    spec: { resources: { requests: { cpu: '2' } }, containers: [c({ cpu: '500m', memory: '1Gi' })] },
    requests: { cpu: 2000, memory: 1024 * Mi },
    nonZero: [2000, 1024 * Mi],
  },
  {
    name: 'pod-level resources are ignored when the version does not honour them',
    spec: { resources: { requests: { cpu: '2' } }, containers: [c({ cpu: '500m' })] },
    podLevel: false,
    requests: { cpu: 500 },
    nonZero: [500, 200 * Mi],
  },
  {
    name: 'a pod-level limit without request defaults to the containers request, else the limit',
    spec: { resources: { limits: { cpu: '4', memory: '2Gi' } }, containers: [c({ cpu: '1' })] },
    requests: { cpu: 1000, memory: 2048 * Mi },
    nonZero: [1000, 2048 * Mi],
  },
  {
    name: 'extended resources are counted as integers',
    spec: { containers: [c({}, { 'nvidia.com/gpu': '2' })] },
    requests: { 'nvidia.com/gpu': 2 },
    nonZero: [100, 200 * Mi],
  },
];

describe('pod requests', () => {
  for (const testCase of CASES) {
    test(testCase.name, () => {
      const problems: PodResourceProblem[] = [];
      const result = computePodRequests(
        testCase.spec,
        { podLevelResources: testCase.podLevel ?? true },
        problems,
      );
      assert.deepEqual(problems, []);
      assert.deepEqual(Object.fromEntries(result.requests), testCase.requests);
      assert.deepEqual([result.nonZeroMilliCpu, result.nonZeroMemory], testCase.nonZero);
    });
  }

  test('malformed and negative quantities are reported with the path of the field', () => {
    const problems: PodResourceProblem[] = [];
    computePodRequests(
      { containers: [c({ cpu: 'lots', memory: '-1Gi' })] },
      { podLevelResources: true },
      problems,
    );
    assert.deepEqual(
      problems.map((problem) => [problem.kind, problem.path.join('.')]),
      [
        ['invalid', 'containers.0.resources.requests.cpu'],
        ['negative', 'containers.0.resources.requests.memory'],
      ],
    );
  });
});
