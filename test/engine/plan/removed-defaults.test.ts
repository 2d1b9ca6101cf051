import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JsonObject } from '../../../server/src/engine/model/json';
import { removedFieldDefault } from '../../../server/src/engine/plan/removed-defaults';
import { pullPolicyFor } from '../../../server/src/engine/plan/pod-defaults';

// The default the API server gives a field kubectl apply removes. Each row names the upstream defaulting test it
// follows: pkg/apis/core/v1/defaults_test.go, pkg/apis/batch/v1/defaults_test.go, pkg/apis/apps/v1/defaults_test.go.

const CONTAINER = {
  name: 'app',
  image: 'nginx:1.27.3',
  ports: [{ containerPort: 80 }],
  livenessProbe: { httpGet: { port: 80 } },
};

const deployment: JsonObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    template: { spec: { containers: [CONTAINER], initContainers: [{ name: 'init', image: 'busybox' }] } },
  },
};

const cronJob: JsonObject = {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'nightly' },
  spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: { spec: { containers: [CONTAINER] } } } } },
};

function service(spec: JsonObject): JsonObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec };
}

function job(spec: JsonObject): JsonObject {
  return { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once' }, spec };
}

const TEMPLATE = ['spec', 'template', 'spec'];

const ROWS: readonly {
  readonly name: string;
  readonly manifest: JsonObject;
  readonly path: readonly (string | number)[];
  readonly expected: unknown;
}[] = [
  // TestWorkloadDefaults (core/v1): the defaults of an empty PodTemplateSpec's containers and probes.
  {
    name: 'TestWorkloadDefaults: imagePullPolicy',
    manifest: deployment,
    path: [...TEMPLATE, 'containers', 0, 'imagePullPolicy'],
    expected: 'IfNotPresent',
  },
  {
    name: 'TestWorkloadDefaults: terminationMessagePath',
    manifest: deployment,
    path: [...TEMPLATE, 'containers', 0, 'terminationMessagePath'],
    expected: '/dev/termination-log',
  },
  {
    name: 'TestWorkloadDefaults: terminationMessagePolicy',
    manifest: deployment,
    path: [...TEMPLATE, 'containers', 0, 'terminationMessagePolicy'],
    expected: 'File',
  },
  {
    name: 'TestWorkloadDefaults: ports[0].protocol',
    manifest: deployment,
    path: [...TEMPLATE, 'containers', 0, 'ports', 0, 'protocol'],
    expected: 'TCP',
  },
  {
    name: 'TestWorkloadDefaults: livenessProbe.periodSeconds',
    manifest: deployment,
    path: [...TEMPLATE, 'containers', 0, 'livenessProbe', 'periodSeconds'],
    expected: 10,
  },
  {
    name: 'TestWorkloadDefaults: livenessProbe.failureThreshold',
    manifest: deployment,
    path: [...TEMPLATE, 'containers', 0, 'livenessProbe', 'failureThreshold'],
    expected: 3,
  },
  {
    name: 'TestWorkloadDefaults: initContainers[0].imagePullPolicy of an untagged image is Always',
    manifest: deployment,
    path: [...TEMPLATE, 'initContainers', 0, 'imagePullPolicy'],
    expected: 'Always',
  },
  {
    name: 'TestWorkloadDefaults: a container field without a default',
    manifest: deployment,
    path: [...TEMPLATE, 'containers', 0, 'args'],
    expected: undefined,
  },
  {
    name: 'TestWorkloadDefaults: a container beyond the list has none',
    manifest: deployment,
    path: [...TEMPLATE, 'containers', 3, 'imagePullPolicy'],
    expected: undefined,
  },
  {
    name: 'TestWorkloadDefaults: a CronJob pod template’s dnsPolicy',
    manifest: cronJob,
    path: ['spec', 'jobTemplate', 'spec', 'template', 'spec', 'dnsPolicy'],
    expected: 'ClusterFirst',
  },
  // SetDefaults_Job is registered for Job, not for a CronJob's job template: its backoffLimit is not defaulted.
  {
    name: 'TestSetDefaultCronJob: the job template’s backoffLimit gets no Job default',
    manifest: cronJob,
    path: ['spec', 'jobTemplate', 'spec', 'backoffLimit'],
    expected: undefined,
  },
  {
    name: 'TestSetDefaultCronJob: concurrencyPolicy',
    manifest: cronJob,
    path: ['spec', 'concurrencyPolicy'],
    expected: 'Allow',
  },
  {
    name: 'TestSetDefaultCronJob: successfulJobsHistoryLimit',
    manifest: cronJob,
    path: ['spec', 'successfulJobsHistoryLimit'],
    expected: 3,
  },
  {
    name: 'TestSetDefaultCronJob: failedJobsHistoryLimit',
    manifest: cronJob,
    path: ['spec', 'failedJobsHistoryLimit'],
    expected: 1,
  },
  // TestSetDefaultJob (batch/v1).
  {
    name: 'TestSetDefaultJob: backoffLimit 6',
    manifest: job({}),
    path: ['spec', 'backoffLimit'],
    expected: 6,
  },
  {
    name: 'TestSetDefaultJob: backoffLimit MaxInt32 with backoffLimitPerIndex',
    manifest: job({ backoffLimitPerIndex: 1, completionMode: 'Indexed' }),
    path: ['spec', 'backoffLimit'],
    expected: 2147483647,
  },
  {
    name: 'TestSetDefaultJob: completions 1 when parallelism is unset too',
    manifest: job({}),
    path: ['spec', 'completions'],
    expected: 1,
  },
  {
    name: 'TestSetDefaultJobParallelismAndCompletions: no completions with parallelism set',
    manifest: job({ parallelism: 3 }),
    path: ['spec', 'completions'],
    expected: undefined,
  },
  {
    name: 'TestSetDefaultJob: completionMode NonIndexed',
    manifest: job({}),
    path: ['spec', 'completionMode'],
    expected: 'NonIndexed',
  },
  {
    name: 'TestSetDefaultJob: podReplacementPolicy TerminatingOrFailed',
    manifest: job({}),
    path: ['spec', 'podReplacementPolicy'],
    expected: 'TerminatingOrFailed',
  },
  {
    name: 'TestSetDefaultJob: podReplacementPolicy Failed with a podFailurePolicy',
    manifest: job({ podFailurePolicy: { rules: [] } }),
    path: ['spec', 'podReplacementPolicy'],
    expected: 'Failed',
  },
  {
    name: 'TestSetDefaultJob: manualSelector false',
    manifest: job({}),
    path: ['spec', 'manualSelector'],
    expected: false,
  },
  // TestSetDefaultService, TestSetDefaultServiceTargetPort, TestSetDefaultServiceExternalTraffic,
  // TestSetDefaultServiceInternalTrafficPolicy (core/v1).
  {
    name: 'TestSetDefaultService: sessionAffinity None',
    manifest: service({}),
    path: ['spec', 'sessionAffinity'],
    expected: 'None',
  },
  {
    name: 'TestSetDefaultService: type ClusterIP',
    manifest: service({}),
    path: ['spec', 'type'],
    expected: 'ClusterIP',
  },
  {
    name: 'TestSetDefaultServiceTargetPort: targetPort is the port',
    manifest: service({ ports: [{ port: 8080 }] }),
    path: ['spec', 'ports', 0, 'targetPort'],
    expected: 8080,
  },
  {
    name: 'TestSetDefaultService: ports[0].protocol TCP',
    manifest: service({ ports: [{ port: 8080 }] }),
    path: ['spec', 'ports', 0, 'protocol'],
    expected: 'TCP',
  },
  {
    name: 'TestSetDefaultServiceExternalTraffic: Cluster for a NodePort',
    manifest: service({ type: 'NodePort' }),
    path: ['spec', 'externalTrafficPolicy'],
    expected: 'Cluster',
  },
  {
    name: 'TestSetDefaultServiceExternalTraffic: Cluster for a ClusterIP with external IPs',
    manifest: service({ externalIPs: ['203.0.113.9'] }),
    path: ['spec', 'externalTrafficPolicy'],
    expected: 'Cluster',
  },
  {
    name: 'TestSetDefaultServiceExternalTraffic: none for a plain ClusterIP',
    manifest: service({}),
    path: ['spec', 'externalTrafficPolicy'],
    expected: undefined,
  },
  {
    name: 'TestSetDefaultServiceInternalTrafficPolicy: Cluster for a ClusterIP',
    manifest: service({}),
    path: ['spec', 'internalTrafficPolicy'],
    expected: 'Cluster',
  },
  {
    name: 'TestSetDefaultServiceInternalTrafficPolicy: none for an ExternalName',
    manifest: service({ type: 'ExternalName', externalName: 'db.example.com' }),
    path: ['spec', 'internalTrafficPolicy'],
    expected: undefined,
  },
  {
    name: 'TestSetDefaultService: allocateLoadBalancerNodePorts for a LoadBalancer',
    manifest: service({ type: 'LoadBalancer' }),
    path: ['spec', 'allocateLoadBalancerNodePorts'],
    expected: true,
  },
  // TestSetDefault*VolumeSource (core/v1): the volume sources whose files get mode 0644 unless told otherwise.
  {
    name: 'TestSetDefaultSecretVolumeSource: defaultMode 0644',
    manifest: deployment,
    path: [...TEMPLATE, 'volumes', 0, 'secret', 'defaultMode'],
    expected: 0o644,
  },
  {
    name: 'TestSetDefaultConfigMapVolumeSource: defaultMode 0644',
    manifest: deployment,
    path: [...TEMPLATE, 'volumes', 0, 'configMap', 'defaultMode'],
    expected: 0o644,
  },
  {
    name: 'TestSetDefaultDownwardAPIVolumeSource: defaultMode 0644',
    manifest: deployment,
    path: [...TEMPLATE, 'volumes', 0, 'downwardAPI', 'defaultMode'],
    expected: 0o644,
  },
  {
    name: 'TestSetDefaultProjectedVolumeSource: defaultMode 0644',
    manifest: deployment,
    path: [...TEMPLATE, 'volumes', 0, 'projected', 'defaultMode'],
    expected: 0o644,
  },
  {
    name: 'no default for a volume source without a defaultMode (emptyDir sizeLimit)',
    manifest: deployment,
    path: [...TEMPLATE, 'volumes', 0, 'emptyDir', 'sizeLimit'],
    expected: undefined,
  },
  // TestSetDefaultSecret (core/v1).
  {
    name: 'TestSetDefaultSecret: type Opaque',
    manifest: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } },
    path: ['type'],
    expected: 'Opaque',
  },
  // A kind of another group is not defaulted here, whatever its fields are called.
  {
    name: 'a custom kind’s spec.type has no default',
    manifest: { apiVersion: 'example.com/v1', kind: 'Service', spec: {} },
    path: ['spec', 'type'],
    expected: undefined,
  },
];

describe('removedFieldDefault: the API server’s default for a field an apply removes', () => {
  for (const row of ROWS) {
    test(row.name, () => {
      assert.deepEqual(removedFieldDefault(row.manifest, row.path), row.expected);
    });
  }

  // SetDefaults_Container: the tag parsers.ParseImageName reads; `latest` is also the tag of a bare name.
  for (const [image, policy] of [
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['registry.example.com:5000/team/app', 'Always'],
    ['registry.example.com:5000/team/app:2.1', 'IfNotPresent'],
    ['nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'IfNotPresent'],
    ['nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'Always'],
  ] as const) {
    test(`TestWorkloadDefaults pull policy: ${image.slice(0, 40)} → ${policy}`, () => {
      assert.equal(pullPolicyFor(image), policy);
    });
  }
});
