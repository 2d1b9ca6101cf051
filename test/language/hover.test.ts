import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hoverAt } from '../../server/src/language/assist/hover';
import { CURSOR, schemaStore, textOf, withCursor } from './hover-harness';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx:1.27
          imagePullPolicy: IfNotPresent
          resources:
            limits:
              cpu: 500m
`;

const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
    - port: 80
      targetPort: 8080
`;

/** The text with the cursor put `into` characters after the start of the first `needle` (after `after`). */
function mark(text: string, needle: string, into = 1, after = ''): string {
  const at = text.indexOf(needle, after === '' ? 0 : text.indexOf(after)) + into;
  assert.ok(at >= into, `${needle} not found`);
  return text.slice(0, at) + CURSOR + text.slice(at);
}

interface HoverCase {
  readonly name: string;
  readonly text: string;
  /** Every string the Markdown must contain. */
  readonly contains: readonly string[];
  /** Strings the Markdown must not contain. */
  readonly lacks?: readonly string[];
  /** The text the hover range covers. */
  readonly covers: string;
}

const CASES: readonly HoverCase[] = [
  {
    name: 'a key shows its path, its type and the start of its description',
    text: mark(DEPLOYMENT, 'replicas'),
    contains: ['`spec.replicas`', '`integer`', 'Number of desired pods.'],
    lacks: ['required'],
    covers: 'replicas',
  },
  {
    name: 'a scalar value shows the field it belongs to, with list indexes in the path',
    text: mark(DEPLOYMENT, 'nginx'),
    contains: ['`spec.template.spec.containers[0].image`', '`string`', 'Container image name.'],
    covers: 'nginx:1.27',
  },
  {
    name: 'a list of objects is typed []Item and a required field says so',
    text: mark(DEPLOYMENT, 'containers'),
    contains: ['`[]Container`', '**required**', 'List of containers belonging to the pod.'],
    covers: 'containers',
  },
  {
    name: 'a field whose type is a definition is typed by the definition name',
    text: mark(DEPLOYMENT, 'template'),
    contains: ['`spec.template`', '`PodTemplateSpec`', '**required**'],
    covers: 'template',
  },
  {
    name: 'a map of strings is typed map[string]string',
    text: mark(DEPLOYMENT, 'labels'),
    contains: ['`metadata.labels`', '`map[string]string`', 'Map of string keys and values'],
    covers: 'labels',
  },
  {
    name: 'a map entry shows the description of its map rather than the one of its type',
    text: mark(DEPLOYMENT, 'cpu'),
    contains: [
      '`spec.template.spec.containers[0].resources.limits.cpu`',
      '`quantity`',
      'Limits describes the maximum',
    ],
    lacks: ['fixed-point'],
    covers: 'cpu',
  },
  {
    name: 'an int-or-string field is typed int-or-string',
    text: mark(SERVICE, 'targetPort'),
    contains: ['`spec.ports[0].targetPort`', '`int-or-string`', 'Number or name of the port'],
    covers: 'targetPort',
  },
  {
    name: 'an enum field lists its allowed values from the Kubernetes enum type',
    text: mark(DEPLOYMENT, 'IfNotPresent'),
    contains: [
      '`spec.template.spec.containers[0].imagePullPolicy`',
      'Allowed values: `Always`, `Never`, `IfNotPresent`',
    ],
    covers: 'IfNotPresent',
  },
  {
    name: 'the kind value shows the description of the kind',
    text: mark(DEPLOYMENT, 'Deployment'),
    contains: [
      '**`Deployment`** · `apps/v1`',
      'Deployment enables declarative updates for Pods and ReplicaSets.',
    ],
    covers: 'Deployment',
  },
  {
    name: 'the apiVersion key shows the description of the kind',
    text: mark(SERVICE, 'apiVersion'),
    contains: ['**`Service`** · `v1`', 'Service is a named abstraction of software service'],
    covers: 'apiVersion',
  },
  {
    name: 'a field of the second document of a file is described by the second object',
    text: mark(`${DEPLOYMENT}---\n${SERVICE}`, '- port', 3, 'kind: Service'),
    contains: ['`spec.ports[0].port`', '`integer`', '**required**', '*Service* `v1`'],
    covers: 'port',
  },
  {
    name: 'a field of a List item is described relative to the item',
    text: mark(`apiVersion: v1\nkind: List\nitems:\n- ${DEPLOYMENT.replace(/\n(?=.)/g, '\n  ')}`, 'replicas'),
    contains: ['`spec.replicas`', '*Deployment* `apps/v1`'],
    covers: 'replicas',
  },
  {
    name: 'a key taken from the manifest is shown literally even with backticks and Markdown characters in it',
    text: mark('apiVersion: v1\nkind: ConfigMap\ndata:\n  "a`*b_": x\n', 'a`'),
    contains: ['``data["a`*b_"]`` · `string`'],
    covers: '"a`*b_"',
  },
];

void describe('hoverAt', () => {
  for (const hoverCase of CASES) {
    void test(hoverCase.name, () => {
      const { text, offset, analysis } = withCursor(hoverCase.text);
      const hover = hoverAt(analysis, text, offset, schemaStore());
      assert.ok(hover !== undefined, 'expected a hover');
      for (const expected of hoverCase.contains) {
        assert.ok(
          hover.markdown.includes(expected),
          `missing ${JSON.stringify(expected)} in:\n${hover.markdown}`,
        );
      }
      for (const unexpected of hoverCase.lacks ?? []) {
        assert.ok(
          !hover.markdown.includes(unexpected),
          `unexpected ${JSON.stringify(unexpected)} in:\n${hover.markdown}`,
        );
      }
      assert.equal(textOf(text, hover.range), hoverCase.covers);
    });
  }

  const SILENT: readonly { name: string; text: string }[] = [
    {
      name: 'a document that is not a Kubernetes object gets no hover',
      text: 'services:\n  web:\n    im‸age: nginx\n',
    },
    {
      name: 'a field the schema does not know gets no hover (the diagnostic speaks for it)',
      text: mark(DEPLOYMENT.replace('replicas', 'replicaz'), 'replicaz'),
    },
    {
      name: 'a custom kind gets no hover',
      text: 'apiVersion: example.com/v1\nkind: Widget\nspec:\n  si‸ze: 3\n',
    },
    {
      name: 'blank space between keys gets no hover',
      text: 'apiVersion: v1\nkind: Pod\nspec:\n  ‸\n  containers: []\n',
    },
  ];
  for (const silent of SILENT) {
    void test(silent.name, () => {
      const { text, offset, analysis } = withCursor(silent.text);
      assert.equal(hoverAt(analysis, text, offset, schemaStore()), undefined);
    });
  }
});
