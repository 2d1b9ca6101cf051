/**
 * Which patch set a rendered field (files/kustomize/patch-fields.ts): the four inline patch shapes of kustomize's
 * api/krusty/inlinepatch_test.go (each row names the test it follows), patch files, and the fields a patch does
 * not set, which stay on the base. The base is that test's nginx Deployment; the rendered field asked about is
 * its first container's image, which each patch replaces with image1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { patchFieldsOf } from '../../server/src/files/kustomize/patch-fields';
import { patchFieldFor } from '../../server/src/language/kustomize/patch-field-match';
import type { RenderedPathStep } from '../../server/src/language/kustomize/patch-field-match';

const IMAGE: RenderedPathStep[] = [
  'spec',
  'template',
  'spec',
  'containers',
  { index: 0, name: 'nginx' },
  'image',
];
const VOLUME_MOUNT: RenderedPathStep[] = [...IMAGE.slice(0, 5), 'volumeMounts'];

interface Case {
  readonly name: string;
  readonly kustomization: string;
  readonly files?: Readonly<Record<string, string>>;
  readonly path: readonly RenderedPathStep[];
  /** How many steps of the path the base Deployment has (it sets every field asked about here). */
  readonly baseDepth: number;
  /** The file and 1-based line the field is shown at, or undefined: on the base. */
  readonly expected: { file: string; line: number } | undefined;
}

const CASES: readonly Case[] = [
  {
    name: 'an inline strategic-merge patch under patchesStrategicMerge sets the image (TestStrategicMergePatchInline)',
    kustomization: `resources:
- deployment.yaml
patchesStrategicMerge:
- |-
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: nginx
  spec:
    template:
      spec:
        containers:
          - name: nginx
            image: image1
`,
    path: IMAGE,
    baseDepth: IMAGE.length,
    expected: { file: 'kustomization.yaml', line: 14 },
  },
  {
    name: 'an inline JSON6902 patch under patchesJson6902 with its target sets the image (TestJSONPatchInline)',
    kustomization: `resources:
- deployment.yaml
patchesJson6902:
- target:
    group: apps
    version: v1
    kind: Deployment
    name: nginx
  patch: |-
    - op: replace
      path: /spec/template/spec/containers/0/image
      value: image1
`,
    path: IMAGE,
    baseDepth: IMAGE.length,
    expected: { file: 'kustomization.yaml', line: 12 },
  },
  {
    name: 'an inline JSON6902 patch under patches sets the image (TestExtendedPatchInlineJSON)',
    kustomization: `resources:
- deployment.yaml
patches:
- target:
    kind: Deployment
    name: nginx
  patch: |-
    - op: replace
      path: /spec/template/spec/containers/0/image
      value: image1
`,
    path: IMAGE,
    baseDepth: IMAGE.length,
    expected: { file: 'kustomization.yaml', line: 10 },
  },
  {
    name: 'an inline strategic-merge patch under patches sets the image (TestExtendedPatchInlineYAML)',
    kustomization: `resources:
- deployment.yaml
patches:
- target:
    kind: Deployment
    name: nginx
  patch: |-
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: nginx
    spec:
      template:
        spec:
          containers:
            - name: nginx
              image: image1
`,
    path: IMAGE,
    baseDepth: IMAGE.length,
    expected: { file: 'kustomization.yaml', line: 17 },
  },
  {
    name: 'a strategic-merge patch file sets the image, on the line of the patch file',
    kustomization: 'resources:\n- deployment.yaml\npatches:\n- path: image.yaml\n',
    files: {
      'image.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\nspec:\n  template:\n    spec:\n      containers:\n        - name: nginx\n          image: image1\n',
    },
    path: IMAGE,
    baseDepth: IMAGE.length,
    expected: { file: 'image.yaml', line: 10 },
  },
  {
    name: 'a field the patch does not set (volumeMounts beside the patched image) stays on the base',
    kustomization: `resources:
- deployment.yaml
patches:
- patch: |-
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: nginx
    spec:
      template:
        spec:
          containers:
            - name: nginx
              image: image1
`,
    path: VOLUME_MOUNT,
    baseDepth: VOLUME_MOUNT.length,
    expected: undefined,
  },
  {
    name: "a patch whose target names another object does not claim this one's image",
    kustomization: `resources:
- deployment.yaml
patches:
- target:
    kind: Deployment
    name: other
  patch: |-
    - op: replace
      path: /spec/template/spec/containers/0/image
      value: image1
`,
    path: IMAGE,
    baseDepth: IMAGE.length,
    expected: undefined,
  },
  {
    name: 'a field the base lacks and a patch adds (a nodeSelector) is on the patch even as a map',
    kustomization: `resources:
- deployment.yaml
patches:
- patch: |-
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: nginx
    spec:
      template:
        spec:
          nodeSelector:
            disktype: ssd
`,
    path: ['spec', 'template', 'spec', 'nodeSelector'],
    baseDepth: 3,
    expected: { file: 'kustomization.yaml', line: 12 },
  },
];

describe('the patch that set a rendered field', () => {
  const folders: string[] = [];
  after(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

  for (const { name, kustomization, files, path, baseDepth, expected } of CASES) {
    test(name, () => {
      const folder = mkdtempSync(join(tmpdir(), 'foresight-patch-fields-'));
      folders.push(folder);
      writeFileSync(join(folder, 'kustomization.yaml'), kustomization);
      for (const [file, text] of Object.entries(files ?? {})) {
        writeFileSync(join(folder, file), text);
      }
      const fields = patchFieldsOf([join(folder, 'kustomization.yaml')]);
      // The rendered name may carry a prefix (namePrefix: prod-), as an overlay's does.
      const field = patchFieldFor(fields, 'Deployment', 'prod-nginx', path, baseDepth);
      assert.deepEqual(
        field === undefined ? undefined : { file: basename(field.file), line: field.start.line + 1 },
        expected,
      );
    });
  }
});
