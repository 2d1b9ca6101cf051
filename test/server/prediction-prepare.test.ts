/**
 * Preparing a just-opened document's prediction (PredictionPlan.prepare) works on the open's analysis. It runs once
 * the first edit has arrived, so the open's version is no longer the document's current one: the open documents
 * list leaves it out, and the scope would read its file on disk instead, whose objects the edit never sends.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../protocol/settings';
import type { Settings } from '../../protocol/settings';
import { getAnalysisContext, TEST_SERVICE } from '../support/language-service';
import type { ScopeFile, ScopeSimulator } from '../../server/src/language/service/prediction-types';
import type { SourcedObject } from '../../server/src/engine/model/load/cluster-load';
import { PredictionService } from '../../server/src/host/prediction-service';
import { analyzeText } from '../../server/src/language/analyzer';

const SETTINGS: Settings = { ...DEFAULT_SETTINGS, scope: 'folder' };
const CONTEXT = getAnalysisContext('1.35', 1_000_000);

const configMap = (name: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

/** A simulator that only records what it is asked to recognise. */
function recordingSimulator(): { simulator: ScopeSimulator; recognised: SourcedObject[][] } {
  const recognised: SourcedObject[][] = [];
  const simulator: ScopeSimulator = {
    simulate: () => Promise.reject(new Error('prepare runs nothing')),
    recognize: (manifests) => {
      recognised.push([...manifests]);
    },
  };
  return { simulator, recognised };
}

const CASES: { name: string; isOpenCurrent: boolean }[] = [
  {
    name: 'an open whose version is no longer current prepares the objects it analysed',
    isOpenCurrent: false,
  },
  { name: 'an open that is still current prepares the same objects', isOpenCurrent: true },
];

describe('preparing a just-opened document’s prediction', () => {
  for (const { name, isOpenCurrent } of CASES) {
    test(name, () => {
      const folder = mkdtempSync(join(tmpdir(), 'foresight-prepare-'));
      const path = join(folder, 'app.yaml');
      writeFileSync(path, configMap('on-disk'));
      const text = configMap('as-opened');
      const opened: ScopeFile = { uri: pathToFileURL(path).href, analysis: analyzeText(text, CONTEXT), text };
      const service = new PredictionService(
        { openAnalyses: () => (isOpenCurrent ? [opened] : []) },
        TEST_SERVICE,
      );
      service.setWorkspaceRoots([folder]);
      const { simulator, recognised } = recordingSimulator();

      service.plan(opened.uri, SETTINGS, CONTEXT, true, opened).prepare(simulator);

      const openObjects = opened.analysis.documents.flatMap((document) =>
        document.objects.map((object) => object.value),
      );
      assert.equal(recognised.length, 1);
      assert.deepEqual(
        recognised[0]?.map(({ object }) => (object as { metadata: { name: string } }).metadata.name),
        ['as-opened'],
      );
      // The very objects of the open's analysis: those an edit of another document sends again as they are.
      assert.ok(
        recognised[0]?.every(({ object }) => openObjects.includes(object as Record<string, unknown>)),
      );
    });
  }
});
