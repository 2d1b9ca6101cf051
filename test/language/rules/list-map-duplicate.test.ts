/**
 * Items of built-in `x-kubernetes-list-type: map` lists with the same keys, the keys read from the 1.35 OpenAPI
 * documents through the generated schemas. Rows name what they follow: listtype's validateListMap (the check
 * kubectl-validate runs on built-ins, its testcases error_x_list_map_duplicate_key and
 * x_list_map_nonduplicate_key), SetDefaults_ContainerPort / SetDefaults_ServicePort (protocol TCP),
 * structured-merge-diff's "duplicate entries for key" (server-side apply), and warningsForPodSpecAndMeta's
 * duplicate port warning (pkg/api/pod/warnings.go: the API server keeps such pods).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkListMapDuplicates } from '../../../server/src/language/rules/list-map-duplicate';
import { schemaStore } from '../hover-harness';
import type { SeenFinding } from './rule-harness';
import { describeFindings, objectsOf, ruleContext, yaml } from './rule-harness';

function run(text: string): SeenFinding[] {
  const context = { ...ruleContext(), store: schemaStore() };
  return describeFindings(
    text,
    objectsOf(text).flatMap((object) => checkListMapDuplicates(object, context)),
  );
}

const pod = (...containerLines: string[]): string =>
  yaml('apiVersion: v1', 'kind: Pod', 'metadata: { name: web }', 'spec:', '  containers:', ...containerLines);

const cases: { name: string; text: string; expected: SeenFinding[] }[] = [
  {
    name: 'validateListMap, kubectl-validate x_list_map_nonduplicate_key: the same port on UDP and TCP differs',
    text: pod(
      '    - name: nginx',
      '      image: nginx',
      '      ports:',
      '        - { protocol: UDP, containerPort: 88 }',
      '        - { containerPort: 88, protocol: TCP }',
    ),
    expected: [],
  },
  {
    name: "validateListMap, kubectl-validate error_x_list_map_duplicate_key: the repeated 88/TCP, a warning with SSA's words",
    text: pod(
      '    - name: nginx',
      '      image: nginx',
      '      ports:',
      '        - { protocol: UDP, containerPort: 88 }',
      '        - { containerPort: 88, protocol: TCP }',
      '        - { protocol: TCP, containerPort: 88 }',
    ),
    expected: [
      {
        code: 'list-map-duplicate',
        message:
          'spec.containers[0].ports[2]: Duplicate value: {"containerPort":88,"protocol":"TCP"}: ports[1] has the same ' +
          `containerPort and protocol: server-side apply refuses the list (duplicate entries for key ` +
          '[containerPort=88,protocol="TCP"]).',
        at: '{ protocol: TCP, containerPort: 88 }',
        line: 11,
      },
    ],
  },
  {
    name: 'SetDefaults_ContainerPort: a port without protocol is TCP, so it collides with 80/TCP once defaulted',
    text: pod(
      '    - name: app',
      '      image: nginx',
      '      ports: [{ containerPort: 80 }, { containerPort: 80, protocol: TCP, name: http }]',
    ),
    expected: [
      {
        code: 'list-map-duplicate',
        message:
          'spec.containers[0].ports[1]: Duplicate value: {"containerPort":80,"protocol":"TCP"}: ports[0] has the same ' +
          'containerPort and protocol once defaulted: server-side apply refuses the list (duplicate entries for key ' +
          '[containerPort=80,protocol="TCP"]).',
        at: '{ containerPort: 80, protocol: TCP, name: http }',
        line: 8,
      },
    ],
  },
  {
    name: 'SetDefaults_ServicePort: a Service port repeated on port and protocol, through the Service schema',
    text: yaml(
      'apiVersion: v1',
      'kind: Service',
      'metadata: { name: web }',
      'spec:',
      '  selector: { app: web }',
      '  ports: [{ name: a, port: 80 }, { name: b, port: 80, targetPort: 8080 }]',
    ),
    expected: [
      {
        code: 'list-map-duplicate',
        message:
          'spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}: ports[0] has the same port and protocol once ' +
          'defaulted: server-side apply refuses the list (duplicate entries for key [port=80,protocol="TCP"]).',
        at: '{ name: b, port: 80, targetPort: 8080 }',
        line: 6,
      },
    ],
  },
  {
    name: "structured-merge-diff: an env variable set twice in a Deployment's template is a repeated key name",
    text: yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: web }',
      'spec:',
      '  selector: { matchLabels: { app: web } }',
      '  template:',
      '    metadata: { labels: { app: web } }',
      '    spec:',
      '      containers:',
      '        - name: app',
      '          image: nginx',
      '          env: [{ name: MODE, value: a }, { name: MODE, value: b }]',
    ),
    expected: [
      {
        code: 'list-map-duplicate',
        message:
          'spec.template.spec.containers[0].env[1]: Duplicate value: {"name":"MODE"}: env[0] has the same name: ' +
          'server-side apply refuses the list (duplicate entries for key [name="MODE"]).',
        at: '{ name: MODE, value: b }',
        line: 12,
      },
    ],
  },
  {
    name: "containers named twice are left to duplicate-container-name (the API server's own error)",
    text: pod('    - { name: app, image: nginx }', '    - { name: app, image: envoy }'),
    expected: [],
  },
  {
    name: 'a custom resource is not a built-in kind: crd/list-type.ts checks its lists',
    text: yaml(
      'apiVersion: example.com/v1',
      'kind: Widget',
      'metadata: { name: w }',
      'spec: { ports: [1, 1] }',
    ),
    expected: [],
  },
];

void describe('checkListMapDuplicates', () => {
  for (const row of cases) {
    void test(row.name, () => {
      assert.deepEqual(run(row.text), row.expected);
    });
  }
});
