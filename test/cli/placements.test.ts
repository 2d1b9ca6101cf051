import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  placeReaderFindingsIn,
  placesOf,
  placeTargetPortsIn,
} from '../../server/src/language/service/validate-placements';
import type { TargetPortRequest } from '../../server/src/language/service';
import { getAnalysisContext } from '../support/language-service';
import type { FileAnalysis } from '../../server/src/language/analyzer';
import { analyzeText } from '../../server/src/language/analyzer';
import { shiftFinding } from '../../server/src/language/findings';
import type { ManifestObject } from '../../server/src/language/kubernetes/manifest-object';
import { placeReaderFindings } from '../../server/src/language/manifests/place-findings';
import { readManifests } from '../../server/src/language/manifests/read-manifests';
import { placeTargetPortProblems, serviceTargetPortProblems } from '../../server/src/language/rules';

// The places a validate thread keeps of a file (placements.ts) give the findings that placing on the whole
// analysis gives (place-findings.ts placeReaderFindings, workspace-findings.ts's target-port placement), on
// files whose reader and target-port findings fall on block, flow and List-item objects and on missing fields.

const CONTEXT = getAnalysisContext('1.35', 1_000_000);

const CASES: readonly {
  readonly name: string;
  readonly text: string;
  readonly expected: readonly string[];
}[] = [
  {
    name: 'a ConfigMap defined twice in block style is placed on the first definition name',
    text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    expected: ['duplicate-object'],
  },
  {
    name: 'a duplicate in flow-style metadata is placed on the flow value',
    text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n',
    expected: ['duplicate-object'],
  },
  {
    name: 'a List item defined again after the List is placed inside the item',
    text:
      'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: c\n' +
      '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
    expected: ['duplicate-object'],
  },
  {
    name: 'a Pod with generateName only is placed on generateName (kubectl apply refuses it)',
    text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: web-\nspec:\n  containers:\n    - name: a\n      image: nginx\n',
    expected: ['generate-name-with-apply'],
  },
  {
    name: 'a Service whose targetPort no selected container names is placed on that targetPort',
    text:
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  containers:\n    - name: a\n' +
      '      image: nginx\n      ports:\n        - name: http\n          containerPort: 80\n---\napiVersion: v1\n' +
      'kind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n    - port: 80\n' +
      '      targetPort: http\n    - port: 81\n      targetPort: http-alt\n',
    expected: ['target-port-not-found'],
  },
];

function wholeAnalysisPlacements(id: string, analysis: FileAnalysis): unknown {
  const reader = readManifests([{ id, analysis }]).findings;
  const owners = new Map<ManifestObject, { documentIndex: number; offset: number }>();
  analysis.documents.forEach((document, documentIndex) => {
    for (const object of document.objects) {
      owners.set(object, { documentIndex, offset: document.offset });
    }
  });
  const targetPorts = [...serviceTargetPortProblems([...owners.keys()])].flatMap(([service, problems]) =>
    placeTargetPortProblems(service, problems).map((finding) =>
      shiftFinding(finding, owners.get(service)?.offset ?? NaN),
    ),
  );
  return { reader: [...placeReaderFindings(reader, [{ id, analysis }])], targetPorts };
}

function keptPlacements(id: string, analysis: FileAnalysis): unknown {
  const reader = readManifests([{ id, analysis }]).findings;
  const requests: TargetPortRequest[] = [];
  const objects = analysis.documents.flatMap((document) => document.objects);
  const problems = serviceTargetPortProblems(objects);
  analysis.documents.forEach((document, documentIndex) => {
    document.objects.forEach((object, objectIndex) => {
      const found = problems.get(object);
      if (found !== undefined) {
        requests.push({ file: id, documentIndex, objectIndex, problems: found });
      }
    });
  });
  const places = new Map([[id, placesOf(analysis)]]);
  return {
    reader: [...placeReaderFindingsIn(reader, places)],
    targetPorts: placeTargetPortsIn(requests, places).get(id) ?? [],
  };
}

for (const { name, text, expected } of CASES) {
  test(`kept places: ${name}`, () => {
    const analysis = analyzeText(text, CONTEXT);
    const kept = keptPlacements('f.yaml', analysis) as {
      reader: [string, { code: string }[]][];
      targetPorts: { code: string }[];
    };
    const codes = [...kept.reader.flatMap(([, list]) => list), ...kept.targetPorts].map(
      (finding) => finding.code,
    );
    assert.deepEqual(codes, expected);
    assert.deepEqual(kept, wholeAnalysisPlacements('f.yaml', analysis));
  });
}

test('kept places: a request for a place that was not kept fails instead of placing elsewhere', () => {
  const analysis = analyzeText('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n', CONTEXT);
  const places = new Map([['f.yaml', placesOf(analysis)]]);
  assert.throws(
    () =>
      placeReaderFindingsIn(
        [
          {
            code: 'duplicate-object',
            severity: 'warning',
            object: { file: 'f.yaml', documentIndex: 0, path: [] },
            path: ['data', 'x'],
            message: 'm',
          },
        ],
        places,
      ),
    /no place kept for \["data","x"\] in f\.yaml/,
  );
  assert.throws(
    () =>
      placeTargetPortsIn(
        [
          {
            file: 'f.yaml',
            documentIndex: 0,
            objectIndex: 0,
            problems: [
              { code: 'target-port-not-found', path: ['spec', 'ports', 0, 'targetPort'], message: 'm' },
            ],
          },
        ],
        places,
      ),
    /no place kept for spec\.ports\.0\.targetPort in f\.yaml/,
  );
});
