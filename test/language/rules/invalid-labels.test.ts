import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkLabelSyntax } from '../../../server/src/language/rules/invalid-labels';
import type { SeenFinding } from './rule-harness';
import { runRule, yaml } from './rule-harness';

const KEY_NAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const cases: { name: string; text: string; expected: SeenFinding[] }[] = [
  {
    name: 'well-formed labels, annotations and selectors are accepted',
    text: yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      '  labels: { app.kubernetes.io/name: web, tier: "" }',
      '  annotations: { Example.com/Owner: team }',
      'spec:',
      '  selector: { matchLabels: { app: web }, matchExpressions: [{ key: tier, operator: In, values: [a_1] }] }',
      '  template:',
      '    metadata: { labels: { app: web } }',
    ),
    expected: [],
  },
  {
    name: 'a label key with a space is reported on the key',
    text: yaml('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: c', '  labels:', '    my key: x'),
    expected: [
      {
        code: 'invalid-label-key',
        message: `metadata.labels: Invalid value: "my key": ${KEY_NAME}`,
        at: 'my key',
        line: 6,
      },
    ],
  },
  {
    name: 'a label value with a slash is reported on the value',
    text: yaml(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: c',
      '  labels:',
      '    version: v1/2',
    ),
    expected: [
      {
        code: 'invalid-label-value',
        message: `metadata.labels: Invalid value: "v1/2": ${VALUE}`,
        at: 'v1/2',
        line: 6,
      },
    ],
  },
  {
    name: 'a label value longer than 63 bytes is reported',
    text: yaml(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: c',
      '  labels:',
      `    commit: ${'f'.repeat(64)}`,
    ),
    expected: [
      {
        code: 'invalid-label-value',
        message: `metadata.labels: Invalid value: "${'f'.repeat(64)}": must be no more than 63 bytes`,
        at: 'f'.repeat(64),
        line: 6,
      },
    ],
  },
  {
    name: 'an annotation key with an invalid prefix is reported as a label key problem',
    text: yaml(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: c',
      '  annotations:',
      '    -example.com/x: y',
    ),
    expected: [
      {
        code: 'invalid-label-key',
        message: `metadata.annotations: Invalid value: "-example.com/x": prefix part ${SUBDOMAIN} (annotation key)`,
        at: '-example.com/x',
        line: 6,
      },
    ],
  },
  {
    name: 'pod template labels of a Deployment are checked',
    text: yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: web }',
      'spec:',
      '  template:',
      '    metadata:',
      '      labels: { app: "web!" }',
    ),
    expected: [
      {
        code: 'invalid-label-value',
        message: `spec.template.metadata.labels: Invalid value: "web!": ${VALUE}`,
        at: '"web!"',
        line: 7,
      },
    ],
  },
  {
    name: 'job template and pod template labels of a CronJob are checked',
    text: yaml(
      'apiVersion: batch/v1',
      'kind: CronJob',
      'metadata: { name: nightly }',
      'spec:',
      '  jobTemplate:',
      '    metadata: { labels: { "bad key": x } }',
      '    spec:',
      '      template:',
      '        metadata: { labels: { ok: "-x" } }',
    ),
    expected: [
      {
        code: 'invalid-label-key',
        message: `spec.jobTemplate.metadata.labels: Invalid value: "bad key": ${KEY_NAME}`,
        at: '"bad key"',
        line: 6,
      },
      {
        code: 'invalid-label-value',
        message: `spec.jobTemplate.spec.template.metadata.labels: Invalid value: "-x": ${VALUE}`,
        at: '"-x"',
        line: 9,
      },
    ],
  },
  {
    name: 'selector matchLabels and expression keys and values are checked',
    text: yaml(
      'apiVersion: policy/v1',
      'kind: PodDisruptionBudget',
      'metadata: { name: pdb }',
      'spec:',
      '  selector:',
      '    matchLabels: { app: "a b" }',
      '    matchExpressions:',
      '      - key: "tier!"',
      '        operator: In',
      '        values: [ok, "no way"]',
    ),
    expected: [
      {
        code: 'invalid-label-value',
        message: `spec.selector.matchLabels: Invalid value: "a b": ${VALUE}`,
        at: '"a b"',
        line: 6,
      },
      {
        code: 'invalid-label-key',
        message: `spec.selector.matchExpressions[0].key: Invalid value: "tier!": ${KEY_NAME}`,
        at: '"tier!"',
        line: 8,
      },
      {
        code: 'invalid-label-value',
        message: `spec.selector.matchExpressions[0].values[1]: Invalid value: "no way": ${VALUE}`,
        at: '"no way"',
        line: 10,
      },
    ],
  },
  {
    name: 'a Service selector is a map of labels and is checked',
    text: yaml(
      'apiVersion: v1',
      'kind: Service',
      'metadata: { name: web }',
      'spec:',
      '  selector:',
      '    app: "web app"',
    ),
    expected: [
      {
        code: 'invalid-label-value',
        message: `spec.selector: Invalid value: "web app": ${VALUE}`,
        at: '"web app"',
        line: 6,
      },
    ],
  },
  {
    name: 'label values that are not strings are left to the schema',
    text: yaml(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: c',
      '  labels:',
      '    version: 1.0',
    ),
    expected: [],
  },
];

void describe('invalid-label-key and invalid-label-value', () => {
  for (const { name, text, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(runRule(checkLabelSyntax, text), expected);
    });
  }
});
