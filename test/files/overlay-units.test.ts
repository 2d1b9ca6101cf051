/**
 * Which kustomizations the editor renders for an edited file (files/kustomize/overlay-units.ts), on the fixture
 * test/fixtures/kustomize-overlays: those that include the file and that no other includes, kept to the
 * kubeForesight.kustomize.overlays setting. Reads kustomization files only; kustomize is not run.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { overlayUnitsIncluding } from '../../server/src/files/kustomize/overlay-units';

const ROOT = join(__dirname, '..', 'fixtures', 'kustomize-overlays');

const CASES: readonly {
  name: string;
  file: string;
  roots: readonly string[];
  chosen: 'all' | readonly string[];
  expected: readonly string[];
}[] = [
  {
    name: 'a base resource is rendered as every overlay that includes its base, not as the base itself',
    file: 'shop/base/deployment.yaml',
    roots: [ROOT],
    chosen: 'all',
    expected: ['shop/overlays/prod', 'shop/overlays/zonal'],
  },
  {
    name: 'the overlays setting keeps the folders it lists',
    file: 'shop/base/deployment.yaml',
    roots: [ROOT],
    chosen: ['shop/overlays/zonal/'],
    expected: ['shop/overlays/zonal'],
  },
  {
    name: "an overlay's patch file is rendered as that overlay only",
    file: 'shop/overlays/prod/cpu.json-patch.yaml',
    roots: [ROOT],
    chosen: 'all',
    expected: ['shop/overlays/prod'],
  },
  {
    name: "a component's patch is rendered as the overlay that lists the component, never the component alone",
    file: 'shop/components/ssd-only/node-selector.yaml',
    roots: [ROOT],
    chosen: 'all',
    expected: ['shop/overlays/zonal'],
  },
  {
    name: "a transformer configuration of the base is part of every overlay's render",
    file: 'shop/base/kustomizeconfig.yaml',
    roots: [ROOT],
    chosen: 'all',
    expected: ['shop/overlays/prod', 'shop/overlays/zonal'],
  },
  {
    name: "an overlay's own kustomization file is rendered as that overlay (its render failure goes there)",
    file: 'failing/overlay/kustomization.yaml',
    roots: [ROOT],
    chosen: 'all',
    expected: ['failing/overlay'],
  },
  {
    name: 'without a workspace folder, the folders three levels above the nearest kustomization are searched',
    file: 'shop/base/deployment.yaml',
    roots: [],
    chosen: 'all',
    expected: ['kustomize-overlays/shop/overlays/prod', 'kustomize-overlays/shop/overlays/zonal'],
  },
  {
    name: 'a file no kustomization names is rendered as nothing',
    file: 'README.md',
    roots: [ROOT],
    chosen: 'all',
    expected: [],
  },
];

describe('the overlays that include an edited file', () => {
  for (const { name, file, roots, chosen, expected } of CASES) {
    test(name, async () => {
      const units = await overlayUnitsIncluding(join(ROOT, file), roots, chosen);
      assert.deepEqual(
        units.map((unit) => unit.label),
        expected,
      );
    });
  }
});
