/**
 * The equivalence cache's differential test over many more seeds than npm test runs (test/engine/simulate/
 * equivalence-differential.test.ts runs 40): each seeded random scenario is simulated with the cache and without
 * it, and the reports must be equal. Prints the first seed that differs and exits 1, else how many were compared.
 *   npx tsx bench/equivalence-sweep.ts [seeds=500] [first=1]
 */
import { simulate } from '../server/src/engine/simulate/simulate';
import { randomScenario } from '../test/engine/simulate/random-scenario';

const seeds = Number(process.argv[2] ?? 500);
const first = Number(process.argv[3] ?? 1);
let pending = 0;
for (let seed = first; seed < first + seeds; seed++) {
  const { cluster, manifests } = randomScenario(seed);
  const run = (equivalenceCache: boolean): string =>
    JSON.stringify(simulate({ cluster, manifests, version: '1.35', equivalenceCache }).report);
  const cached = run(true);
  if (cached !== run(false)) {
    process.stdout.write(`seed ${seed}: the report differs with the equivalence cache\n`);
    process.exit(1);
  }
  if (cached.includes('FailedScheduling')) {
    pending++;
  }
}
process.stdout.write(`${seeds} seeds from ${first}: identical reports (${pending} with Pending pods)\n`);
