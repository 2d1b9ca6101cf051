import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkContainerImages } from '../../../server/src/language/rules/container-image';
import type { SeenFinding } from './rule-harness';
import { runRule, yaml } from './rule-harness';

// Rows follow pkg/apis/core/validation/validation_test.go: TestValidateContainers "zero-length image" (image is
// required in every container list of every pod spec, through validateContainerCommon), and TestValidatePod
// "image whitespace" / "image leading and trailing whitespace" (a Pod-only check, validateContainerOnlyForPod).

const WHITESPACE = 'must not have leading or trailing whitespace';

const cases: { name: string; text: string; expected: SeenFinding[] }[] = [
  {
    name: 'a Pod whose containers all have images is accepted',
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  initContainers: [{ name: init, image: busybox }]',
      '  containers: [{ name: app, image: nginx }]',
    ),
    expected: [],
  },
  {
    name: 'zero-length image (TestValidateContainers): a Pod container without image is refused, on its name',
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers:',
      '    - name: app',
    ),
    expected: [
      {
        code: 'invalid-container-image',
        message: 'spec.containers[0].image: Required value',
        at: 'app',
        line: 6,
      },
    ],
  },
  {
    name: 'zero-length image: an empty image string is refused, on the value',
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers: [{ name: app, image: "" }]',
    ),
    expected: [
      {
        code: 'invalid-container-image',
        message: 'spec.containers[0].image: Required value',
        at: '""',
        line: 5,
      },
    ],
  },
  {
    name: 'zero-length image, in a Deployment template: the template is refused too (validateContainerCommon)',
    text: yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: web }',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '        - name: web',
      '          ports: [{ containerPort: 80 }]',
    ),
    expected: [
      {
        code: 'invalid-container-image',
        message: 'spec.template.spec.containers[0].image: Required value',
        at: 'web',
        line: 8,
      },
    ],
  },
  {
    name: 'zero-length image (TestValidateInitContainers): an init container of a CronJob without image is refused',
    text: yaml(
      'apiVersion: batch/v1',
      'kind: CronJob',
      'metadata: { name: nightly }',
      'spec:',
      '  jobTemplate:',
      '    spec:',
      '      template:',
      '        spec:',
      '          initContainers: [{ name: prepare }]',
      '          containers: [{ name: run, image: busybox }]',
    ),
    expected: [
      {
        code: 'invalid-container-image',
        message: 'spec.jobTemplate.spec.template.spec.initContainers[0].image: Required value',
        at: 'prepare',
        line: 9,
      },
    ],
  },
  {
    name: 'zero-length image (TestValidateEphemeralContainers): an ephemeral container without image is refused',
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers: [{ name: app, image: nginx }]',
      '  ephemeralContainers: [{ name: debugger }]',
    ),
    expected: [
      {
        code: 'invalid-container-image',
        message: 'spec.ephemeralContainers[0].image: Required value',
        at: 'debugger',
        line: 6,
      },
    ],
  },
  {
    name: 'a container without image or name is reported on its mapping',
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers:',
      '    - command: [sh]',
    ),
    expected: [
      {
        code: 'invalid-container-image',
        message: 'spec.containers[0].image: Required value',
        at: 'command: [sh]\n',
        line: 6,
      },
    ],
  },
  {
    name: 'image whitespace (TestValidatePod): a Pod image of one space is refused',
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers: [{ name: ctr, image: " " }]',
    ),
    expected: [
      {
        code: 'invalid-container-image',
        message: `spec.containers[0].image: Invalid value: " ": ${WHITESPACE}`,
        at: '" "',
        line: 5,
      },
    ],
  },
  {
    name: 'image leading and trailing whitespace (TestValidatePod): a Pod image " something " is refused',
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers: [{ name: ctr, image: " something " }]',
    ),
    expected: [
      {
        code: 'invalid-container-image',
        message: `spec.containers[0].image: Invalid value: " something ": ${WHITESPACE}`,
        at: '" something "',
        line: 5,
      },
    ],
  },
  {
    name: 'a template keeps accepting an image with whitespace: the check is for Pods only',
    text: yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: web }',
      'spec:',
      '  template:',
      '    spec:',
      '      containers: [{ name: web, image: " " }]',
    ),
    expected: [],
  },
  {
    name: 'a non-string image is left to the schema',
    text: yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p }',
      'spec:',
      '  containers: [{ name: app, image: 3 }]',
    ),
    expected: [],
  },
  {
    name: 'a kind without pod specs is not looked at',
    text: yaml('apiVersion: v1', 'kind: ConfigMap', 'metadata: { name: c }', 'data: { containers: "x" }'),
    expected: [],
  },
];

void describe('invalid-container-image', () => {
  for (const { name, text, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(runRule(checkContainerImages, text), expected);
    });
  }
});
