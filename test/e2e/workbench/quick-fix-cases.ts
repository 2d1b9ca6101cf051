/**
 * The quick fixes docs/predictions.md promises, one manifest each (quick-fixes.test.ts): where the manifest goes
 * in the workspace, the code of the diagnostic whose fix is applied, and the fix's title. Applied, the fix must
 * leave the file with no diagnostic of that code. The requests fix is workbench.test.ts's.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './code-server';

/** One promised fix. */
export interface QuickFixCase {
  /** The screenshot's and the step's name. */
  readonly name: string;
  /** The manifest, relative to the workspace (its folder is the prediction's scope). */
  readonly file: string;
  readonly text: string;
  /** A `.foresight/cluster.yaml` for the manifest's folder, when the fix needs particular nodes. */
  readonly cluster?: string;
  /** The code of the diagnostic the fix is on. */
  readonly code: string;
  readonly title: RegExp;
  /** A code the fixed file then shows, when the title says what follows (pods admitted but Pending). */
  readonly then?: string;
}

const yaml = (...lines: string[]): string => `${lines.join('\n')}\n`;

const fixture = (relative: string): string =>
  readFileSync(join(REPO_ROOT, 'test/fixtures/predictions', relative), 'utf8');

const node = (name: string, extra: string[] = []): string =>
  yaml(
    'apiVersion: v1',
    'kind: Node',
    'metadata:',
    `  name: ${name}`,
    `  labels: {kubernetes.io/hostname: ${name}, kubernetes.io/os: linux}`,
    ...extra,
    'status:',
    '  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}',
  );

const namespace = (level: string): string =>
  yaml(
    'apiVersion: v1',
    'kind: Namespace',
    'metadata:',
    '  name: tools',
    '  labels:',
    `    pod-security.kubernetes.io/enforce: ${level}`,
  );

const privilegedPod = (resources: string[] = []): string =>
  yaml(
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: debug',
    '  namespace: tools',
    'spec:',
    '  containers:',
    '    - name: shell',
    '      image: busybox:1.36',
    ...resources,
    '      securityContext:',
    '        privileged: true',
  );

const deployment = (name: string, spec: string[], container: string[] = []): string =>
  yaml(
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    ...spec,
    '  template:',
    '    metadata:',
    '      labels:',
    `        app: ${name}`,
    '    spec:',
    '      containers:',
    `        - name: ${name}`,
    '          image: nginx:1.27',
    ...container,
  );

const selector = (name: string): string[] => ['  selector:', '    matchLabels:', `      app: ${name}`];
const requests = ['          resources:', '            requests: {cpu: 100m, memory: 64Mi}'];

/** Every promised fix but the requests one, in the order docs/predictions.md lists them. */
export const QUICK_FIX_CASES: readonly QuickFixCase[] = [
  {
    name: 'fix-removed-deployment',
    file: 'fixes/legacy-web/deployment.yaml',
    text: yaml(
      'apiVersion: extensions/v1beta1',
      'kind: Deployment',
      'metadata:',
      '  name: legacy-web',
      'spec:',
      '  replicas: 2',
      '  template:',
      '    metadata:',
      '      labels:',
      '        app: legacy-web',
      '    spec:',
      '      containers:',
      '        - name: web',
      '          image: nginx:1.27',
      ...requests,
    ),
    code: 'removed-api-version',
    title: /^Convert to apps\/v1 \(spec\.selector from the template labels\)$/,
  },
  {
    name: 'fix-removed-ingress',
    file: 'fixes/legacy-ingress/ingress.yaml',
    text: yaml(
      'apiVersion: extensions/v1beta1',
      'kind: Ingress',
      'metadata:',
      '  name: shop',
      'spec:',
      '  rules:',
      '    - host: shop.example.com',
      '      http:',
      '        paths:',
      '          - path: /',
      '            backend:',
      '              serviceName: web',
      '              servicePort: 80',
    ),
    code: 'removed-api-version',
    title: /^Convert to networking\.k8s\.io\/v1 \(serviceName\/servicePort → service\.name\/port; pathType/,
  },
  {
    name: 'fix-unknown-field',
    file: 'fixes/misspelt/deployment.yaml',
    text: deployment('misspelt', ['  replics: 2', ...selector('misspelt')], requests),
    code: 'schema-unknown-field',
    title: /^Rename to "replicas"$/,
  },
  {
    name: 'fix-enum-value',
    file: 'fixes/enum/deployment.yaml',
    text: deployment('enum', selector('enum'), ['          imagePullPolicy: Alwayz', ...requests]),
    code: 'schema-enum',
    title: /^Change to Always$/,
  },
  {
    name: 'fix-quantity-unit',
    file: 'fixes/units/deployment.yaml',
    text: deployment('units', selector('units'), [
      '          resources:',
      '            requests:',
      '              cpu: 2 cores',
    ]),
    code: 'invalid-quantity',
    title: /^Change to 2$/,
  },
  {
    name: 'fix-quantity-binary-unit',
    file: 'fixes/units-memory/deployment.yaml',
    text: deployment('memory', selector('memory'), [
      '          resources:',
      '            requests:',
      '              cpu: 100m',
      '              memory: 512mb',
    ]),
    code: 'invalid-quantity',
    // The second of the two fixes "512mb" gets (512M, 512Mi).
    title: /^Change to 512Mi$/,
  },
  {
    name: 'fix-selector',
    file: 'fixes/selector/deployment.yaml',
    text: deployment('selector', ['  selector:', '    matchLabels:', '      app: selectr'], requests),
    code: 'selector-mismatch',
    title: /selector/i,
  },
  {
    name: 'fix-toleration',
    file: 'fixes/tainted/deployment.yaml',
    text: deployment('ledger', selector('ledger'), requests),
    cluster: [
      node('pool-1', ['spec:', '  taints: [{key: dedicated, value: payments, effect: NoSchedule}]']),
      node('pool-2', ['spec:', '  taints: [{key: dedicated, value: payments, effect: NoSchedule}]']),
    ].join('---\n'),
    code: 'pod-unschedulable',
    title: /^Add a toleration for the taint dedicated=payments:NoSchedule$/,
  },
  {
    name: 'fix-best-effort',
    file: 'fixes/best-effort/deployment.yaml',
    text: deployment('worker', selector('worker')),
    code: 'best-effort-pod',
    title: /^Add resources \(requests cpu 100m, memory 128Mi; limits memory 128Mi/,
  },
  {
    // A quota on requests.cpu and limits.memory: pods that state neither are refused ("must specify"). The quota
    // is of a namespace of its own: in default, the cluster file's own pods already use more than its 2 cpu.
    name: 'fix-quota-default-resources',
    file: 'fixes/quota/deployment.yaml',
    text: [
      yaml('apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: team'),
      yaml(
        'apiVersion: v1',
        'kind: ResourceQuota',
        'metadata:',
        '  name: compute',
        '  namespace: team',
        'spec:',
        '  hard:',
        '    requests.cpu: "2"',
        '    limits.memory: 2Gi',
      ),
      deployment('quota', selector('quota')).replace('  name: quota\n', '  name: quota\n  namespace: team\n'),
    ].join('---\n'),
    code: 'admission-refused',
    title:
      /^Add resources \(requests cpu 100m, memory 128Mi; limits memory 128Mi, from kubeForesight\.defaultResources\)$/,
  },
  {
    name: 'fix-pod-security-baseline',
    file: 'fixes/pod-security-baseline/pod.yaml',
    text: [namespace('baseline'), privilegedPod()].join('---\n'),
    code: 'admission-refused',
    title: /^Set what Pod Security "baseline" requires: privileged: false$/,
  },
  {
    // 12 cpu on 8-cpu nodes: the fix gets the Pod admitted and its title says it then stays Pending.
    name: 'fix-pod-security-then-pending',
    file: 'fixes/pod-security-pending/pod.yaml',
    text: [
      namespace('baseline'),
      privilegedPod(['      resources:', '        requests: {cpu: "12", memory: 1Gi}']),
    ].join('---\n'),
    cluster: [node('pool-1'), node('pool-2')].join('---\n'),
    code: 'admission-refused',
    title:
      /^Set what Pod Security "baseline" requires: privileged: false \(admitted, but Pending: no node has room for it\)$/,
    then: 'pod-unschedulable',
  },
  {
    name: 'fix-pod-security-restricted',
    file: 'fixes/pod-security-restricted/pod.yaml',
    text: [namespace('restricted'), privilegedPod()].join('---\n'),
    code: 'admission-refused',
    title:
      /^Set what Pod Security "restricted" requires: privileged: false, allowPrivilegeEscalation: false, capabilities\.drop: \[ALL\], runAsNonRoot: true, seccompProfile: RuntimeDefault$/,
  },
  {
    // The cluster runs version 1.0.0 of the Deployment; the manifest rolls out 1.1.0 (the LSP test's fixture).
    name: 'fix-rollout-deadlock',
    file: 'fixes/deadlock/web.yaml',
    text: fixture('rollout-deadlock/web.yaml'),
    cluster: fixture('rollout-deadlock/.foresight/cluster.yaml'),
    code: 'rollout-stalls',
    title: /^Set maxUnavailable to 1/,
  },
];
