/**
 * Writes the large report (support/large-report.ts) to a file to open or profile by hand:
 * `npx tsx test/webview/support/write-large-report.ts [out.json]` (default test-results/large-report.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { largeReport } from './large-report';

const out = process.argv[2] ?? 'test-results/large-report.json';
mkdirSync(dirname(out), { recursive: true });
const report = largeReport();
writeFileSync(out, JSON.stringify(report));
console.log(
  `${out}: ${report.cluster.nodes.length} nodes, ${report.pods.length} pods at the end, ${report.events?.length ?? 0} events`,
);
