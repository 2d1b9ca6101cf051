import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { SourcedObject } from '../../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../../server/src/engine/simulate/simulate';
import type { Finding } from '../../../protocol/finding';
import { parseObjects } from '../../support/raw-objects';
import { randomScenario } from './random-scenario';

// The equivalence cache (server/src/engine/scheduler/equivalence-cache.ts) must not change a single byte of what a
// user sees: every engine fixture and a seeded sweep of random inputs are simulated with the cache and without it
// (simulate's equivalenceCache: false computes every cycle), and the whole reports, events included, must be
// equal. A longer sweep: `npx tsx bench/equivalence-sweep.ts <seeds>`.

const FIXTURES = join(__dirname, '..', '..', 'fixtures');

/** Seeds of the sweep run in every test run (a few seconds); the bench script sweeps more. */
const SEEDS = 40;

interface Input {
  readonly name: string;
  readonly cluster: SourcedObject[] | null;
  readonly manifests: SourcedObject[];
}

function read(dir: string, file: string): SourcedObject[] {
  const findings: Finding[] = [];
  return existsSync(join(dir, file))
    ? parseObjects(readFileSync(join(dir, file), 'utf8'), file, findings)
    : [];
}

function subfolders(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort();
}

/** Engine fixtures (cluster.yaml and manifests.yaml), workload fixtures, and predictions on the default cluster. */
function fixtureInputs(): Input[] {
  const inputs: Input[] = [];
  const engine = join(FIXTURES, 'engine');
  for (const name of subfolders(engine).filter((entry) => entry !== 'timeline')) {
    const dir = join(engine, name);
    inputs.push({
      name: `engine/${name}`,
      cluster: read(dir, 'cluster.yaml'),
      manifests: read(dir, 'manifests.yaml'),
    });
  }
  const timeline = join(engine, 'timeline');
  for (const name of subfolders(timeline)) {
    const dir = join(timeline, name);
    inputs.push({
      name: `engine/timeline/${name}`,
      cluster: read(dir, 'cluster.yaml'),
      manifests: read(dir, 'manifests.yaml'),
    });
  }
  const workloads = join(FIXTURES, 'workloads');
  for (const name of subfolders(workloads)) {
    const dir = join(workloads, name);
    const nodes = read(dir, 'nodes.yaml');
    inputs.push({
      name: `workloads/${name}`,
      cluster: nodes.length > 0 ? nodes : null,
      manifests: read(dir, 'input.yaml'),
    });
  }
  const predictions = join(FIXTURES, 'predictions');
  for (const name of subfolders(predictions)) {
    const dir = join(predictions, name);
    const manifests = readdirSync(dir)
      .filter((file) => file.endsWith('.yaml'))
      .sort()
      .flatMap((file) => read(dir, file));
    inputs.push({ name: `predictions/${name}`, cluster: null, manifests });
  }
  return inputs;
}

/** The report of a run as a user gets it (JSON), with the cache on or off. */
function reportOf(input: Input, equivalenceCache: boolean): string {
  const result = simulate({
    cluster: input.cluster,
    manifests: input.manifests,
    version: '1.35',
    equivalenceCache,
  });
  return JSON.stringify(result.report);
}

describe('equivalence cache, differential', () => {
  for (const input of fixtureInputs()) {
    test(`fixture ${input.name} gives the same report with the cache as without it`, () => {
      assert.equal(reportOf(input, true), reportOf(input, false));
    });
  }

  test(`${SEEDS} random scenarios give the same report with the cache as without it`, () => {
    let pendingRuns = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const scenario = randomScenario(seed);
      const input = { name: `seed ${seed}`, ...scenario };
      const cached = reportOf(input, true);
      assert.equal(cached, reportOf(input, false), `seed ${seed}`);
      if (cached.includes('FailedScheduling')) {
        pendingRuns++;
      }
    }
    // The sweep is only worth its time when pods stay Pending, the case the cache serves.
    assert.ok(pendingRuns >= SEEDS / 4, `only ${pendingRuns} of ${SEEDS} scenarios left a pod Pending`);
  });
});
