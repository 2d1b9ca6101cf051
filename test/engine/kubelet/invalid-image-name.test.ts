import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { container, nodes, run, workload } from '../../support/timeline-builders';

// A placed pod whose image the kubelet cannot parse never starts: kuberuntime's startContainer asks the image
// manager for the image first (EnsureImageExists → applyDefaultImageTag), which fails with ErrInvalidImageName
// before any pull or container config (pkg/kubelet/kuberuntime/kuberuntime_container.go).

const settings = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'default' },
  data: { mode: 'fast' },
};

const stuckFindings = (result: ReturnType<typeof run>) =>
  result.findings.filter((finding) => finding.code === 'container-cannot-start');

describe('InvalidImageName', () => {
  const cases: {
    name: string;
    podSpec: Record<string, unknown>;
    reason: string;
    message: string;
    path: (string | number)[];
  }[] = [
    {
      name: 'an upper-case repository waits in InvalidImageName with the kubelet message, on the image field',
      podSpec: { containers: [container('Nginx:Latest')] },
      reason: 'InvalidImageName',
      message:
        'Failed to apply default image tag "Nginx:Latest": couldn\'t parse image name "Nginx:Latest": invalid reference format: repository name (library/Nginx) must be lowercase',
      path: ['containers', 0, 'image'],
    },
    {
      name: 'a ko:// build path (a template for ko, not an image) is an invalid reference format',
      podSpec: { containers: [container('ko://github.com/example/operator/cmd/webhook')] },
      reason: 'InvalidImageName',
      message:
        'Failed to apply default image tag "ko://github.com/example/operator/cmd/webhook": couldn\'t parse image name "ko://github.com/example/operator/cmd/webhook": invalid reference format',
      path: ['containers', 0, 'image'],
    },
    {
      name: 'an init container is started first: its image is the one reported',
      podSpec: {
        initContainers: [container('migrate tool:1')],
        containers: [container('Web:1')],
      },
      reason: 'InvalidImageName',
      message:
        'Failed to apply default image tag "migrate tool:1": couldn\'t parse image name "migrate tool:1": invalid reference format',
      path: ['initContainers', 0, 'image'],
    },
    {
      name: 'the image is pulled before the container config is made: a bad image comes before a missing key',
      podSpec: {
        containers: [
          container('Web:1', {
            env: [{ name: 'M', valueFrom: { configMapKeyRef: { name: 'settings', key: 'level' } } }],
          }),
        ],
      },
      reason: 'InvalidImageName',
      message:
        'Failed to apply default image tag "Web:1": couldn\'t parse image name "Web:1": invalid reference format: repository name (library/Web) must be lowercase',
      path: ['containers', 0, 'image'],
    },
    {
      name: 'volumes are mounted before any container: a missing ConfigMap volume comes before a bad image',
      podSpec: {
        containers: [container('Web:1')],
        volumes: [{ name: 'conf', configMap: { name: 'absent' } }],
      },
      reason: 'ContainerCreating',
      message: 'MountVolume.SetUp failed for volume "conf" : configmap "absent" not found',
      path: ['volumes', 0, 'configMap', 'name'],
    },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      const result = run({
        cluster: [...nodes(2), settings],
        manifests: [workload('Deployment', 'web', 'unused', { replicas: 2 }, entry.podSpec)],
        until: 900,
      });
      const pods = [...result.state.pods.values()].filter((pod) => pod.name.startsWith('web-'));
      assert.equal(pods.length, 2);
      for (const pod of pods) {
        assert.notEqual(pod.nodeName, null);
        assert.equal(pod.phase, 'CannotStart');
        assert.equal(pod.waiting?.reason, entry.reason);
        assert.equal(pod.waiting?.message, entry.message);
      }
      const [finding, ...more] = stuckFindings(result);
      assert.equal(more.length, 0);
      assert.equal(
        finding?.message,
        `2 pods of Deployment "web" ${entry.reason === 'ContainerCreating' ? 'stay ContainerCreating' : `stay in ${entry.reason}`} and never start: ${entry.message}`,
      );
      assert.deepEqual(
        [...(finding?.object?.path ?? []), ...(finding?.path ?? [])],
        ['spec', 'template', 'spec', ...entry.path],
      );
      assert.equal(result.rollouts.get('Deployment', 'default', 'web')?.outcome, 'ProgressDeadlineExceeded');
    });
  }

  test('a valid reference with a registry, port, tag and digest starts', () => {
    const image = `registry.example.com:5000/team/web:1.2@sha256:${'a'.repeat(64)}`;
    const result = run({
      cluster: nodes(2),
      manifests: [
        workload('Deployment', 'web', 'unused', { replicas: 2 }, { containers: [container(image)] }),
      ],
      until: 900,
    });
    assert.equal(stuckFindings(result).length, 0);
    assert.equal(result.rollouts.get('Deployment', 'default', 'web')?.outcome, 'Complete');
  });
});
