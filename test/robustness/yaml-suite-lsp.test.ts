/**
 * Every case of the YAML test suite through the bundled server over LSP: each is opened as it is (no crash,
 * no hang, diagnostics published, hover, completion and outline answered within the bound), and, where the
 * case stays meaningful, opened again behind a Kubernetes header so that the server analyses it: the
 * server reports nothing for YAML that is not a Kubernetes object.
 *
 * The header is "apiVersion: v1\nkind: ConfigMap\n", prepended. It keeps a case meaningful when the case has
 * no "---", "..." or "%" line (it stays one document with the header) and, by the yaml package's own verdict
 * on the wrapped text, an error case still has an error past the header and a valid case is still valid (a
 * case whose top level is a sequence or a scalar is not: two mapping keys before it make it invalid). On
 * those, errors must produce an error diagnostic and valid cases no YAML diagnostic.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { LspSession } from '../support/lsp-session';
import {
  askEverything,
  collectServerErrors,
  peakMemoryMiB,
  positionAt,
  SlowestAnswer,
  stopWithin,
} from './lsp-support';
import type { YamlSuiteCase } from './yaml-suite';
import { loadYamlSuite } from './yaml-suite';

const HEADER = 'apiVersion: v1\nkind: ConfigMap\n';
const MARKER_OR_DIRECTIVE_LINE = /^(?:(?:---|\.\.\.)(?=[ \t\r\n]|$)|%)/m;
const YAML_ERROR_CODES = new Set(['yaml-syntax', 'yaml-tab-indent', 'yaml-too-deep', 'yaml-alias-limit']);

/** Whether prepending the header keeps the case's verdict, by the rule in the file comment. */
function staysMeaningfulWrapped(suiteCase: YamlSuiteCase): boolean {
  if (MARKER_OR_DIRECTIVE_LINE.test(suiteCase.text)) {
    return false;
  }
  const documents = parseAllDocuments(HEADER + suiteCase.text, { prettyErrors: false, uniqueKeys: false });
  const errors = (Array.isArray(documents) ? documents : []).flatMap((document) => document.errors);
  return suiteCase.isError
    ? errors.length > 0 && errors.every((error) => error.pos[0] >= HEADER.length)
    : errors.length === 0;
}

const CASES = loadYamlSuite();

describe('the YAML test suite through the server over LSP', () => {
  let session: LspSession;
  let serverErrors: string[];
  const slowest = new SlowestAnswer();
  const counts = { raw: 0, wrappedErrors: 0, wrappedValid: 0 };

  before(async () => {
    session = await LspSession.start();
    serverErrors = collectServerErrors(session);
  });
  after(async () => {
    await stopWithin(session);
  });

  for (const suiteCase of CASES) {
    const wrapped = staysMeaningfulWrapped(suiteCase);
    const expectation = !wrapped
      ? 'is answered as it is'
      : suiteCase.isError
        ? 'is answered, and behind a Kubernetes header gets an error diagnostic'
        : 'is answered, and behind a Kubernetes header gets no YAML diagnostic';
    test(`${suiteCase.id} (${suiteCase.name}) ${expectation}`, async () => {
      const uri = `file:///yaml-suite/raw/${suiteCase.id}/in.yaml`;
      await slowest.time(`diagnostics of ${suiteCase.id}`, session.open(uri, suiteCase.text));
      await askEverything(session, uri, positionAt(suiteCase.text, suiteCase.text.length >> 1), slowest);
      await session.close(uri);
      counts.raw++;
      if (!wrapped) {
        return;
      }
      const wrappedUri = `file:///yaml-suite/wrapped/${suiteCase.id}/in.yaml`;
      const text = HEADER + suiteCase.text;
      const diagnostics = await slowest.time(
        `diagnostics of wrapped ${suiteCase.id}`,
        session.open(wrappedUri, text),
      );
      const yamlErrors = diagnostics.filter((d) => YAML_ERROR_CODES.has(String(d.code)) && d.severity === 1);
      assert.equal(yamlErrors.length > 0, suiteCase.isError, JSON.stringify(diagnostics));
      await askEverything(
        session,
        wrappedUri,
        positionAt(text, HEADER.length + (suiteCase.text.length >> 1)),
        slowest,
      );
      await session.close(wrappedUri);
      if (suiteCase.isError) {
        counts.wrappedErrors++;
      } else {
        counts.wrappedValid++;
      }
    });
  }

  test('the server logged no unexpected error, stayed alive, and its memory stayed bounded', (t) => {
    const peak = peakMemoryMiB(session);
    t.diagnostic(
      `${counts.raw} cases opened as they are; ${counts.wrappedErrors} error and ${counts.wrappedValid} valid cases behind a header; slowest answer ${slowest.ms.toFixed(0)} ms (${slowest.what}); server peak memory ${peak.toFixed(0)} MiB`,
    );
    assert.deepEqual(serverErrors, []);
    assert.ok(session.isAlive);
    assert.equal(counts.raw, CASES.length);
    assert.ok(peak < 1_024, `peak ${peak.toFixed(0)} MiB`);
  });
});
