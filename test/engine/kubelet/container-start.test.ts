import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { container, nodes, run, workload } from '../../support/timeline-builders';

const settings = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'default' },
  data: { mode: 'fast' },
};
/** A Deployment of 2 whose container reads key `key` of ConfigMap settings. */
const web = (key: string) =>
  workload(
    'Deployment',
    'web',
    'web:1.0',
    { replicas: 2 },
    {
      containers: [
        container('web:1.0', {
          env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'settings', key } } }],
        }),
      ],
    },
  );
const budget = {
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default' },
  spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
};

describe('a pod placed but never started (the kubelet on a missing ConfigMap key)', () => {
  const result = run({ cluster: [...nodes(2), settings], manifests: [web('level'), budget], until: 900 });
  const pods = [...result.state.pods.values()].filter((pod) => pod.name.startsWith('web-'));

  test("every pod is bound, waits in CreateContainerConfigError with the kubelet's message, and is never Ready", () => {
    assert.equal(pods.length, 2);
    for (const pod of pods) {
      assert.notEqual(pod.nodeName, null);
      assert.equal(pod.phase, 'CannotStart');
      assert.equal(pod.isReady, false);
      assert.deepEqual(pod.waiting?.reason, 'CreateContainerConfigError');
      assert.equal(pod.waiting?.message, "couldn't find key level in ConfigMap default/settings");
    }
  });

  test('the rollout stalls past its progress deadline (600 s) instead of completing', () => {
    assert.equal(result.rollouts.get('Deployment', 'default', 'web')?.outcome, 'ProgressDeadlineExceeded');
  });

  test('the budget counts the pods unhealthy, so it allows no disruption', () => {
    const status = result.state.disruptionBudgets.get('default/web')?.status;
    assert.equal(status?.currentHealthy, 0);
    assert.equal(status?.disruptionsAllowed, 0);
  });

  test('one error for the template, on the key, counting the pods it holds back', () => {
    const errors = result.findings.filter((finding) => finding.code === 'container-cannot-start');
    assert.equal(errors.length, 1);
    assert.equal(
      errors[0]?.message,
      '2 pods of Deployment "web" stay in CreateContainerConfigError and never start: couldn\'t find key level in ConfigMap default/settings',
    );
    assert.deepEqual(
      [...(errors[0]?.object?.path ?? []), ...(errors[0]?.path ?? [])],
      ['spec', 'template', 'spec', 'containers', 0, 'env', 0, 'valueFrom', 'configMapKeyRef', 'key'],
    );
  });
});

describe('references the cluster cannot confirm', () => {
  test('with the key present the same Deployment completes its rollout', () => {
    const result = run({ cluster: [...nodes(2), settings], manifests: [web('mode')], until: 900 });
    assert.equal(result.rollouts.get('Deployment', 'default', 'web')?.outcome, 'Complete');
    assert.equal(result.findings.filter((finding) => finding.code === 'container-cannot-start').length, 0);
  });

  test('a cluster file without ConfigMaps: the ConfigMap is assumed to exist, once per template, and pods run', () => {
    const result = run({ cluster: nodes(2), manifests: [web('mode')], until: 900 });
    assert.equal(result.rollouts.get('Deployment', 'default', 'web')?.outcome, 'Complete');
    const notes = result.findings.filter((finding) => finding.code === 'config-object-assumed');
    assert.equal(notes.length, 1);
    assert.match(
      notes[0]?.message ?? '',
      /^ConfigMap "settings" is not in the manifests; the cluster is assumed/,
    );
  });

  test('a missing volume source keeps the pod ContainerCreating with a FailedMount event', () => {
    const spec = { volumes: [{ name: 'config', configMap: { name: 'absent' } }] };
    const result = run({
      cluster: [...nodes(1), settings],
      manifests: [workload('Deployment', 'web', 'web:1.0', { replicas: 1 }, spec)],
      until: 120,
    });
    const pod = [...result.state.pods.values()].find((candidate) => candidate.name.startsWith('web-'));
    assert.equal(pod?.waiting?.reason, 'ContainerCreating');
    const mount = result.events.find((event) => event.reason === 'FailedMount');
    assert.deepEqual(
      [mount?.eventType, mount?.source, mount?.message],
      [
        'Warning',
        { component: 'kubelet', host: 'worker-1' },
        'MountVolume.SetUp failed for volume "config" : configmap "absent" not found',
      ],
    );
    // Volumes come before any container: no image is pulled.
    assert.deepEqual(
      result.events.filter((event) => event.reason === 'Pulling' && event.object.name === pod?.name),
      [],
    );
  });
});
