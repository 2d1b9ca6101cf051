/**
 * Cluster profiles (model/load/profiles/): each provider's allocatable arithmetic against its published figures, the
 * objects a profile makes, and the embedded default as an autoscaling profile: a workload too big for its workers
 * waits for a scale-up; only what no node of the profile can ever hold is a warning.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import {
  AKS_FORMULA,
  GKE_FORMULA,
  aksCpuReservation,
  aksMemoryReservation,
  allocatableOf,
  eksMemoryReservation,
  gkeMemoryReservation,
  rangedCpuReservation,
} from '../../../server/src/engine/model/load/profiles/allocatable';
import { profileObjects } from '../../../server/src/engine/model/load/profiles/cluster-profile';
import { CLUSTER_PROFILES, findProfile } from '../../../server/src/engine/model/load/profiles/profiles';
import { simulate } from '../../../server/src/engine/simulate/simulate';

describe('allocatable, as each provider publishes it', () => {
  test('GKE and EKS cpu: 6% of the first core, 1% of the second, 0.5% of the next two, 0.25% above (GKE shows 3920m for 4 cpus)', () => {
    assert.equal(rangedCpuReservation(1000), 60);
    assert.equal(rangedCpuReservation(2000), 70);
    assert.equal(rangedCpuReservation(4000), 80);
    assert.equal(4000 - rangedCpuReservation(4000), 3920);
    assert.equal(rangedCpuReservation(16000), 110);
    assert.equal(rangedCpuReservation(96000), 310);
  });

  test('GKE memory: 255 MiB below 1 GiB, then 25%, 20%, 10%, 6% and 2% of each range', () => {
    const cases: [number, number][] = [
      [512, 255],
      [4 * 1024, 1024],
      [8 * 1024, 1024 + 819.2],
      [16 * 1024, 1024 + 819.2 + 819.2],
      [128 * 1024, 2662.4 + 0.06 * 112 * 1024],
      [256 * 1024, 2662.4 + 0.06 * 112 * 1024 + 0.02 * 128 * 1024],
    ];
    for (const [memory, reserved] of cases) {
      assert.ok(
        Math.abs(gkeMemoryReservation(memory) - reserved) < 1e-9,
        `${memory} MiB: ${gkeMemoryReservation(memory)}`,
      );
    }
  });

  test("EKS memory: 11 MiB per pod + 255 MiB (nodeadm's TestKubeReservedMemoryWithUserMaxPods: 100 pods, 1355Mi)", () => {
    assert.equal(eksMemoryReservation(100), 1355);
    assert.equal(eksMemoryReservation(58), 893);
  });

  test("AKS memory: the lesser of 20 × max pods + 50 and 25% of the memory (Microsoft's two examples)", () => {
    // 8 GB and 30 pods: 650 MB reserved, 8 − 0.65 − 0.1 = 7.25 GB allocatable, 90.625%.
    assert.equal(aksMemoryReservation(8000, 30), 650);
    assert.equal(8000 - aksMemoryReservation(8000, 30) - 100, 7250);
    assert.equal((8000 - 650 - 100) / 8000, 0.90625);
    // 4 GB and 70 pods: 25% (1 GB) is less than 20 × 70 + 50 = 1450 MB; 2.9 GB allocatable, 72.5%.
    assert.equal(aksMemoryReservation(4000, 70), 1000);
    assert.equal((4000 - aksMemoryReservation(4000, 70) - 100) / 4000, 0.725);
  });

  test('AKS cpu: the published table by core count, and no guess for another count', () => {
    assert.deepEqual([1, 2, 4, 8, 16, 32, 64].map(aksCpuReservation), [60, 100, 140, 180, 260, 420, 740]);
    assert.equal(aksCpuReservation(48), undefined);
    assert.throws(
      () =>
        AKS_FORMULA.reserve({
          name: 'Standard_D48s_v5',
          cpu: 48,
          memoryMiB: 192 * 1024,
          maxPods: 250,
          diskGiB: 128,
        }),
      /AKS publishes no cpu reservation for 48 cores/,
    );
  });

  test('a GKE e2-standard-4: 3920m cpu, 16 GiB less 2662.4 MiB and the 100 MiB threshold, the disk less 10%', () => {
    const machine = { name: 'e2-standard-4', cpu: 4, memoryMiB: 16384, maxPods: 110, diskGiB: 100 };
    assert.deepEqual(allocatableOf(machine, GKE_FORMULA), {
      cpuMilli: 3920,
      memoryKiB: Math.floor((16384 - 2662.4 - 100) * 1024),
      pods: 110,
      ephemeralKiB: 90 * 1024 * 1024,
    });
  });
});

describe('the profiles', () => {
  const load = (objects: SourcedObject[]) => simulate({ manifests: [], cluster: objects, version: '1.35' });

  test('there are profiles of three clouds and of kind, k3d and minikube, each named once', () => {
    assert.deepEqual(
      CLUSTER_PROFILES.map((profile) => profile.name),
      ['default', 'gke', 'eks', 'aks', 'kind', 'k3d', 'minikube'],
    );
  });

  for (const profile of CLUSTER_PROFILES) {
    test(`profile ${profile.name} loads with no finding about itself, and is reported as that profile`, () => {
      const result = load(profileObjects(profile));
      assert.deepEqual(
        result.findings.map((finding) => `${finding.code}: ${finding.message}`),
        [],
      );
      assert.equal(result.report.cluster.kind, 'profile');
      assert.equal(result.report.cluster.profile, profile.name);
      const first = profile.groups.reduce((sum, group) => sum + group.minSize, 0);
      assert.ok(result.report.cluster.nodes.length >= first);
    });
  }

  test("GKE's first pool starts with three nodes across three zones; both pools are node groups", () => {
    const objects = profileObjects(findProfile('gke') ?? assert.fail('no gke profile')).map(
      ({ object }) => object as { kind: string; metadata: { name: string; labels?: Record<string, string> } },
    );
    const nodes = objects.filter((object) => object.kind === 'Node');
    assert.deepEqual(
      nodes.map((node) => [node.metadata.name, node.metadata.labels?.['topology.kubernetes.io/zone']]),
      [
        ['default-pool-1', 'us-central1-a'],
        ['default-pool-2', 'us-central1-b'],
        ['default-pool-3', 'us-central1-c'],
      ],
    );
    assert.deepEqual(
      objects.filter((object) => object.kind === 'NodeGroup').map((object) => object.metadata.name),
      ['default-pool', 'large-pool'],
    );
  });
});

describe('the embedded default is an autoscaling profile', () => {
  const deployment = (cpu: string) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'api', namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'api' } },
      template: {
        metadata: { labels: { app: 'api' } },
        spec: {
          containers: [{ name: 'api', image: 'api:1', resources: { requests: { cpu, memory: '1Gi' } } }],
        },
      },
    },
  });
  const run = (cpu: string) =>
    simulate({
      manifests: [{ object: deployment(cpu), source: { file: 'api.yaml', documentIndex: 0, path: [] } }],
      cluster: null,
      version: '1.35',
    });

  test('a 6-cpu Deployment waits ~100 s for a large node: information, no warning or error', () => {
    const result = run('6');
    assert.deepEqual(
      result.findings.filter((finding) => finding.severity !== 'information').map((finding) => finding.code),
      [],
    );
    assert.deepEqual(
      result.findings.map((finding) => [finding.code, finding.message]),
      [
        [
          'pod-waits-for-scale-up',
          '2 pods of Deployment api: Pending for ~100 s until the cluster autoscaler adds a node to group `large` (0 → 1 of max 3).',
        ],
      ],
    );
    assert.ok(result.report.pods.every((pod) => pod.nodeName === 'large-1'));
  });

  test('a 64-cpu Deployment gets the warning that no node of the profile can hold it', () => {
    const result = run('64');
    assert.deepEqual(
      result.findings.map((finding) => [finding.severity, finding.code, finding.message]),
      [
        [
          'warning',
          'pod-no-scale-up',
          '2 pods of Deployment api stay Pending: no node of profile "default" can hold a pod requesting 64 cpu, and the cluster autoscaler cannot help: pod didn\'t trigger scale-up: 1 Insufficient cpu',
        ],
      ],
    );
  });
});
