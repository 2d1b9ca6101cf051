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
import { collectManifestFiles } from '../../../server/src/cli/manifest-files';
import { simulate } from '../../../server/src/engine/simulate/simulate';
import { buildPanelReport } from '../../../server/src/host/panel-report';
import { sourcedObjectsOf } from '../../../server/src/host/simulation-request';

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
const manifests = collectManifestFiles(FOLDERS, ROOT).files.flatMap((file) => {
  const { uri, text } = read(file);
  return sourcedObjectsOf(text, uri);
});
const cluster = read(resolve(ROOT, CLUSTER));
const result = simulate({
  manifests,
  cluster: sourcedObjectsOf(cluster.text, cluster.uri),
  clusterDescription: 'cluster.yaml',
  detail: 'full',
});
const report = buildPanelReport(result, (file) => texts.get(file));
writeFileSync(OUT, `${JSON.stringify(report, null, 1)}\n`);
console.log(`${relative(ROOT, OUT)}: ${report.pods.length} pods, ${report.events?.length ?? 0} events`);
