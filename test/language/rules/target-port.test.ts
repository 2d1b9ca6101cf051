import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkServiceTargetPorts } from '../../../server/src/language/rules/target-port';
import type { SeenFinding } from './rule-harness';
import { describeFindings, objectsOf, yaml } from './rule-harness';

/** A Service selecting app=<app>, with one port of the given targetPort (and protocol). */
function service(app: string, targetPort: string, extra: string[] = []): string {
  return yaml(
    'apiVersion: v1',
    'kind: Service',
    'metadata: { name: web }',
    'spec:',
    `  selector: { app: ${app} }`,
    '  ports:',
    '    - port: 80',
    `      targetPort: ${targetPort}`,
    ...extra,
  );
}

/** A Deployment of pods labelled app=<app> whose container has the given ports (flow style). */
function deployment(app: string, ports: string, namespace?: string): string {
  return yaml(
    'apiVersion: apps/v1',
    'kind: Deployment',
    `metadata: { name: ${app}${namespace === undefined ? '' : `, namespace: ${namespace}`} }`,
    'spec:',
    `  selector: { matchLabels: { app: ${app} } }`,
    '  template:',
    `    metadata: { labels: { app: ${app} } }`,
    '    spec:',
    `      containers: [{ name: app, image: nginx, ports: ${ports} }]`,
  );
}

const cases: { name: string; text: string; expected: SeenFinding[] }[] = [
  {
    name: 'a targetPort named by a selected container is accepted',
    text: `${service('web', 'http')}---\n${deployment('web', '[{ name: http, containerPort: 8080 }]')}`,
    expected: [],
  },
  {
    name: 'a targetPort that no selected container names is reported on the targetPort, listing the names there are',
    text: `${service('web', 'http-web')}---\n${deployment('web', '[{ name: http, containerPort: 8080 }, { name: metrics, containerPort: 9090 }]')}`,
    expected: [
      {
        code: 'target-port-not-found',
        message:
          'targetPort "http-web" is not the name of any container port in the pods this Service selects (Deployment web); their named ports: http, metrics.',
        at: 'http-web',
        line: 8,
      },
    ],
  },
  {
    name: 'a targetPort whose name matches only a port of another protocol is reported as such',
    text: `${service('web', 'dns', ['      protocol: UDP'])}---\n${deployment('web', '[{ name: dns, containerPort: 53 }]')}`,
    expected: [
      {
        code: 'target-port-not-found',
        message:
          'targetPort "dns" is a TCP port in the pods this Service selects (Deployment web), but this Service port is UDP; endpoints get no port for it.',
        at: 'dns',
        line: 8,
      },
    ],
  },
  {
    name: 'a Service that selects none of the analysed pods gets nothing',
    text: `${service('api', 'http-web')}---\n${deployment('web', '[{ name: http, containerPort: 8080 }]')}`,
    expected: [],
  },
  {
    name: 'pods in another namespace are not selected',
    text: `${service('web', 'http-web')}---\n${deployment('web', '[{ name: http, containerPort: 8080 }]', 'other')}`,
    expected: [],
  },
  {
    name: 'a Service with several selector labels selects only the pods that carry all of them',
    text: `${service('web, tier: front', 'http-web')}---\n${deployment('web', '[{ name: http-web, containerPort: 8080 }]')}---\n${yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: front }',
      'spec:',
      '  selector: { matchLabels: { app: web, tier: front } }',
      '  template:',
      '    metadata: { labels: { app: web, tier: front } }',
      '    spec:',
      '      containers: [{ name: app, image: nginx, ports: [{ name: http, containerPort: 8080 }] }]',
    )}`,
    expected: [
      {
        code: 'target-port-not-found',
        message:
          'targetPort "http-web" is not the name of any container port in the pods this Service selects (Deployment front); their named ports: http.',
        at: 'http-web',
        line: 8,
      },
    ],
  },
  {
    name: 'the pods a Service selects are named in the order of the manifests',
    text: `${deployment('web', '[{ name: http, containerPort: 8080 }]')}---\n${service('web', 'grpc')}---\n${yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: debug, labels: { app: web, debug: "true" } }',
      'spec:',
      '  containers: [{ name: app, image: nginx, ports: [{ name: metrics, containerPort: 9090 }] }]',
    )}`,
    expected: [
      {
        code: 'target-port-not-found',
        message:
          'targetPort "grpc" is not the name of any container port in the pods this Service selects (Deployment web, Pod debug); their named ports: http, metrics.',
        at: 'grpc',
        line: 18,
      },
    ],
  },
  {
    name: 'a numeric targetPort is not looked up',
    text: `${service('web', '8080')}---\n${deployment('web', '[{ name: http, containerPort: 8080 }]')}`,
    expected: [],
  },
  {
    name: 'a port named by a sidecar init container counts',
    text: `${service('web', 'proxy')}---\n${yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p, labels: { app: web } }',
      'spec:',
      '  initContainers: [{ name: envoy, restartPolicy: Always, ports: [{ name: proxy, containerPort: 15001 }] }]',
      '  containers: [{ name: app, image: nginx }]',
    )}`,
    expected: [],
  },
  {
    name: 'a port named only by a plain init container does not count',
    text: `${service('web', 'setup')}---\n${yaml(
      'apiVersion: v1',
      'kind: Pod',
      'metadata: { name: p, labels: { app: web } }',
      'spec:',
      '  initContainers: [{ name: init, ports: [{ name: setup, containerPort: 1 }] }]',
      '  containers: [{ name: app, image: nginx }]',
    )}`,
    expected: [
      {
        code: 'target-port-not-found',
        message:
          'targetPort "setup" is not the name of any container port in the pods this Service selects (Pod p); they name no ports.',
        at: 'setup',
        line: 8,
      },
    ],
  },
];

void describe('target-port-not-found', () => {
  for (const { name, text, expected } of cases) {
    void test(name, () => {
      const results = checkServiceTargetPorts(objectsOf(text));
      assert.deepEqual(describeFindings(text, [...results.values()].flat()), expected);
      assert.ok(
        [...results.keys()].every((object) => object.kind === 'Service'),
        'findings belong to Services',
      );
    });
  }
});
