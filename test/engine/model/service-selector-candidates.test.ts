/**
 * ClusterObjects.serviceSelectorCandidates narrows the Services that could select a pod (for PodTopologySpread's
 * default selector, helper.DefaultSelector): a property test over random Services and labels checks that it
 * keeps every Service whose selector matches, in the namespace's order, and that a Service added later counts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClusterObjects } from '../../../server/src/engine/model/snapshot/cluster-objects';
import { selectorFromSet } from '../../../server/src/engine/model/label-selector';
import { SeededRandom } from '../../../server/src/engine/sim/seeded-random';

const SOURCE = { file: 'test', documentIndex: 0, path: [] };
const KEYS = ['app', 'tier', 'a=b', 'version'];
const VALUES = ['web', 'db', 'c', '', '1'];

function labelsOf(random: SeededRandom, most: number): Record<string, string> {
  const labels: Record<string, string> = {};
  const count = Math.floor(random.next() * (most + 1));
  for (let i = 0; i < count; i++) {
    const key = KEYS[Math.floor(random.next() * KEYS.length)] ?? 'app';
    labels[key] = VALUES[Math.floor(random.next() * VALUES.length)] ?? '';
  }
  return labels;
}

describe('Service selector candidates', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    test(`keep every matching Service in order, Services added between questions (seed ${seed})`, () => {
      const random = new SeededRandom(seed);
      const objects = new ClusterObjects();
      let matched = 0;
      for (let round = 0; round < 40; round++) {
        const namespace = random.next() < 0.8 ? 'default' : 'other';
        objects.add(
          'Service',
          {
            kind: 'Service',
            metadata: { name: `svc-${round}`, namespace },
            spec: { selector: labelsOf(random, 2) },
          },
          SOURCE,
        );
        for (let question = 0; question < 5; question++) {
          const labels = labelsOf(random, 4);
          const matching = (selectors: readonly Record<string, string>[]): Record<string, string>[] =>
            selectors.filter((selector) => selectorFromSet(selector).matches(labels));
          const expected = matching(objects.serviceSelectors('default'));
          const candidates = objects.serviceSelectorCandidates('default', labels);
          assert.deepEqual(matching(candidates), expected);
          matched += expected.length;
        }
      }
      // The random Services matched pods often enough for the comparison to mean something.
      assert.ok(matched > 50, `only ${matched} matches`);
    });
  }
});
