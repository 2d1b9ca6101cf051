import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  calculatePriority,
  createImageLocality,
} from '../../../../server/src/engine/scheduler/plugins/image-locality';
import { buildPlugin, container, makeNode, makePod, runScore } from '../builders';

// Situations of upstream TestImageLocalityPriority (imagelocality/image_locality_test.go).

const MB = 1024 * 1024;

describe('ImageLocality score', () => {
  test('images present on a node raise its score, scaled by how many nodes have them', () => {
    const a = makeNode('a', {
      images: [
        { names: ['gcr.io/40:latest', 'gcr.io/40:v1'], sizeBytes: 40 * MB },
        { names: ['gcr.io/300:latest'], sizeBytes: 300 * MB },
      ],
    });
    const b = makeNode('b', { images: [{ names: ['gcr.io/250:latest'], sizeBytes: 250 * MB }] });
    const { plugin } = buildPlugin(createImageLocality, [a, b]);
    const pod = makePod('p', {
      containers: [container({}, {}, { image: 'gcr.io/40' }), container({}, {}, { image: 'gcr.io/250' })],
    });
    // a: 40MB * 1/2 = 20MB → below the 23MB threshold → 0; b: 250MB * 1/2 = 125MB → (125-23)*100/(2000-23) = 5
    assert.deepEqual(runScore(plugin, pod, [a, b]), { a: 0, b: 5 });
  });

  test('an image name without a tag matches the node image tagged latest', () => {
    const a = makeNode('a', { images: [{ names: ['nginx:latest'], sizeBytes: 500 * MB }] });
    const { plugin } = buildPlugin(createImageLocality, [a]);
    const tagless = makePod('p', { containers: [container({}, {}, { image: 'nginx' })] });
    const other = makePod('q', { containers: [container({}, {}, { image: 'nginx:1.27' })] });
    // (500 - 23) * 100 / (1000 - 23) = 48
    assert.deepEqual(runScore(plugin, tagless, [a]), { a: 48 });
    assert.deepEqual(runScore(plugin, other, [a]), { a: 0 });
  });

  test('the sum is clamped between 23MB and 1000MB per container', () => {
    assert.equal(calculatePriority(10 * MB, 1), 0);
    assert.equal(calculatePriority(2000 * MB, 1), 100);
    assert.equal(calculatePriority(511.5 * MB, 1), 50);
  });
});
