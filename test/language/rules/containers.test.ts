import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ObjectRule } from '../../../server/src/language/analyzer';
import { checkDuplicateContainerNames } from '../../../server/src/language/rules/duplicate-container-name';
import { checkPortNames } from '../../../server/src/language/rules/invalid-port-name';
import type { SeenFinding } from './rule-harness';
import { runRule, yaml } from './rule-harness';

const UNIQUE = 'container names must be unique across containers, initContainers and ephemeralContainers.';

const cases: { name: string; rule: ObjectRule; text: string; expected: SeenFinding[] }[] = [
  {
    name: 'distinct container names in a Pod are accepted',
    rule: checkDuplicateContainerNames,
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  initContainers: [{ name: init, image: busybox }]',
      '  containers: [{ name: app, image: nginx }, { name: sidecar, image: envoy }]',
    ),
    expected: [],
  },
  {
    name: 'two containers with one name are reported on the second',
    rule: checkDuplicateContainerNames,
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers:',
      '    - name: app',
      '      image: nginx',
      '    - name: app',
      '      image: envoy',
    ),
    expected: [
      {
        code: 'duplicate-container-name',
        message: `spec.containers[1].name: Duplicate value: "app": spec.containers[0] already has this name; ${UNIQUE}`,
        at: 'app',
        line: 8,
      },
    ],
  },
  {
    name: 'an init container named like a container of a Deployment template is reported on the init container',
    rule: checkDuplicateContainerNames,
    text: yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: web }',
      'spec:',
      '  template:',
      '    spec:',
      '      initContainers: [{ name: app, image: busybox }]',
      '      containers: [{ name: app, image: nginx }]',
    ),
    expected: [
      {
        code: 'duplicate-container-name',
        message: `spec.template.spec.initContainers[0].name: Duplicate value: "app": spec.template.spec.containers[0] already has this name; ${UNIQUE}`,
        at: 'app',
        line: 7,
      },
    ],
  },
  {
    name: 'an ephemeral container of a CronJob pod that reuses a name is reported',
    rule: checkDuplicateContainerNames,
    text: yaml(
      'apiVersion: batch/v1',
      'kind: CronJob',
      'metadata: { name: nightly }',
      'spec:',
      '  jobTemplate:',
      '    spec:',
      '      template:',
      '        spec:',
      '          containers: [{ name: job, image: busybox }]',
      '          ephemeralContainers: [{ name: job, image: busybox }]',
    ),
    expected: [
      {
        code: 'duplicate-container-name',
        message: `spec.jobTemplate.spec.template.spec.ephemeralContainers[0].name: Duplicate value: "job": spec.jobTemplate.spec.template.spec.containers[0] already has this name; ${UNIQUE}`,
        at: 'job',
        line: 10,
      },
    ],
  },
  {
    name: 'valid, distinct port names are accepted',
    rule: checkPortNames,
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers:',
      '    - name: app',
      '      ports: [{ name: http, containerPort: 80 }, { name: metrics-9090, containerPort: 9090 }]',
    ),
    expected: [],
  },
  {
    name: 'a port name longer than 15 characters is reported on the name',
    rule: checkPortNames,
    text: yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: web }',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '        - name: app',
      '          ports:',
      '            - name: prometheus-metrics',
      '              containerPort: 9090',
    ),
    expected: [
      {
        code: 'invalid-port-name',
        message:
          'spec.template.spec.containers[0].ports[0].name: Invalid value: "prometheus-metrics": must be no more than 15 characters',
        at: 'prometheus-metrics',
        line: 10,
      },
    ],
  },
  {
    name: 'an uppercase port name gets each of the API server messages',
    rule: checkPortNames,
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers: [{ name: app, ports: [{ name: HTTP_1, containerPort: 80 }] }]',
    ),
    expected: [
      {
        code: 'invalid-port-name',
        message:
          'spec.containers[0].ports[0].name: Invalid value: "HTTP_1": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        at: 'HTTP_1',
        line: 5,
      },
      {
        code: 'invalid-port-name',
        message:
          'spec.containers[0].ports[0].name: Invalid value: "HTTP_1": must contain at least one letter (a-z)',
        at: 'HTTP_1',
        line: 5,
      },
    ],
  },
  {
    name: 'a port name used twice in one container is reported as a duplicate',
    rule: checkPortNames,
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers:',
      '    - name: app',
      '      ports:',
      '        - { name: web, containerPort: 80 }',
      '        - { name: web, containerPort: 8080 }',
    ),
    expected: [
      {
        code: 'invalid-port-name',
        message: 'spec.containers[0].ports[1].name: Duplicate value: "web"',
        at: 'web',
        line: 9,
      },
    ],
  },
  {
    name: 'a Service targetPort written as a quoted number is not a port name',
    rule: checkPortNames,
    text: yaml(
      'apiVersion: v1',
      'kind: Service',
      'metadata: { name: web }',
      'spec:',
      '  ports:',
      '    - port: 80',
      '      targetPort: "8080"',
    ),
    expected: [
      {
        code: 'invalid-port-name',
        message: 'spec.ports[0].targetPort: Invalid value: "8080": must contain at least one letter (a-z)',
        at: '"8080"',
        line: 7,
      },
    ],
  },
];

void describe('duplicate-container-name and invalid-port-name', () => {
  for (const { name, rule, text, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(runRule(rule, text), expected);
    });
  }
});
