/**
 * One keystroke's prediction in process, as the language server makes it: the generated file open in a folder
 * of its own, one Deployment's replicas edited in turn, each edit analysed (FileAnalyzer, only the edited
 * document re-parsed) and predicted (PredictionService, the folder's scope). Prints one JSON line: the medians of
 * CPU (user + system) and wall milliseconds per edit, and a digest of the last prediction's findings.
 * Usage: npx tsx bench/support/keystroke-run.ts [resources=1000] [edits=8]
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import { getAnalysisContext, TEST_SERVICE } from '../../test/support/language-service';
import { PredictionService } from '../../server/src/host/prediction-service';
import type { ScopeFile } from '../../server/src/language/service/prediction-types';
import { FileAnalyzer } from '../../server/src/language/analyzer';
import { generateManifests } from '../manifests';
import { summarize } from './stats';

const count = Number(process.argv[2] ?? 1000);
const edits = Number(process.argv[3] ?? 8);
const folder = mkdtempSync(join(tmpdir(), 'keystroke-'));
const path = join(folder, 'manifests.yaml');
let text = generateManifests(count);
writeFileSync(path, text);
const uri = pathToFileURL(path).href;
const context = getAnalysisContext('1.35', 64 * 2 ** 20);
const analyzer = new FileAnalyzer();
let open: ScopeFile = { uri, analysis: analyzer.analyze(text, context), text };
const service = new PredictionService({ openAnalyses: () => [open] }, TEST_SERVICE);
const predict = (): number => {
  const prediction = service.predict(uri, DEFAULT_SETTINGS, context, true);
  return [...(prediction?.findings.values() ?? [])].reduce((sum, list) => sum + list.length, 0);
};
predict();
const cpu: number[] = [];
const wall: number[] = [];
let findings = 0;
for (let edit = 0; edit < edits; edit++) {
  // Deployment app-(3k) gets 4 to 7 replicas (never the 3 it had): one workload changes, the rest of the file is as it was.
  const name = `app-${String(3 * ((edit % 50) + 1))}`;
  const at = text.indexOf(`name: ${name}\n`);
  const replicasAt = text.indexOf('replicas: ', at) + 'replicas: '.length;
  const end = text.indexOf('\n', replicasAt);
  text = `${text.slice(0, replicasAt)}${String((edit % 4) + 4)}${text.slice(end)}`;
  const started = process.cpuUsage();
  const startedWall = performance.now();
  open = { uri, analysis: analyzer.analyze(text, context), text };
  findings = predict();
  const used = process.cpuUsage(started);
  wall.push(performance.now() - startedWall);
  cpu.push((used.user + used.system) / 1000);
}
const median = (values: number[]): number => Math.round(summarize(values).median);
process.stdout.write(
  `${JSON.stringify({ resources: count, edits, cpuMs: median(cpu), wallMs: median(wall), findings })}\n`,
);
