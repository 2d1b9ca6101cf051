/**
 * Records test/fixtures/webview/engine-examples.json: the real engine's report of the examples (web-app,
 * batch-analytics, database, log-agent) on the cluster and scenario of
 * test/fixtures/webview/manifests/examples-scenario/cluster.yaml (a rollout from the running storefront, a drain
 * held by its disruption budget, a node failure), as the language server answers it to the panel. File URIs are
 * rewritten under file:///workspace/ so that the recording does not depend on the checkout's path.
 * Run after an engine change: `npx tsx test/webview/support/write-engine-fixture.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { collectManifestFiles } from '../../../server/src/files/manifest-files';
import { simulate } from '../../../server/src/engine/simulate/simulate';
import { buildPanelReport } from '../../../server/src/language/service/panel-report';
import { getAnalysisContext } from '../../support/language-service';
import { analyzeText } from '../../../server/src/language/analyzer';
import { readManifests } from '../../../server/src/language/manifests/read-manifests';

const ROOT = resolve(__dirname, '../../..');
const OUT = resolve(ROOT, 'test/fixtures/webview/engine-examples.json');
const FOLDERS = ['examples/web-app', 'examples/batch-analytics', 'examples/database', 'examples/log-agent'];
const CLUSTER = 'test/fixtures/webview/manifests/examples-scenario/cluster.yaml';

const texts = new Map<string, string>();
const read = (file: string): { uri: string; text: string } => {
  const uri = `file:///workspace/${relative(ROOT, file)}`;
  const text = readFileSync(file, 'utf8');
  texts.set(uri, text);
  return { uri, text };
};
const context = getAnalysisContext('1.35', 8 * 2 ** 20);
const analysed = (file: string) => {
  const { uri, text } = read(file);
  return { id: uri, analysis: analyzeText(text, context) };
};
// The one manifest reader, as the language server reads the folders for the panel.
const manifests = readManifests(collectManifestFiles(FOLDERS, ROOT).files.map(analysed)).objects;
const cluster = readManifests([analysed(resolve(ROOT, CLUSTER))], { keepAll: true }).objects;
const result = simulate({
  manifests,
  cluster,
  clusterDescription: 'cluster.yaml',
  detail: 'full',
});
const report = buildPanelReport(result, (file) => texts.get(file));
writeFileSync(OUT, `${JSON.stringify(report, null, 1)}\n`);
console.log(`${relative(ROOT, OUT)}: ${report.pods.length} pods, ${report.events?.length ?? 0} events`);
