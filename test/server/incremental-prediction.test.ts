/**
 * Predicting keystroke after keystroke gives what predicting from scratch gives. The language server keeps state
 * between keystrokes (the analyzer's documents, the prediction service's last run, each manifest's part of the
 * simulation key, the engine's remembered quantity parses); a property test over random edit sequences on
 * generated manifests compares each keystroke's prediction with one made by a fresh analyzer and a fresh
 * service with the engine's memory cleared: report for report (rollouts, budgets, refusals), workload for
 * workload, finding for finding, and the simulation key with one serialised afresh; and the engine's whole
 * result on the kept objects with its whole result on fresh ones (pods, events, record for record).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import type { Settings } from '../../protocol/settings';
import { apiServingFor, getAnalysisContext, TEST_SERVICE } from '../support/language-service';
import { PredictionService } from '../../server/src/host/prediction-service';
import type { Prediction, ScopeFile } from '../../server/src/language/service/prediction-types';
import { prepareScope, simulateScopeInFull } from '../../server/src/language/service/scope-simulation';
import { simulationInputsKey } from '../../server/src/language/service/simulation-inputs';
import { forgetParsedQuantities } from '../../server/src/engine/model/quantity';
import { SeededRandom } from '../../server/src/engine/sim/seeded-random';
import { FileAnalyzer, analyzeText } from '../../server/src/language/analyzer';
import { readManifests } from '../../server/src/language/manifests/read-manifests';
import { documentOf, edit } from '../support/random-manifests';

const URI = 'untitled:manifests.yaml';
const SETTINGS: Settings = { ...DEFAULT_SETTINGS, scope: 'file' };
const CONTEXT = getAnalysisContext('1.35', 1_000_000);
/** What a prediction says, in plain data (a finding's fix is a function of its text: left out). */
function observed(prediction: Prediction | undefined): unknown {
  assert.ok(prediction !== undefined);
  return {
    report: prediction.simulation?.report,
    samples: prediction.simulation?.samples,
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
  return new PredictionService({ openAnalyses: () => [file] }, TEST_SERVICE).predict(
    URI,
    SETTINGS,
    CONTEXT,
    true,
  );
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
      const service = new PredictionService(
        { openAnalyses: () => (file === undefined ? [] : [file]) },
        TEST_SERVICE,
      );
      let simulated = 0;
      for (let step = 0; step < 30; step++) {
        edit(random, documents, next);
        const text = documents.join('---\n');
        file = { uri: URI, analysis: analyzer.analyze(text, CONTEXT), text };
        const kept = service.predict(URI, SETTINGS, CONTEXT, true);
        simulated += kept?.reusedFrom === undefined ? 1 : 0;
        assert.deepEqual(observed(kept), observed(predictFromScratch(text)), `step ${step}`);
        const manifests = readManifests([{ id: URI, analysis: file.analysis }]).objects;
        const whole = simulateScopeInFull(
          prepareScope(manifests, '1.35', CONTEXT, undefined, '').input,
          apiServingFor,
        );
        forgetParsedQuantities();
        const fresh = readManifests([{ id: URI, analysis: analyzeText(text, CONTEXT) }]).objects;
        assert.deepEqual(
          whole,
          simulateScopeInFull(prepareScope(fresh, '1.35', CONTEXT, undefined, '').input, apiServingFor),
          `step ${step}: the engine's whole result`,
        );
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
