/**
 * Run in a fresh process by bench/server-phases.ts (bundled): where our language server's time goes on one
 * generated file. It times, in process and without LSP, the phases a didOpen runs: the analysis (YAML parse,
 * schema validation, rules) and the prediction's simulation, with the timeline (as the editor runs it) and
 * without, on the embedded default cluster (where most pods of a large file stay Pending) and on a cluster large
 * enough for every pod. Prints one JSON line of medians in milliseconds (null where the server would not simulate).
 */
import { generateManifests } from '../manifests';
import { getAnalysisContext } from '../../test/support/language-service';
import { MAX_SIMULATED_OBJECTS } from '../../server/src/language/service/prediction-types';
import { analyzeText } from '../../server/src/language/analyzer';
import type { FileAnalysis } from '../../server/src/language/analyzer';
import { severityOf } from '../../server/src/language/findings';
import type { SourcedObject } from '../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../server/src/engine/simulate/simulate';
import { summarize } from './stats';

const count = Number(process.argv[2] ?? 1000);
const repeats = Number(process.argv[3] ?? 5);

/** The objects the prediction simulates: those of documents without errors (as the language server does). */
function manifestsOf(analysis: FileAnalysis): SourcedObject[] {
  return analysis.documents.flatMap((document) =>
    document.findings.some((finding) => severityOf(finding.code) === 'error')
      ? []
      : document.objects.map((object) => ({
          object: object.value,
          source: {
            file: 'file:///bench/manifests.yaml',
            documentIndex: document.index,
            path: [...object.path],
          },
        })),
  );
}

/** Nodes of 16 cpu and 64 GiB, enough for every generated pod (100m, 128Mi each) with room to spare. */
function roomyCluster(pods: number): SourcedObject[] {
  const nodes = Math.max(3, Math.ceil((pods * 0.1) / 8));
  return Array.from({ length: nodes }, (_, index) => ({
    object: {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: `node-${index}`, labels: { 'topology.kubernetes.io/zone': `zone-${index % 3}` } },
      status: { allocatable: { cpu: '16', memory: '64Gi', pods: '110' } },
    },
    source: { file: 'file:///bench/cluster.yaml', documentIndex: index, path: [] },
  }));
}

/** Median milliseconds of `work` over `repeats` runs, after one warm-up run. */
function time(work: () => unknown): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return summarize(times).median;
}

const text = generateManifests(count);
const context = getAnalysisContext('1.35', 64 * 2 ** 20);
const analysis = analyzeText(text, context);
const manifests = manifestsOf(analysis);
const pods = Math.floor(count / 3) * 3;
const cluster = roomyCluster(pods);
const analysisMs = time(() => analyzeText(text, context));
// Beyond MAX_SIMULATED_OBJECTS the language server skips predictions: so does this breakdown.
const simulated = manifests.length <= MAX_SIMULATED_OBJECTS;
const simulationTime = (work: () => unknown): number | null => (simulated ? time(work) : null);
const result = {
  resources: count,
  analysisMs,
  simulateDefaultClusterMs: simulationTime(() => simulate({ manifests, cluster: null })),
  roomyClusterNodes: cluster.length,
  simulateRoomyClusterMs: simulationTime(() => simulate({ manifests, cluster })),
  pendingOnDefaultCluster: simulated
    ? simulate({ manifests, cluster: null }).records.filter((record) => record.nodeName === null).length
    : null,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
