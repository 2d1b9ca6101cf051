import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkObjectName } from '../../../server/src/language/rules/invalid-name';
import type { SeenFinding } from './rule-harness';
import { runRule, yaml } from './rule-harness';

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** An object of a kind with the given metadata lines (already indented). */
function object(apiVersion: string, kind: string, ...metadata: string[]): string {
  return yaml(
    `apiVersion: ${apiVersion}`,
    `kind: ${kind}`,
    ...(metadata.length === 0 ? [] : ['metadata:', ...metadata]),
  );
}

const cases: { name: string; text: string; version?: string; expected: SeenFinding[] }[] = [
  {
    name: 'a lowercase dotted Deployment name is accepted',
    text: object('apps/v1', 'Deployment', '  name: web.v2'),
    expected: [],
  },
  {
    name: 'an uppercase Deployment name is reported on the name with the subdomain message',
    text: object('apps/v1', 'Deployment', '  name: My_App'),
    expected: [
      {
        code: 'invalid-name',
        message: `metadata.name: Invalid value: "My_App": ${SUBDOMAIN}`,
        at: 'My_App',
        line: 4,
      },
    ],
  },
  {
    name: 'a Service name must be a DNS-1035 label, so a leading digit is reported',
    text: object('v1', 'Service', '  name: 1web'),
    expected: [
      {
        code: 'invalid-name',
        message: `metadata.name: Invalid value: "1web": ${DNS1035}`,
        at: '1web',
        line: 4,
      },
    ],
  },
  {
    name: 'a Namespace name with a dot is reported as a label that must not contain dots',
    text: object('v1', 'Namespace', '  name: team.a'),
    expected: [
      {
        code: 'invalid-name',
        message: 'metadata.name: Invalid value: "team.a": must not contain dots',
        at: 'team.a',
        line: 4,
      },
    ],
  },
  {
    name: 'a StatefulSet name with a dot is reported in 1.35',
    text: object('apps/v1', 'StatefulSet', '  name: db.main'),
    expected: [
      {
        code: 'invalid-name',
        message: 'metadata.name: Invalid value: "db.main": must not contain dots',
        at: 'db.main',
        line: 4,
      },
    ],
  },
  {
    name: 'a StatefulSet name with a dot is accepted in 1.26, which still used subdomains',
    text: object('apps/v1', 'StatefulSet', '  name: db.main'),
    version: '1.26',
    expected: [],
  },
  {
    name: 'a ClusterRole name with colons and capitals is accepted (a path segment is enough)',
    text: object('rbac.authorization.k8s.io/v1', 'ClusterRole', '  name: system:Controller:x'),
    expected: [],
  },
  {
    name: 'a Role name with a slash is reported',
    text: object('rbac.authorization.k8s.io/v1', 'Role', '  name: a/b'),
    expected: [
      {
        code: 'invalid-name',
        message: `metadata.name: Invalid value: "a/b": may not contain '/'`,
        at: 'a/b',
        line: 4,
      },
    ],
  },
  {
    name: 'a CronJob name longer than 52 characters is reported',
    text: object('batch/v1', 'CronJob', `  name: ${'c'.repeat(53)}`),
    expected: [
      {
        code: 'invalid-name',
        message: `metadata.name: Invalid value: "${'c'.repeat(53)}": must be no more than 52 characters`,
        at: 'c'.repeat(53),
        line: 4,
      },
    ],
  },
  {
    name: 'a missing name is reported on the metadata key with the API server message',
    text: object('v1', 'ConfigMap', '  labels: {}'),
    expected: [
      {
        code: 'invalid-name',
        message: 'metadata.name: Required value: name or generateName is required',
        at: 'metadata',
        line: 3,
      },
    ],
  },
  {
    name: 'an object without metadata is reported on its kind',
    text: object('v1', 'ConfigMap'),
    expected: [
      {
        code: 'invalid-name',
        message: 'metadata.name: Required value: name or generateName is required',
        at: 'ConfigMap',
        line: 2,
      },
    ],
  },
  {
    name: 'a generateName alone is accepted',
    text: object('batch/v1', 'Job', '  generateName: migrate-'),
    expected: [],
  },
  {
    name: 'a generateName with an uppercase letter is reported on the generateName',
    text: object('batch/v1', 'Job', '  generateName: Migrate-'),
    expected: [
      {
        code: 'invalid-name',
        message: `metadata.generateName: Invalid value: "Migrate-": ${SUBDOMAIN}`,
        at: 'Migrate-',
        line: 4,
      },
    ],
  },
  {
    name: 'an invalid namespace is reported on the namespace',
    text: object('v1', 'ConfigMap', '  name: settings', '  namespace: Team_A'),
    expected: [
      {
        code: 'invalid-name',
        message: `metadata.namespace: Invalid value: "Team_A": ${LABEL}`,
        at: 'Team_A',
        line: 5,
      },
    ],
  },
  {
    name: 'a CustomResourceDefinition must be named plural.group, with a fix',
    text: yaml(
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata:',
      '  name: widget.example.com',
      'spec:',
      '  group: example.com',
      '  names: { kind: Widget, plural: widgets }',
    ),
    expected: [
      {
        code: 'invalid-name',
        message:
          'metadata.name: Invalid value: "widget.example.com": must be spec.names.plural+"."+spec.group',
        at: 'widget.example.com',
        line: 4,
        replacement: 'widgets.example.com',
      },
    ],
  },
  {
    name: 'items of a kubectl List are not required to have names, but their names are checked',
    text: yaml(
      'apiVersion: v1',
      'kind: List',
      'items:',
      '  - apiVersion: v1',
      '    kind: ConfigMap',
      '    metadata: {}',
      '  - apiVersion: v1',
      '    kind: Service',
      '    metadata: { name: Web }',
    ),
    expected: [
      {
        code: 'invalid-name',
        message: `metadata.name: Invalid value: "Web": ${DNS1035}`,
        at: 'Web',
        line: 9,
      },
    ],
  },
];

void describe('invalid-name', () => {
  for (const { name, text, version, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(runRule(checkObjectName, text, version), expected);
    });
  }
});
