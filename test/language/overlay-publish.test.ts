/**
 * How a file's diagnostics meet its kustomize units' (issue #28 item 2): the same finding of several units is one
 * diagnostic naming the units only when not all of them give it, and a file judged through its renders keeps its
 * own prediction only where every render confirms it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver';
import { textFinding } from '../../server/src/language/findings';
import {
  mergeUnitDiagnostics,
  throughRenders,
  withOverlayDiagnostics,
} from '../../server/src/language/service/overlay-publish';
import type { OverlayDiagnostic } from '../../server/src/language/service/overlay-findings';
import { LineIndex } from '../../server/src/language/text/line-index';

const TEXT = 'a: 1\nb: 2\nc: 3\n';
const lines = new LineIndex(TEXT);

function unitDiagnostic(label: string, line: number, message: string): OverlayDiagnostic {
  const diagnostic: Diagnostic = {
    range: { start: { line, character: 0 }, end: { line, character: 1 } },
    severity: 2,
    source: 'kube-foresight',
    code: 'pod-unschedulable',
    message: `overlay \`${label}\`: ${message}`,
  };
  return { diagnostic, plainMessage: message, label };
}

describe('merging the diagnostics of the units that include a file', () => {
  test('two units that agree give one diagnostic naming neither', () => {
    const merged = mergeUnitDiagnostics(
      [unitDiagnostic('blue', 1, 'Pending'), unitDiagnostic('green', 1, 'Pending')],
      ['blue', 'green'],
    );
    assert.deepEqual(
      merged.map((entry) => [entry.diagnostic.message, entry.allAgree === true]),
      [['Pending', true]],
    );
  });

  test('a finding one of two units gives names that unit', () => {
    const merged = mergeUnitDiagnostics([unitDiagnostic('wide', 1, 'Pending')], ['wide', 'narrow']);
    assert.deepEqual(
      merged.map((entry) => [entry.diagnostic.message, entry.allAgree === true]),
      [['overlay `wide`: Pending', false]],
    );
  });

  test('with no unit rendered (a failed render), the finding keeps its unit’s name', () => {
    const merged = mergeUnitDiagnostics([unitDiagnostic('failing', 0, 'kustomize could not render it')], []);
    assert.equal(merged[0]?.diagnostic.message, 'overlay `failing`: kustomize could not render it');
  });
});

describe('a file judged through its renders', () => {
  const own = textFinding('pod-unschedulable', 'Pending', TEXT.indexOf('1'), TEXT.indexOf('1') + 1, {
    replacement: '0',
    title: 'Lower',
  });
  test('its prediction every render confirms on the same line is kept (with its fix) and the render’s copy dropped', () => {
    const [agreed] = mergeUnitDiagnostics([unitDiagnostic('app', 0, 'Pending')], ['app']);
    assert.ok(agreed);
    const judged = throughRenders([own], lines, [agreed]);
    assert.deepEqual(judged.predicted, [own]);
    assert.deepEqual(judged.overlays, []);
  });

  test('a prediction the renders do not give is dropped: what is applied is the render', () => {
    const [other] = mergeUnitDiagnostics([unitDiagnostic('app', 2, 'Pending')], ['app']);
    assert.ok(other);
    const judged = throughRenders([own], lines, [other]);
    assert.deepEqual(judged.predicted, []);
    assert.deepEqual(judged.overlays, [other]);
  });

  test('a render that disagrees in its message does not confirm the file’s prediction', () => {
    const [other] = mergeUnitDiagnostics([unitDiagnostic('app', 0, '3 of 6 replicas stay Pending')], ['app']);
    assert.ok(other);
    assert.deepEqual(throughRenders([own], lines, [other]).predicted, []);
  });
});

describe('a file not judged through renders, with its overlays', () => {
  const own: Diagnostic = {
    range: { start: { line: 2, character: 6 }, end: { line: 2, character: 18 } },
    severity: 3,
    source: 'kube-foresight',
    code: 'unknown-custom-kind',
    message: 'GatewayClass is not a built-in kind',
  };
  test('the overlay copy of its own finding, mapped to the line but not the column, is not added again', () => {
    // flux2-kustomize-helm-example's infrastructure/configs/gateway.yaml: the render's `kind` maps to column 0.
    const copy: OverlayDiagnostic = {
      diagnostic: { ...own, range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } } },
      plainMessage: own.message,
      label: 'infrastructure/configs',
    };
    const [merged] = mergeUnitDiagnostics([copy], ['infrastructure/configs']);
    assert.ok(merged);
    assert.deepEqual(withOverlayDiagnostics([own], [merged]), [own]);
  });

  test('the same code and message on another line is another finding, kept', () => {
    const elsewhere: OverlayDiagnostic = {
      diagnostic: { ...own, range: { start: { line: 9, character: 0 }, end: { line: 9, character: 0 } } },
      plainMessage: own.message,
      label: 'infrastructure/configs',
    };
    const [merged] = mergeUnitDiagnostics([elsewhere], ['infrastructure/configs']);
    assert.ok(merged);
    assert.equal(withOverlayDiagnostics([own], [merged]).length, 2);
  });
});
