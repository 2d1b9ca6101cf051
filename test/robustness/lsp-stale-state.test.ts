/**
 * No stale state after a document closes: the kinds its CustomResourceDefinitions defined stop applying to
 * the other open documents at once. Found while fuzzing (runs close their documents): a custom resource kept
 * being validated against the CRD of a closed file until it was edited, and its first publish after the edit
 * still used it. Requires `npm run build`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LspSession } from '../support/lsp-session';
import { withinBound, stopWithin } from './lsp-support';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: { kind: Widget, plural: widgets, singular: widget, listKind: WidgetList }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { size: { type: integer } } }
`;
const WIDGET = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: "3"\n';

describe('closing a document leaves no stale state', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await stopWithin(session);
  });

  test('closing the file of a CRD checks its custom resources again, without the kind', async () => {
    const crdUri = 'file:///stale-crd/crd.yaml';
    const widgetUri = 'file:///stale-widget/widget.yaml';
    await session.open(crdUri, CRD);
    const withCrd = await withinBound('diagnostics', session.open(widgetUri, WIDGET));
    assert.deepEqual(
      withCrd.map((d) => d.code),
      ['schema-type'],
    );
    const afterClose = session.diagnostics(widgetUri);
    await session.close(crdUri);
    assert.deepEqual(
      (await withinBound('diagnostics after the CRD closed', afterClose)).map((d) => d.code),
      ['unknown-custom-kind'],
    );
  });
});
