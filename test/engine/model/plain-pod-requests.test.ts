/**
 * plainPodRequests is the fast path of computePodRequests for pods of plain containers. Differential: over
 * thousands of generated pod specs (plain ones, and ones just outside the shape: init containers, overhead,
 * pod-level resources, other resources, malformed, negative or non-string quantities, lists that are no object),
 * whenever the fast path answers, its requests (names in the same order), non-zero cpu and memory are the general
 * walk's, and computePodRequests always gives the general walk's answer and problems.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  computeGeneralPodRequests,
  computePodRequests,
} from '../../../server/src/engine/model/snapshot/pod-requests';
import type { PodRequests, PodResourceProblem } from '../../../server/src/engine/model/snapshot/pod-requests';
import { plainPodRequests } from '../../../server/src/engine/model/snapshot/plain-pod-requests';
import type { PodSpecObject } from '../../../server/src/engine/model/objects';
import { SeededRandom } from '../../../server/src/engine/sim/seeded-random';

const CPU = ['100m', '0.5', '2', '1500m', 3, '0', '1e3m', '-100m', 'lots', '', 0.25];
const MEMORY = ['128Mi', '1Gi', '64M', '1e9', '0', 536870912, '-1Mi', '12XB', '100.5Mi'];

function pick<T>(random: SeededRandom, values: readonly T[]): T {
  return values[random.nextInt(values.length)] as T;
}

/** A resource list: none, empty, cpu and/or memory (either order), now and then another name or no object. */
function resourceList(random: SeededRandom): unknown {
  switch (random.nextInt(12)) {
    case 0:
      return undefined;
    case 1:
      return {};
    case 2:
      return { 'nvidia.com/gpu': '1', cpu: pick(random, CPU) };
    case 3:
      return { 'ephemeral-storage': '1Gi' };
    case 4:
      return random.nextInt(2) === 0 ? null : 'not a list';
    case 5:
      return { memory: pick(random, MEMORY), cpu: pick(random, CPU) };
    case 6:
      return { cpu: { nested: true } };
    default: {
      const list: Record<string, unknown> = {};
      if (random.nextInt(3) > 0) {
        list['cpu'] = pick(random, CPU);
      }
      if (random.nextInt(3) > 0) {
        list['memory'] = pick(random, MEMORY);
      }
      return list;
    }
  }
}

function container(random: SeededRandom): unknown {
  const shape = random.nextInt(10);
  if (shape === 0) {
    return { name: 'c' };
  }
  if (shape === 1) {
    return { name: 'c', resources: 'none' };
  }
  return { name: 'c', resources: { requests: resourceList(random), limits: resourceList(random) } };
}

/** A pod spec: mostly plain containers, sometimes with what takes it off the fast path. */
function podSpec(random: SeededRandom): PodSpecObject {
  const spec: Record<string, unknown> = {
    containers: Array.from({ length: random.nextInt(4) }, () => container(random)),
  };
  switch (random.nextInt(14)) {
    case 0:
      spec['initContainers'] = [container(random)];
      break;
    case 1:
      spec['initContainers'] = [];
      break;
    case 2:
      spec['overhead'] = { cpu: '250m' };
      break;
    case 3:
      spec['resources'] = { requests: resourceList(random), limits: resourceList(random) };
      break;
    case 4:
      spec['containers'] = 'not a list';
      break;
    default:
      break;
  }
  return spec;
}

/** What is compared: the requests as entries (their order included) and the non-zero amounts. */
function view(requests: PodRequests): unknown {
  return [[...requests.requests], requests.nonZeroMilliCpu, requests.nonZeroMemory];
}

describe('plainPodRequests against the general walk', () => {
  for (const seed of [11, 12, 13, 14]) {
    test(`seed ${seed}: 1,500 generated specs give the general walk's requests and problems`, () => {
      const random = new SeededRandom(seed);
      let answered = 0;
      for (let i = 0; i < 1500; i++) {
        const spec = podSpec(random);
        for (const podLevelResources of [true, false]) {
          const generalProblems: PodResourceProblem[] = [];
          const general = computeGeneralPodRequests(spec, { podLevelResources }, generalProblems);
          const plain = plainPodRequests(spec, podLevelResources);
          if (plain !== null) {
            answered++;
            assert.deepEqual(view(plain), view(general), JSON.stringify(spec));
            assert.deepEqual(
              generalProblems,
              [],
              `the fast path answered a spec with problems: ${JSON.stringify(spec)}`,
            );
          }
          const problems: PodResourceProblem[] = [];
          assert.deepEqual(view(computePodRequests(spec, { podLevelResources }, problems)), view(general));
          assert.deepEqual(problems, generalProblems);
        }
      }
      // Both ways are exercised: most specs are plain, many are not.
      assert.ok(answered > 600 && answered < 2600, `the fast path answered ${answered} of 3,000`);
    });
  }

  test('a plain pod: requests in the order the general walk adds them (requests, then limits alone)', () => {
    const spec = {
      containers: [
        { name: 'a', resources: { requests: { memory: '1Gi' }, limits: { cpu: '2', memory: '2Gi' } } },
        { name: 'b' },
      ],
    } as PodSpecObject;
    const plain = plainPodRequests(spec, true);
    assert.deepEqual(plain === null ? null : view(plain), [
      [
        ['memory', 1024 ** 3],
        ['cpu', 2000],
      ],
      2100,
      1024 ** 3 + 200 * 1024 ** 2,
    ]);
  });
});
