/**
 * Time to diagnostics of the bundled language server (node dist/server.js --stdio) on generated files of
 * 10 to 5,000 resources: didOpen → diagnostics, and one-character didChange → diagnostics (which includes the
 * 50 ms debounce). A benchmark, not a test: run with `npx tsx bench/lsp-latency.ts` after `npm run build`.
 */
import { performance } from 'node:perf_hooks';
import { LspSession } from '../test/support/lsp-session';
import { generateManifests } from './manifests';

const SIZES = process.argv.includes('--quick') ? [10, 100] : [10, 100, 1_000, 5_000];
const REPEATS = process.argv.includes('--quick') ? 2 : 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const coldStart = performance.now();
  const session = await LspSession.start();
  await session.open('file:///warmup.yaml', generateManifests(3));
  console.log(`cold start to first diagnostics: ${(performance.now() - coldStart).toFixed(0)} ms`);
  for (const size of SIZES) {
    const text = generateManifests(size);
    const opens: number[] = [];
    const changes: number[] = [];
    for (let run = 0; run < REPEATS; run++) {
      const uri = `file:///bench-${size}-${run}.yaml`;
      let started = performance.now();
      const diagnostics = await session.open(uri, text);
      opens.push(performance.now() - started);
      if (diagnostics.length !== 1) {
        throw new Error(`expected the one known error, got ${diagnostics.length}`);
      }
      started = performance.now();
      await session.change(uri, 2, [
        { range: { start: { line: 3, character: 8 }, end: { line: 3, character: 9 } }, text: 'b' },
      ]);
      changes.push(performance.now() - started);
      await session.close(uri);
    }
    console.log(
      `${String(size).padStart(5)} resources (${(text.length / 1024).toFixed(0)} KiB): didOpen→diagnostics median ${median(opens).toFixed(1)} ms [${Math.min(...opens).toFixed(1)}–${Math.max(...opens).toFixed(1)}], didChange→diagnostics median ${median(changes).toFixed(1)} ms [${Math.min(...changes).toFixed(1)}–${Math.max(...changes).toFixed(1)}] (50 ms of it debounce)`,
    );
  }
  await session.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
