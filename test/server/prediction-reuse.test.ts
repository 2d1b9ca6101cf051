/**
 * The prediction service reuses its last simulation when the engine would be given the same objects (an edit in
 * a ConfigMap's value, a comment), placing its findings on the edited text; any other change runs the engine.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import type { Settings } from '../../protocol/settings';
import { getAnalysisContext, TEST_SERVICE } from '../support/language-service';
import type { ScopeFile } from '../../server/src/language/service/prediction-types';
import { PredictionService } from '../../server/src/host/prediction-service';
import { analyzeText } from '../../server/src/language/analyzer';

const URI = 'untitled:manifests.yaml';
const SETTINGS: Settings = { ...DEFAULT_SETTINGS, scope: 'file' };
const CONTEXT = getAnalysisContext('1.35', 1_000_000);

const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n';
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: too-big
spec:
  replicas: 2
  selector:
    matchLabels: { app: too-big }
  template:
    metadata:
      labels: { app: too-big }
    spec:
      containers:
        - name: app
          image: example/app:1
          resources:
            requests:
              cpu: "64"
`;
const TEXT = `${CONFIG_MAP}---\n${DEPLOYMENT}`;

/** A service over one open document whose text the test sets. */
function serviceWithText(): { service: PredictionService; setText: (text: string) => void } {
  let file: ScopeFile = { uri: URI, analysis: analyzeText(TEXT, CONTEXT), text: TEXT };
  const service = new PredictionService({ openAnalyses: () => [file] }, TEST_SERVICE);
  return {
    service,
    setText: (text) => {
      file = { uri: URI, analysis: analyzeText(text, CONTEXT), text };
    },
  };
}

/** The text each prediction finding of the document covers, with its code. */
function placed(service: PredictionService, text: string): string[] {
  const prediction = service.predict(URI, SETTINGS, CONTEXT, true);
  return (prediction?.findings.get(URI) ?? []).map(
    (finding) => `${finding.code} ${text.slice(finding.start, finding.end)}`,
  );
}

const CASES: { name: string; edited: string; isReused: boolean }[] = [
  {
    name: 'an edit of a value in a ConfigMap’s data reuses the simulation',
    edited: TEXT.replace('level: info', 'level: debug'),
    isReused: true,
  },
  {
    name: 'a key added to a ConfigMap’s data runs it again: a container may read that key',
    edited: TEXT.replace('level: info', 'level: info\n  extra: "1"'),
    isReused: false,
  },
  {
    name: 'a comment and blank lines reuse the simulation',
    edited: `# the web tier\n\n${TEXT.replace('spec:\n  replicas', 'spec:\n  # two of them\n  replicas')}`,
    isReused: true,
  },
  {
    name: 'a ConfigMap’s name is given to the engine: the simulation runs again',
    edited: TEXT.replace('name: settings', 'name: other'),
    isReused: false,
  },
  {
    name: 'a Deployment’s replicas run the simulation again',
    edited: TEXT.replace('replicas: 2', 'replicas: 3'),
    isReused: false,
  },
];

describe('prediction reuse', () => {
  for (const { name, edited, isReused } of CASES) {
    test(name, () => {
      const { service, setText } = serviceWithText();
      const before = service.predict(URI, SETTINGS, CONTEXT, true);
      assert.ok(before?.simulation);
      setText(edited);
      const plan = service.plan(URI, SETTINGS, CONTEXT, true);
      assert.equal(plan.objectCount, 2, 'the objects the engine may be given');
      const after = plan.run();
      assert.equal(after.simulation === before.simulation, isReused);
      // Reused or not, the findings sit where a fresh service puts them on the edited text.
      const fresh = serviceWithText();
      fresh.setText(edited);
      assert.deepEqual(placed(service, edited), placed(fresh.service, edited));
      assert.ok(
        placed(service, edited).includes('pod-unschedulable "64"'),
        placed(service, edited).join('\n'),
      );
    });
  }

  test('a version planned twice (the pending count, then the run) reads and keys its objects once, and predicts as a fresh service', () => {
    let file: ScopeFile = { uri: URI, analysis: analyzeText(TEXT, CONTEXT), text: TEXT };
    const calls = { reads: 0, keys: 0 };
    const counting: typeof TEST_SERVICE = {
      ...TEST_SERVICE,
      readObjects: (...args) => {
        calls.reads++;
        return TEST_SERVICE.readObjects(...args);
      },
      simulationInputsKey: (...args) => {
        calls.keys++;
        return TEST_SERVICE.simulationInputsKey(...args);
      },
    };
    const service = new PredictionService({ openAnalyses: () => [file] }, counting);
    service.predict(URI, SETTINGS, CONTEXT, true);
    const edited = TEXT.replace('replicas: 2', 'replicas: 3');
    file = { uri: URI, analysis: analyzeText(edited, CONTEXT), text: edited };
    calls.reads = 0;
    calls.keys = 0;
    assert.equal(service.plan(URI, SETTINGS, CONTEXT, true).objectCount, 2);
    const prediction = service.plan(URI, SETTINGS, CONTEXT, true).run();
    assert.deepEqual(calls, { reads: 1, keys: 1 });
    const fresh = serviceWithText();
    fresh.setText(edited);
    const expected = fresh.service.predict(URI, SETTINGS, CONTEXT, true);
    assert.deepEqual(prediction.findings, expected?.findings);
    assert.deepEqual(prediction.predictions, expected?.predictions);
  });

  test('a closed document’s predictions are forgotten, so they keep no analysis of it alive', () => {
    const { service } = serviceWithText();
    const before = service.predict(URI, SETTINGS, CONTEXT, true);
    service.forgetDocument(URI);
    const after = service.predict(URI, SETTINGS, CONTEXT, true);
    assert.ok(before?.simulation && after?.simulation);
    assert.notEqual(after.simulation, before.simulation);
  });

  const KEY_ORDER_CASES: { name: string; isPredictedBefore: boolean; keyedBeforeRequest: boolean }[] = [
    {
      name: 'with no prediction to reuse, the engine inputs are keyed once the request is posted, not before',
      isPredictedBefore: false,
      keyedBeforeRequest: false,
    },
    {
      name: 'with a prediction to reuse, they are keyed before: the key decides whether the engine runs',
      isPredictedBefore: true,
      keyedBeforeRequest: true,
    },
  ];
  for (const { name, isPredictedBefore, keyedBeforeRequest } of KEY_ORDER_CASES) {
    test(name, async () => {
      let file: ScopeFile = { uri: URI, analysis: analyzeText(TEXT, CONTEXT), text: TEXT };
      let keys = 0;
      const counting: typeof TEST_SERVICE = {
        ...TEST_SERVICE,
        simulationInputsKey: (...args) => {
          keys++;
          return TEST_SERVICE.simulationInputsKey(...args);
        },
      };
      const service = new PredictionService({ openAnalyses: () => [file] }, counting);
      if (isPredictedBefore) {
        service.predict(URI, SETTINGS, CONTEXT, true);
      }
      const edited = TEXT.replace('replicas: 2', 'replicas: 3');
      file = { uri: URI, analysis: analyzeText(edited, CONTEXT), text: edited };
      keys = 0;
      const keysAtRequest: number[] = [];
      const prediction = await service.predictWith(URI, SETTINGS, CONTEXT, true, {
        simulate: (_scope, input) => {
          keysAtRequest.push(keys);
          return Promise.resolve(TEST_SERVICE.simulateScope(input));
        },
      });
      assert.deepEqual(keysAtRequest, [keyedBeforeRequest ? 1 : 0]);
      assert.equal(keys, 1, 'keyed once');
      // The key is remembered all the same: the same inputs again reuse the run.
      const commented = `# a comment\n${edited}`;
      file = { uri: URI, analysis: analyzeText(commented, CONTEXT), text: commented };
      const reused = service.plan(URI, SETTINGS, CONTEXT, true).run();
      assert.equal(reused.simulation, prediction?.simulation);
    });
  }
});
