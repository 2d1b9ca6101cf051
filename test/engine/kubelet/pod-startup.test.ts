import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ContainerTiming } from '../../../server/src/engine/kubelet/pod-startup';
import {
  containerReadyTime,
  containerTimingOf,
  containerTimingsOf,
  effectivePullPolicy,
  gracePeriodSeconds,
  preStopDurationSeconds,
  stopDurationSeconds,
} from '../../../server/src/engine/kubelet/pod-startup';

describe('containerReadyTime (prober worker timing)', () => {
  const cases: { name: string; container: ContainerTiming; appStart?: number; expected: number }[] = [
    { name: 'without probes a container is ready once started', container: {}, expected: 10 },
    {
      name: 'a readiness probe without delay succeeds on the run triggered at start',
      container: { readinessProbe: { periodSeconds: 5 } },
      expected: 10,
    },
    {
      name: 'initialDelaySeconds 10 with period 5: the first probe counting is on the tick at +10',
      container: { readinessProbe: { initialDelaySeconds: 10, periodSeconds: 5 } },
      expected: 20,
    },
    {
      name: 'initialDelaySeconds 7 waits for the next tick after the delay (+10)',
      container: { readinessProbe: { initialDelaySeconds: 7, periodSeconds: 5 } },
      expected: 20,
    },
    {
      name: 'successThreshold 3 needs two more ticks after the first success',
      container: { readinessProbe: { periodSeconds: 5, successThreshold: 3 } },
      expected: 20,
    },
    {
      name: 'an app answering 12s after start is seen on the next 10s tick',
      container: { readinessProbe: { periodSeconds: 10 } },
      appStart: 12,
      expected: 30,
    },
    {
      name: 'the default period is 10 seconds',
      container: { readinessProbe: { initialDelaySeconds: 1 } },
      expected: 20,
    },
    {
      name: 'readiness waits for the startup probe, then runs at once',
      container: { startupProbe: { periodSeconds: 10 }, readinessProbe: { periodSeconds: 5 } },
      appStart: 15,
      expected: 30,
    },
    {
      name: 'readiness after startup still honours its own initialDelaySeconds',
      container: {
        startupProbe: { periodSeconds: 10 },
        readinessProbe: { periodSeconds: 5, initialDelaySeconds: 40 },
      },
      appStart: 15,
      expected: 50,
    },
  ];
  for (const { name, container, appStart, expected } of cases) {
    test(name, () => assert.equal(containerReadyTime(10, container, appStart ?? 0), expected));
  }
});

describe('stopDurationSeconds (graceful termination)', () => {
  const settings = { appStopSeconds: 1, preStopSeconds: 0 };
  const cases: { name: string; spec: Parameters<typeof stopDurationSeconds>[0]; expected: number }[] = [
    { name: 'an app stops appStopSeconds after SIGTERM', spec: { containers: [{}] }, expected: 1 },
    {
      name: 'a preStop sleep action runs first',
      spec: { containers: [{ lifecycle: { preStop: { sleep: { seconds: 10 } } } }] },
      expected: 11,
    },
    {
      name: 'an exec preStop "sleep 20" under sh -c counts 20 seconds',
      spec: { containers: [{ lifecycle: { preStop: { exec: { command: ['sh', '-c', 'sleep 20'] } } } }] },
      expected: 21,
    },
    {
      name: 'the grace period cuts everything short (kill)',
      spec: {
        terminationGracePeriodSeconds: 5,
        containers: [{ lifecycle: { preStop: { sleep: { seconds: 10 } } } }],
      },
      expected: 5,
    },
    {
      name: 'the slowest container decides',
      spec: { containers: [{}, { lifecycle: { preStop: { exec: { command: ['/bin/sleep', '3'] } } } }] },
      expected: 4,
    },
  ];
  for (const { name, spec, expected } of cases) {
    test(name, () => assert.equal(stopDurationSeconds(spec, settings), expected));
  }

  test('an unrecognisable preStop hook takes the preStopSeconds setting', () => {
    assert.equal(preStopDurationSeconds({ exec: { command: ['/drain.sh'] } }, 7), 7);
    assert.equal(preStopDurationSeconds({ httpGet: { path: '/stop' } }, 2), 2);
  });

  test('terminationGracePeriodSeconds defaults to 30', () => {
    assert.equal(gracePeriodSeconds({}), 30);
    assert.equal(gracePeriodSeconds({ terminationGracePeriodSeconds: 0 }), 0);
  });
});

describe('effectivePullPolicy (API default)', () => {
  const cases: { name: string; container: ContainerTiming; expected: string }[] = [
    { name: 'an untagged image is always pulled', container: { image: 'nginx' }, expected: 'Always' },
    { name: 'the latest tag is always pulled', container: { image: 'nginx:latest' }, expected: 'Always' },
    {
      name: 'a tagged image is pulled if not present',
      container: { image: 'nginx:1.27' },
      expected: 'IfNotPresent',
    },
    { name: 'a registry port is not a tag', container: { image: 'registry:5000/app' }, expected: 'Always' },
    {
      name: 'a digest is pulled if not present',
      container: { image: 'app@sha256:abc' },
      expected: 'IfNotPresent',
    },
    {
      name: 'an explicit policy wins',
      container: { image: 'nginx', imagePullPolicy: 'Never' },
      expected: 'Never',
    },
  ];
  for (const { name, container, expected } of cases) {
    test(name, () => assert.equal(effectivePullPolicy(container), expected));
  }
});

describe('containerTimingsOf (read once per container list)', () => {
  const containers: unknown[] = [
    { name: 'app', image: 'nginx:1.27', readinessProbe: { periodSeconds: 5, initialDelaySeconds: '10s' } },
    { name: 'side', lifecycle: { preStop: { sleep: { seconds: 4 } } } },
    'not a container',
  ];

  test('reads each container as containerTimingOf does', () => {
    assert.deepEqual(containerTimingsOf(containers), containers.map(containerTimingOf));
    assert.deepEqual(containerTimingsOf(containers)[0], {
      name: 'app',
      image: 'nginx:1.27',
      readinessProbe: { periodSeconds: 5 },
    });
  });

  test('the same list object gives the same timings object (pods of one template share it)', () => {
    assert.equal(containerTimingsOf(containers), containerTimingsOf(containers));
    assert.notEqual(containerTimingsOf([...containers]), containerTimingsOf(containers));
  });

  test('a missing or malformed list has no containers', () => {
    assert.deepEqual(containerTimingsOf(undefined), []);
    assert.deepEqual(containerTimingsOf({ name: 'app' } as unknown as unknown[]), []);
  });
});
