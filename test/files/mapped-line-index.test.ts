/**
 * Rendered offsets told as source lines (files/kustomize/mapped-line-index.ts): a field of the base at its own
 * line, a field a transformer added at its nearest parent, a generated ConfigMap or Secret at its generator's
 * entry. The rendered text is what kustomize prints for test/fixtures/kustomize-overlays/shop/overlays/prod (a
 * prefix, a hash suffix on the generated ConfigMap); the base and kustomization are those of the fixture.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MappedLineIndex } from '../../server/src/language/kustomize/mapped-line-index';

const BASE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: web
          image: nginx:1.27
`;
const KUSTOMIZATION = `resources:
  - deployment.yaml
configMapGenerator:
  - name: web
    literals:
      - A=1
  - name: web-config
    literals:
      - LOG_LEVEL=info
secretGenerator:
  - name: web-config
    literals:
      - TOKEN=x
`;
const RENDERED_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    team: shop
  name: prod-web
spec:
  replicas: 6
  template:
    spec:
      containers:
      - image: nginx:1.27
        name: web
`;
const RENDERED_CONFIGMAP = `apiVersion: v1
data:
  LOG_LEVEL: info
kind: ConfigMap
metadata:
  name: prod-web-config-hf678c7m2b
`;
const RENDERED_SECRET = `apiVersion: v1
data:
  TOKEN: eA==
kind: Secret
metadata:
  name: prod-web-config-5g2k7b8c4d
type: Opaque
`;

const TEXT = [RENDERED_DEPLOYMENT, RENDERED_CONFIGMAP, RENDERED_SECRET].join('---\n');
const INDEX = new MappedLineIndex(TEXT, [
  { text: RENDERED_DEPLOYMENT, sourceText: BASE },
  { text: RENDERED_CONFIGMAP, sourceText: undefined, generatorText: KUSTOMIZATION },
  { text: RENDERED_SECRET, sourceText: undefined, generatorText: KUSTOMIZATION },
]);

/** The offset of the n-th occurrence (1-based) of `needle` in the rendered text. */
function offsetOf(needle: string, occurrence = 1): number {
  let offset = -1;
  for (let found = 0; found < occurrence; found++) {
    offset = TEXT.indexOf(needle, offset + 1);
    assert.ok(offset >= 0, `${needle} is rendered`);
  }
  return offset;
}

const CASES: readonly { name: string; offset: number; line: number }[] = [
  { name: "the base's replicas field is at its line in the base", offset: offsetOf('replicas: 6'), line: 6 },
  { name: "a container's image is at its line in the base", offset: offsetOf('image: nginx'), line: 11 },
  {
    // metadata's range runs to the next key: the key that starts at the offset is spec, not metadata.name.
    name: 'a top-level key after a map (spec, after metadata) is at its own line, not the end of the map before',
    offset: offsetOf('spec:\n  replicas'),
    line: 5,
  },
  {
    name: "a key after another in a list item (the container's name, rendered after its image) is at its own line",
    offset: offsetOf('name: web\n'),
    line: 10,
  },
  {
    name: 'a label a transformer added is at its nearest parent (metadata)',
    offset: offsetOf('team: shop'),
    line: 3,
  },
  {
    name: 'a generated ConfigMap is at its configMapGenerator entry, the longest name that fits',
    offset: offsetOf('LOG_LEVEL: info'),
    line: 7,
  },
  { name: 'a generated Secret is at its secretGenerator entry', offset: offsetOf('TOKEN: eA=='), line: 11 },
];

describe('rendered offsets as source lines', () => {
  for (const { name, offset, line } of CASES) {
    test(name, () => {
      assert.equal(INDEX.positionAt(offset).line + 1, line);
    });
  }
});

describe('rendered offsets inside a value', () => {
  test('an offset in a value is the same place in the source value, as a finding on a plain file is placed', () => {
    // The image value: kustomize writes the container as "- image: …" (column 9), the base as "  image: …"
    // under "- name: web" (column 18); a finding on the value is on the value, not on its key.
    const start = offsetOf('nginx:1.27');
    assert.deepEqual(INDEX.positionAt(start), { line: 10, character: 17 });
    assert.deepEqual(INDEX.positionAt(start + 'nginx:'.length), { line: 10, character: 23 });
    // On the key, it stays on the key.
    assert.deepEqual(INDEX.positionAt(offsetOf('image: nginx')), { line: 10, character: 10 });
  });

  test("a value a patch changed (replicas 6 over the base's 2) is placed on the base's value", () => {
    // replicas: 6 in the render, 2 in the base: the value's first character maps to the base's value.
    assert.deepEqual(INDEX.positionAt(offsetOf('6\n')), { line: 5, character: 12 });
  });
});
