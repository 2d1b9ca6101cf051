import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkSelectorMatchesTemplate } from '../../../server/src/language/rules/selector-mismatch';
import type { SeenFinding } from './rule-harness';
import { runRule, yaml } from './rule-harness';

const MISMATCH = '`selector` does not match template `labels`';

/** A workload of a kind with the given selector and template label lines (already indented). */
function workload(kind: string, selector: string[], labels: string[], apiVersion = 'apps/v1'): string {
  return yaml(
    `apiVersion: ${apiVersion}`,
    `kind: ${kind}`,
    'metadata:',
    '  name: web',
    'spec:',
    ...selector,
    '  template:',
    '    metadata:',
    ...labels,
    '    spec:',
    '      containers:',
    '        - name: app',
    '          image: nginx',
  );
}

const cases: { name: string; text: string; expected: SeenFinding[] }[] = [
  {
    name: 'a Deployment whose matchLabels equal its template labels is accepted',
    text: workload(
      'Deployment',
      ['  selector:', '    matchLabels:', '      app: web'],
      ['      labels:', '        app: web', '        tier: front'],
    ),
    expected: [],
  },
  {
    name: 'a matchLabels value that differs is reported on the value, with a fix to the template value',
    text: workload(
      'Deployment',
      ['  selector:', '    matchLabels:', '      app: web'],
      ['      labels:', '        app: api'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires app=web, but the pod template has app=api.`,
        at: 'web',
        line: 8,
        replacement: 'api',
      },
    ],
  },
  {
    name: 'a quoted selector value keeps its quotes in the fix',
    text: workload(
      'StatefulSet',
      ['  selector:', '    matchLabels:', '      app: "web"'],
      ['      labels:', '        app: "true"'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires app=web, but the pod template has app=true.`,
        at: '"web"',
        line: 8,
        replacement: '"true"',
      },
    ],
  },
  {
    name: 'a selector key the template lacks is reported on the key, without a fix',
    text: workload(
      'DaemonSet',
      ['  selector:', '    matchLabels:', '      app: web', '      tier: front'],
      ['      labels:', '        app: web'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires tier=front, but the pod template has no label tier.`,
        at: 'tier',
        line: 9,
      },
    ],
  },
  {
    name: 'two unmet requirements give two findings and no fix, since no single edit is exact',
    text: workload(
      'ReplicaSet',
      ['  selector:', '    matchLabels:', '      app: web', '      tier: front'],
      ['      labels:', '        app: api'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires app=web, but the pod template has app=api.`,
        at: 'web',
        line: 8,
      },
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires tier=front, but the pod template has no label tier.`,
        at: 'tier',
        line: 9,
      },
    ],
  },
  {
    name: 'a template without labels is reported on the template metadata, naming the labels to add',
    text: workload(
      'Deployment',
      ['  selector:', '    matchLabels:', '      app: web'],
      ['      annotations: {}'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the pod template has no labels; add app: web under spec.template.metadata.labels.`,
        at: 'metadata',
        line: 10,
      },
    ],
  },
  {
    name: 'an In expression that the template value is not in is reported on the values',
    text: workload(
      'Deployment',
      [
        '  selector:',
        '    matchExpressions:',
        '      - key: tier',
        '        operator: In',
        '        values: [web, api]',
      ],
      ['      labels:', '        tier: db'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires tier in (web, api), but the pod template has tier=db.`,
        at: '[web, api]',
        line: 10,
      },
    ],
  },
  {
    name: 'an In expression on a label the template lacks is reported on the key',
    text: workload(
      'Deployment',
      [
        '  selector:',
        '    matchExpressions:',
        '      - key: tier',
        '        operator: In',
        '        values: [web]',
      ],
      ['      labels:', '        app: web'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires tier in (web), but the pod template has no label tier.`,
        at: 'tier',
        line: 8,
      },
    ],
  },
  {
    name: 'a NotIn expression is reported on the excluded value the template has',
    text: workload(
      'Deployment',
      [
        '  selector:',
        '    matchExpressions:',
        '      - key: tier',
        '        operator: NotIn',
        '        values: [cache, db]',
      ],
      ['      labels:', '        tier: db'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires tier notin (cache, db), but the pod template has tier=db.`,
        at: 'db',
        line: 10,
      },
    ],
  },
  {
    name: 'an Exists expression on a missing label and a DoesNotExist on a present one are both reported',
    text: workload(
      'Deployment',
      [
        '  selector:',
        '    matchExpressions:',
        '      - { key: app, operator: Exists }',
        '      - { key: canary, operator: DoesNotExist }',
      ],
      ['      labels:', '        canary: "yes"'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires the label app, but the pod template has no label app.`,
        at: 'app',
        line: 8,
      },
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires no label canary, but the pod template has canary=yes.`,
        at: 'canary',
        line: 9,
      },
    ],
  },
  {
    name: 'matching expressions of every operator are accepted',
    text: workload(
      'Deployment',
      [
        '  selector:',
        '    matchExpressions:',
        '      - { key: app, operator: In, values: [web] }',
        '      - { key: tier, operator: NotIn, values: [db] }',
        '      - { key: app, operator: Exists }',
        '      - { key: canary, operator: DoesNotExist }',
      ],
      ['      labels:', '        app: web', '        tier: front'],
    ),
    expected: [],
  },
  {
    name: 'an unknown operator is reported with the API server message and a fix for its spelling',
    text: workload(
      'Deployment',
      ['  selector:', '    matchExpressions:', '      - { key: app, operator: in, values: [web] }'],
      ['      labels:', '        app: web'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message:
          'spec.selector.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator',
        at: 'in',
        line: 8,
        replacement: 'In',
      },
    ],
  },
  {
    name: 'In without values is reported on the operator',
    text: workload(
      'Deployment',
      ['  selector:', '    matchExpressions:', '      - { key: app, operator: In }'],
      ['      labels:', '        app: web'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message:
          "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        at: 'In',
        line: 8,
      },
    ],
  },
  {
    name: 'Exists with values is reported on the values key',
    text: workload(
      'Deployment',
      ['  selector:', '    matchExpressions:', '      - { key: app, operator: Exists, values: [web] }'],
      ['      labels:', '        app: web'],
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message:
          "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        at: 'values',
        line: 8,
      },
    ],
  },
  {
    name: 'an empty selector of an apps/v1 workload is reported on the selector key',
    text: workload('StatefulSet', ['  selector: {}'], ['      labels:', '        app: web']),
    expected: [
      {
        code: 'selector-mismatch',
        message:
          "spec.selector: Invalid value: empty selector is invalid for statefulset; a StatefulSet needs matchLabels or matchExpressions that select its pod template's labels.",
        at: 'selector',
        line: 6,
      },
    ],
  },
  {
    name: 'a template label written as a number matches its text, leaving the type to the schema',
    text: workload(
      'Deployment',
      ['  selector:', '    matchLabels:', '      version: "1"'],
      ['      labels:', '        version: 1'],
    ),
    expected: [],
  },
  {
    name: 'a selector with an invalid label value is left to the label rule',
    text: workload(
      'Deployment',
      ['  selector:', '    matchLabels:', '      app: "we b"'],
      ['      labels:', '        app: api'],
    ),
    expected: [],
  },
  {
    name: 'a ReplicationController selector value that differs is reported with a fix',
    text: workload(
      'ReplicationController',
      ['  selector:', '    app: web'],
      ['      labels:', '        app: api'],
      'v1',
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires app=web, but the pod template has app=api.`,
        at: 'web',
        line: 7,
        replacement: 'api',
      },
    ],
  },
  {
    name: 'a ReplicationController without a selector takes its template labels and is accepted',
    text: workload('ReplicationController', [], ['      labels:', '        app: api'], 'v1'),
    expected: [],
  },
  {
    name: 'a ReplicationController with neither a selector nor template labels is reported',
    text: workload('ReplicationController', [], ['      annotations: {}'], 'v1'),
    expected: [
      {
        code: 'selector-mismatch',
        message:
          'spec.selector: Required value: a ReplicationController without a selector uses its pod template labels, and the template has none.',
        at: 'metadata',
        line: 7,
      },
    ],
  },
  {
    name: 'a Job with manualSelector whose selector misses the template is reported',
    text: workload(
      'Job',
      ['  manualSelector: true', '  selector:', '    matchLabels:', '      job: a'],
      ['      labels:', '        job: b'],
      'batch/v1',
    ),
    expected: [
      {
        code: 'selector-mismatch',
        message: `${MISMATCH}: the selector requires job=a, but the pod template has job=b.`,
        at: 'a',
        line: 9,
        replacement: 'b',
      },
    ],
  },
  {
    name: 'a Job with manualSelector and no selector is reported on manualSelector',
    text: workload('Job', ['  manualSelector: true'], ['      labels:', '        job: b'], 'batch/v1'),
    expected: [
      {
        code: 'selector-mismatch',
        message:
          'spec.selector: Required value: a Job with manualSelector: true must have a selector that matches its pod template labels.',
        at: 'manualSelector',
        line: 6,
      },
    ],
  },
  {
    name: 'a Job without manualSelector is not checked (its selector is generated)',
    text: workload(
      'Job',
      ['  selector:', '    matchLabels:', '      job: a'],
      ['      labels:', '        job: b'],
      'batch/v1',
    ),
    expected: [],
  },
  {
    name: 'a Deployment of a custom group is not checked',
    text: workload(
      'Deployment',
      ['  selector:', '    matchLabels:', '      app: web'],
      ['      labels:', '        app: api'],
      'example.com/v1',
    ),
    expected: [],
  },
];

void describe('selector-mismatch', () => {
  for (const { name, text, expected } of cases) {
    void test(name, () => {
      assert.deepEqual(runRule(checkSelectorMatchesTemplate, text), expected);
    });
  }
});
