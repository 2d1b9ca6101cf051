/**
 * Predicting keystroke after keystroke gives what predicting from scratch gives. The language server keeps state
 * between keystrokes (the analyzer's documents, the prediction service's last run, each manifest's part of the
 * simulation key, the engine's remembered quantity parses); a property test over random edit sequences on
 * generated manifests compares each keystroke's prediction with one made by a fresh analyzer and a fresh
 * service with the engine's memory cleared: report for report (pods, events, rollouts), record for record,
 * finding for finding, and the simulation key with one serialised afresh.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import type { Settings } from '../../protocol/settings';
import { getAnalysisContext } from '../../server/src/host/analysis-context';
import { PredictionService } from '../../server/src/host/prediction-service';
import type { Prediction, ScopeFile } from '../../server/src/host/prediction-types';
import { simulationInputsKey } from '../../server/src/host/simulation-inputs';
import { forgetParsedQuantities } from '../../server/src/engine/model/quantity';
import { SeededRandom } from '../../server/src/engine/sim/seeded-random';
import { FileAnalyzer, analyzeText } from '../../server/src/language/analyzer';
import { readManifests } from '../../server/src/language/manifests/read-manifests';

const URI = 'untitled:manifests.yaml';
const SETTINGS: Settings = { ...DEFAULT_SETTINGS, scope: 'file' };
const CONTEXT = getAnalysisContext('1.35', 1_000_000);
const CPUS = ['100m', '250m', '500m', '1', '1500m', '3'];
const MEMORIES = ['64Mi', '128Mi', '512Mi', '1Gi', '2G', '6Gi'];

/** One generated document: a Deployment, a Service or a ConfigMap. */
function documentOf(random: SeededRandom, index: number): string {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random.next() * values.length)] as T;
  const kind = Math.floor(random.next() * 4);
  if (kind === 0) {
    return `apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-${index}\nspec:\n  selector:\n    app: app-${index}\n  ports:\n    - port: 80\n`;
  }
  if (kind === 1) {
    return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${index}\ndata:\n  level: "${pick(['info', 'debug'])}"\n`;
  }
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${index}
spec:
  replicas: ${1 + Math.floor(random.next() * 4)}
  selector:
    matchLabels:
      app: app-${index}
  template:
    metadata:
      labels:
        app: app-${index}
    spec:
      containers:
        - name: app
          image: example/app:${index}
          resources:
            requests:
              cpu: ${pick(CPUS)}
              memory: ${pick(MEMORIES)}
`;
}

/** One random keystroke-sized edit of one document: a value changed, a comment, a type error, a document. */
function edit(random: SeededRandom, documents: string[], next: () => number): void {
  const at = Math.floor(random.next() * documents.length);
  const document = documents[at] ?? '';
  const choice = Math.floor(random.next() * 7);
  const replaced = (pattern: RegExp, value: string): string => document.replace(pattern, value);
  if (choice === 0) {
    documents[at] = replaced(/replicas: \d+/, `replicas: ${Math.floor(random.next() * 6)}`);
  } else if (choice === 1) {
    documents[at] = replaced(/cpu: \S+/, `cpu: ${CPUS[Math.floor(random.next() * CPUS.length)] ?? '1'}`);
  } else if (choice === 2) {
    documents[at] = replaced(/level: "\w+"/, `level: "${random.next() < 0.5 ? 'warn' : 'info'}"`);
  } else if (choice === 3) {
    documents[at] = `# edited ${next()}\n${document}`;
  } else if (choice === 4) {
    documents[at] = replaced(/replicas: \d+/, 'replicas: "2"');
  } else if (choice === 5 && documents.length > 2) {
    documents.splice(at, 1);
  } else {
    documents.splice(at, 0, documentOf(random, next()));
  }
}

/** What a prediction says, in plain data (a finding's fix is a function of its text: left out). */
function observed(prediction: Prediction | undefined): unknown {
  assert.ok(prediction !== undefined);
  return {
    report: prediction.simulation?.report,
    records: prediction.simulation?.records,
    engineFindings: prediction.simulation?.findings,
    predictions: prediction.predictions,
    findings: JSON.parse(JSON.stringify([...prediction.findings])) as unknown,
    cluster: prediction.clusterName,
  };
}

/** A prediction from scratch: fresh analysis, fresh service, the engine's remembered parses forgotten. */
function predictFromScratch(text: string): Prediction | undefined {
  forgetParsedQuantities();
  const file: ScopeFile = { uri: URI, analysis: analyzeText(text, CONTEXT), text };
  return new PredictionService({ openAnalyses: () => [file] }).predict(URI, SETTINGS, CONTEXT, true);
}

describe('Predictions keystroke after keystroke', () => {
  for (const seed of [1, 2, 3, 4]) {
    test(`equal those made from scratch over 30 random edits (seed ${seed})`, () => {
      const random = new SeededRandom(seed);
      let counter = 100;
      const next = (): number => counter++;
      const documents = Array.from({ length: 12 }, (_, index) => documentOf(random, index));
      const analyzer = new FileAnalyzer();
      let file: ScopeFile | undefined;
      const service = new PredictionService({ openAnalyses: () => (file === undefined ? [] : [file]) });
      let simulated = 0;
      for (let step = 0; step < 30; step++) {
        edit(random, documents, next);
        const text = documents.join('---\n');
        file = { uri: URI, analysis: analyzer.analyze(text, CONTEXT), text };
        const kept = service.predict(URI, SETTINGS, CONTEXT, true);
        simulated += kept?.reusedFrom === undefined ? 1 : 0;
        assert.deepEqual(observed(kept), observed(predictFromScratch(text)), `step ${step}`);
        const manifests = readManifests([{ id: URI, analysis: file.analysis }]).objects;
        const settings = ['1.35', '', ''];
        // Cloned objects are serialised afresh: the remembered parts give the same key.
        assert.equal(
          simulationInputsKey(settings, manifests),
          simulationInputsKey(settings, structuredClone(manifests)),
        );
      }
      // The sequence exercised the engine, not only the reuse of a previous run.
      assert.ok(simulated >= 8, `only ${simulated} of 30 keystrokes simulated`);
    });
  }
});
