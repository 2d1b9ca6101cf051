import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv from 'ajv';
import { runSimulate } from '../../../server/src/cli/simulate';
import type { SimulationReport } from '../../../server/src/engine/simulate/report';

// foresight simulate with the timeline: the examples against their cluster file, and scenario flags.

const ROOT = join(__dirname, '..', '..', '..');
const CLUSTER = 'examples/.foresight/cluster.yaml';

async function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runSimulate(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd: ROOT,
  });
  return { code, stdout, stderr };
}

describe('foresight simulate over time', () => {
  test('the examples roll the running storefront in waves and the payments budget blocks the drain for good', async () => {
    const { code, stdout } = await run(['-R', '--cluster', CLUSTER, 'examples/']);
    assert.equal(code, 1);
    assert.match(
      stdout,
      /^ {2}Deployment default\/storefront: RollingUpdate, maxSurge 1, maxUnavailable 0, 3 replicas; complete at \d+s$/m,
    );
    assert.match(stdout, /^ {4}TIME {2}NEW {2}OLD {2}AVAILABLE {2}UNAVAILABLE$/m);
    assert.match(stdout, /^ {6}0s {4}1 {4}3 {10}3 {12}1$/m);
    assert.match(
      stdout,
      /error: examples\/\.foresight\/cluster\.yaml:\d+ spec\.steps\[0\]: kubectl drain worker-1 never finishes: eviction of pod default\/payments-\S+ is refused by PodDisruptionBudget default\/payments: The disruption budget payments needs 2 healthy pods and has 2 currently \[drain-blocked\]/,
    );
  });

  test('the JSON report with a timeline follows the schema and is identical on two runs', async () => {
    const first = await run(['-R', '--output', 'json', '--cluster', CLUSTER, 'examples/']);
    const second = await run(['-R', '--output', 'json', '--cluster', CLUSTER, 'examples/']);
    assert.equal(first.stdout, second.stdout);
    const report = JSON.parse(first.stdout) as SimulationReport;
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    assert.ok(validate(report), JSON.stringify(validate.errors));
    assert.ok((report.events?.length ?? 0) > 0);
    assert.deepEqual(report.drains?.find((drain) => drain.node === 'worker-1')?.verdict, 'NeverFinishes');
  });

  test("load and memoryPressure steps: the report gains the HPA's rescales and the kubelet's evictions, valid JSON", async () => {
    const dir = 'test/fixtures/engine/timeline/hpa-load-and-memory-pressure';
    const { stdout } = await run([
      '--output',
      'json',
      '--cluster',
      `${dir}/cluster.yaml`,
      `${dir}/manifests.yaml`,
    ]);
    const report = JSON.parse(stdout) as SimulationReport;
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    assert.ok(validate(report), JSON.stringify(validate.errors));
    assert.deepEqual(
      report.horizontalPodAutoscalers?.map((hpa) => [
        hpa.name,
        hpa.target,
        hpa.events.map((event) => [event.time, event.from, event.to]),
      ]),
      [
        [
          'web',
          'Deployment/web',
          [
            [60, 3, 6],
            [705, 6, 2],
          ],
        ],
      ],
    );
    assert.deepEqual(
      report.kubeletEvictions?.map((eviction) => [eviction.time, eviction.node]),
      [[900, 'worker-1']],
    );
  });

  test('--until stops the timeline and a drain flag adds a step', async () => {
    const { stdout } = await run([
      '--output',
      'json',
      '--until',
      '20',
      '--drain',
      'worker-2@10',
      'examples/web-app',
    ]);
    const report = JSON.parse(stdout) as SimulationReport;
    assert.deepEqual(report.timeline, { endTime: 20, settled: false });
    assert.ok(
      report.events?.some(
        (event) => event.type === 'DrainStarted' && event.node === 'worker-2' && event.time === 10,
      ),
    );
  });

  test('a bad step flag is a usage error', async () => {
    const { code, stderr } = await run(['--scale', 'web=3', 'examples/']);
    assert.equal(code, 2);
    assert.match(stderr, /--scale needs \[NAMESPACE\/\]KIND\/NAME=REPLICAS\[@SECONDS\], not "web=3"/);
  });
});
