/**
 * The Kubernetes Events a replayed scenario records, against the sequence a real v1.35 cluster emits for it, written
 * from the components' source:
 * - deployment-controller: ScalingReplicaSet "Scaled up|down replica set NAME from N to M" (pkg/controller/deployment/
 *   sync.go scaleReplicaSet), on the Deployment;
 * - replicaset-controller: SuccessfulCreate "Created pod: NAME", SuccessfulDelete "Deleted pod: NAME", FailedCreate
 *   (pkg/controller/controller_utils.go RealPodControl), on the ReplicaSet;
 * - default-scheduler: Scheduled "Successfully assigned NS/NAME to NODE", FailedScheduling with the FitError
 *   (pkg/scheduler/schedule_one.go), on the pod;
 * - kubelet: Pulling, Pulled (pkg/kubelet/images/image_manager.go), Created, Started, Killing
 *   (pkg/kubelet/kuberuntime/kuberuntime_container.go), FailedMount (pkg/kubelet/volumemanager), Failed
 *   "Error: …" (kuberuntime_container.go startContainer), on the pod with the container's field path, from the node;
 * - controllermanager (the disruption controller): NoPods, UnmanagedPods (pkg/controller/disruption/disruption.go);
 * - horizontal-pod-autoscaler: SuccessfulRescale (pkg/controller/podautoscaler/horizontal.go);
 * - node-controller: RegisteredNode (pkg/controller/nodelifecycle), cluster-autoscaler: TriggeredScaleUp
 *   (processors/status/eventing_scale_up_processor.go).
 * Each scenario lists the events in the order the real components record them; `kubectl events` prints them so.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TimelineEvent } from '../../../protocol/timeline';
import { nodeGroup, cpuDeployment } from '../autoscaler/autoscaler-builders';
import type { RunInput } from '../../support/timeline-builders';
import { hpa, loadStep, nodes, run, workload } from '../../support/timeline-builders';

/** One expected event: time, reason, component, involved object (kind/name prefix), message. */
type Expected = readonly [number, string, string, string, string | RegExp];

/** The events with a reason, as `kubectl events` would list them. */
function kubernetesEvents(input: RunInput): TimelineEvent[] {
  return run(input).events.filter((event) => event.reason !== undefined);
}

function matches(event: TimelineEvent, expected: Expected): boolean {
  const [time, reason, component, object, message] = expected;
  const involved = event.involvedObject;
  return (
    event.time === time &&
    event.reason === reason &&
    event.source?.component === component &&
    involved !== undefined &&
    `${involved.kind}/${involved.name}`.startsWith(object) &&
    (typeof message === 'string' ? event.message === message : message.test(event.message))
  );
}

function describeEvent(event: TimelineEvent): string {
  const involved = event.involvedObject;
  return `${event.time} ${event.reason ?? ''} ${event.source?.component ?? ''} ${involved?.kind ?? ''}/${involved?.name ?? ''} ${event.message}`;
}

const CONFIG_MAP = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'default' },
  data: { mode: 'fast' },
};

const scenarios: {
  name: string;
  input: RunInput;
  expected: readonly Expected[];
  only?: readonly string[];
}[] = [
  {
    name: 'a Deployment of 2 replicas on a node without its image, then kubectl scale to 1',
    input: {
      cluster: nodes(1),
      manifests: [workload('Deployment', 'web', 'nginx:1.27', { replicas: 2 })],
      steps: [
        {
          at: 60,
          action: { type: 'scale', kind: 'Deployment', namespace: 'default', name: 'web', replicas: 1 },
        },
      ],
    },
    expected: [
      [
        0,
        'ScalingReplicaSet',
        'deployment-controller',
        'Deployment/web',
        /^Scaled up replica set web-\w+ from 0 to 2$/,
      ],
      [0, 'SuccessfulCreate', 'replicaset-controller', 'ReplicaSet/web-', /^Created pod: web-/],
      [0, 'SuccessfulCreate', 'replicaset-controller', 'ReplicaSet/web-', /^Created pod: web-/],
      [
        0,
        'Scheduled',
        'default-scheduler',
        'Pod/web-',
        /^Successfully assigned default\/web-\S+ to worker-1$/,
      ],
      [0, 'Pulling', 'kubelet', 'Pod/web-', 'Pulling image "nginx:1.27"'],
      [
        0,
        'Scheduled',
        'default-scheduler',
        'Pod/web-',
        /^Successfully assigned default\/web-\S+ to worker-1$/,
      ],
      [0, 'Pulling', 'kubelet', 'Pod/web-', 'Pulling image "nginx:1.27"'],
      [
        10,
        'Pulled',
        'kubelet',
        'Pod/web-',
        'Successfully pulled image "nginx:1.27" in 10s (10s including waiting)',
      ],
      // The second pull waits for the first (serialized pulls), then finds the image there.
      [
        10,
        'Pulled',
        'kubelet',
        'Pod/web-',
        'Successfully pulled image "nginx:1.27" in 0s (10s including waiting)',
      ],
      [11, 'Created', 'kubelet', 'Pod/web-', 'Created container: app'],
      [11, 'Started', 'kubelet', 'Pod/web-', 'Started container app'],
      [11, 'Created', 'kubelet', 'Pod/web-', 'Created container: app'],
      [11, 'Started', 'kubelet', 'Pod/web-', 'Started container app'],
      [
        60,
        'ScalingReplicaSet',
        'deployment-controller',
        'Deployment/web',
        /^Scaled down replica set web-\w+ from 2 to 1$/,
      ],
      [60, 'SuccessfulDelete', 'replicaset-controller', 'ReplicaSet/web-', /^Deleted pod: web-/],
      [60, 'Killing', 'kubelet', 'Pod/web-', 'Stopping container app'],
    ],
  },
  {
    name: 'a pod no node fits: FailedScheduling (Warning) after its creation',
    input: { cluster: nodes(1, '1'), manifests: [cpuDeployment('big', 1, '2')] },
    expected: [
      [0, 'ScalingReplicaSet', 'deployment-controller', 'Deployment/big', /from 0 to 1$/],
      [0, 'SuccessfulCreate', 'replicaset-controller', 'ReplicaSet/big-', /^Created pod: big-/],
      [
        0,
        'FailedScheduling',
        'default-scheduler',
        'Pod/big-',
        /^0\/1 nodes are available: 1 Insufficient cpu\./,
      ],
    ],
  },
  {
    name: 'a volume whose ConfigMap is missing: Scheduled, then FailedMount, and no image pulled',
    input: {
      cluster: [...nodes(1), CONFIG_MAP],
      manifests: [
        workload(
          'Deployment',
          'web',
          'nginx:1.27',
          { replicas: 1 },
          {
            volumes: [{ name: 'config', configMap: { name: 'absent' } }],
          },
        ),
      ],
    },
    only: ['Scheduled', 'Pulling', 'FailedMount'],
    expected: [
      [0, 'Scheduled', 'default-scheduler', 'Pod/web-', /to worker-1$/],
      [
        0,
        'FailedMount',
        'kubelet',
        'Pod/web-',
        'MountVolume.SetUp failed for volume "config" : configmap "absent" not found',
      ],
    ],
  },
  {
    name: 'an env key missing from its ConfigMap: the image is pulled, then Failed "Error: …" (CreateContainerConfigError)',
    input: {
      cluster: [...nodes(1), CONFIG_MAP],
      manifests: [
        workload(
          'Deployment',
          'web',
          'nginx:1.27',
          { replicas: 1 },
          {
            containers: [
              {
                name: 'app',
                image: 'nginx:1.27',
                env: [{ name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'level' } } }],
              },
            ],
          },
        ),
      ],
    },
    only: ['Pulling', 'Pulled', 'Created', 'Failed'],
    expected: [
      [0, 'Pulling', 'kubelet', 'Pod/web-', 'Pulling image "nginx:1.27"'],
      [10, 'Pulled', 'kubelet', 'Pod/web-', /^Successfully pulled image "nginx:1.27" in 10s/],
      [10, 'Failed', 'kubelet', 'Pod/web-', "Error: couldn't find key level in ConfigMap default/settings"],
    ],
  },
  {
    name: 'a maxUnavailable budget over a pod without a controller: NoPods before the pods exist, then UnmanagedPods',
    input: {
      cluster: nodes(1),
      manifests: [
        {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'web', namespace: 'default' },
          spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
        },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'lone', namespace: 'default', labels: { app: 'web' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
        },
      ],
    },
    only: ['NoPods', 'UnmanagedPods'],
    expected: [
      [0, 'NoPods', 'controllermanager', 'PodDisruptionBudget/web', 'No matching pods found'],
      [
        0,
        'UnmanagedPods',
        'controllermanager',
        'PodDisruptionBudget/web',
        'Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
      ],
    ],
  },
  {
    name: 'an HPA scales up: SuccessfulRescale, then the deployment controller scales its ReplicaSet',
    input: {
      cluster: nodes(3),
      manifests: [workload('Deployment', 'web', 'nginx', { replicas: 3 }), hpa()],
      steps: [loadStep(60, 90)],
    },
    only: ['SuccessfulRescale', 'ScalingReplicaSet'],
    expected: [
      [0, 'ScalingReplicaSet', 'deployment-controller', 'Deployment/web', /from 0 to 3$/],
      [
        60,
        'SuccessfulRescale',
        'horizontal-pod-autoscaler',
        'HorizontalPodAutoscaler/web',
        'New size: 6; reason: cpu resource utilization (percentage of request) above target',
      ],
      [60, 'ScalingReplicaSet', 'deployment-controller', 'Deployment/web', /from 3 to 6$/],
    ],
  },
  {
    name: 'a scale-up of a node group: TriggeredScaleUp on the pod, RegisteredNode when the node joins, then Scheduled',
    input: {
      cluster: [...nodes(1, '1'), nodeGroup('workers', { maxSize: 2 })],
      manifests: [cpuDeployment('web', 1, '1500m')],
    },
    only: ['FailedScheduling', 'TriggeredScaleUp', 'RegisteredNode', 'Scheduled'],
    expected: [
      [
        0,
        'FailedScheduling',
        'default-scheduler',
        'Pod/web-',
        /^0\/1 nodes are available: 1 Insufficient cpu\./,
      ],
      [
        10,
        'TriggeredScaleUp',
        'cluster-autoscaler',
        'Pod/web-',
        'pod triggered scale-up: [{workers 0->1 (max: 2)}]',
      ],
      [
        100,
        'RegisteredNode',
        'node-controller',
        'Node/workers-1',
        'Node workers-1 event: Registered Node workers-1 in Controller',
      ],
      [100, 'Scheduled', 'default-scheduler', 'Pod/web-', /to workers-1$/],
    ],
  },
];

describe('Kubernetes Events of a replayed scenario, in a real cluster’s order', () => {
  for (const scenario of scenarios) {
    test(scenario.name, () => {
      const events = kubernetesEvents(scenario.input).filter(
        (event) => scenario.only === undefined || scenario.only.includes(event.reason ?? ''),
      );
      const actual = events.map(describeEvent);
      assert.equal(events.length, scenario.expected.length, actual.join('\n'));
      scenario.expected.forEach((expected, index) => {
        const event = events[index];
        assert.ok(
          event !== undefined && matches(event, expected),
          `event ${index}: ${actual[index] ?? '(none)'}`,
        );
      });
    });
  }

  test('the kubelet’s events name the container and come from the pod’s node', () => {
    const events = kubernetesEvents({
      cluster: nodes(1),
      manifests: [workload('Deployment', 'web', 'nginx:1.27')],
    });
    const pulling = events.find((event) => event.reason === 'Pulling');
    assert.deepEqual(
      [pulling?.eventType, pulling?.source, pulling?.involvedObject?.fieldPath],
      ['Normal', { component: 'kubelet', host: 'worker-1' }, 'spec.containers{app}'],
    );
  });

  test('v1.35 says an image already present "can be accessed by the pod" (KubeletEnsureSecretPulledImages beta)', () => {
    const present = (version: '1.34' | '1.35'): string | undefined =>
      run({
        cluster: nodes(1),
        manifests: [workload('Deployment', 'web', 'nginx:1.27')],
        timing: { presentImages: ['nginx:1.27'] },
        version,
      }).events.find((event) => event.reason === 'Pulled')?.message;
    assert.equal(present('1.34'), 'Container image "nginx:1.27" already present on machine');
    assert.equal(
      present('1.35'),
      'Container image "nginx:1.27" already present on machine and can be accessed by the pod',
    );
  });
});
