/**
 * Properties of the bundled server over LSP: after any sequence of incremental edits (some sent faster than
 * validation runs) the diagnostics equal those of opening the final text fresh; opening the same text twice
 * gives the same diagnostics; hostile text is answered; every request (diagnostics, hover, completion,
 * outline) is answered within the bound.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { LspSession } from '../support/lsp-session';
import { askEverything, SlowestAnswer } from '../robustness/lsp-support';
import type { SeedFile, TextEdit } from './inputs';
import { editSequence, hostileText, resolveEdit } from './inputs';

/** What a run of the LSP properties measured. */
export class LspFuzzStats {
  readonly slowest = new SlowestAnswer();
  iterations = 0;
  edits = 0;
}

let documentCounter = 0;

/** A fresh URI in a folder of its own (predictions simulate a document's folder, so runs must not share one). */
function freshUri(kind: string): string {
  documentCounter++;
  return `file:///fuzz-${kind}/${documentCounter}/manifest.yaml`;
}

/** Comparable diagnostics: everything the client sees. */
function comparable(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => JSON.stringify([d.range, d.severity, d.code, d.source, d.message])).sort();
}

/** Opens a text alone, returns its diagnostics, and closes it. */
async function diagnosticsOfFreshOpen(
  session: LspSession,
  text: string,
  stats: LspFuzzStats,
): Promise<string[]> {
  const uri = freshUri('fresh');
  try {
    return comparable(await stats.slowest.time('diagnostics after didOpen', session.open(uri, text)));
  } finally {
    await session.close(uri);
  }
}

/**
 * Applies the edits through didChange (incremental ranges), awaiting the diagnostics of the versions picked
 * by `awaitAfter` and of the last one, asking hover, completion and outline at the edit; then the final
 * diagnostics must equal a fresh open of the final text.
 */
export function incrementalEditsMatchFreshOpen(
  session: LspSession,
  seeds: readonly SeedFile[],
  stats: LspFuzzStats,
): fc.IAsyncPropertyWithHooks<[SeedFile, TextEdit[], boolean[]]> {
  return fc.asyncProperty(
    fc.constantFrom(...seeds),
    editSequence,
    fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    async (seed, edits, awaitAfter) => {
      stats.iterations++;
      const uri = freshUri('edited');
      let document = TextDocument.create(uri, 'yaml', 1, seed.text);
      let finalDiagnostics: Diagnostic[] = [];
      try {
        await stats.slowest.time('diagnostics after didOpen', session.open(uri, seed.text));
        for (const [index, edit] of edits.entries()) {
          stats.edits++;
          const resolved = resolveEdit(document.getText(), edit);
          const range = {
            start: document.positionAt(resolved.start),
            end: document.positionAt(resolved.end),
          };
          const version = document.version + 1;
          document = TextDocument.update(document, [{ range, text: resolved.insert }], version);
          const change = [{ range, text: resolved.insert }];
          if (index === edits.length - 1 || awaitAfter[index] === true) {
            finalDiagnostics = await stats.slowest.time(
              'diagnostics after didChange',
              session.change(uri, version, change),
            );
            const at = document.positionAt(resolved.start + resolved.insert.length);
            await askEverything(session, uri, at, stats.slowest);
          } else {
            await session.notifyChange(uri, version, change);
          }
        }
      } finally {
        // Closed even when the run fails, so that one failure does not change the runs after it.
        await session.close(uri);
      }
      assert.deepEqual(
        comparable(finalDiagnostics),
        await diagnosticsOfFreshOpen(session, document.getText(), stats),
      );
    },
  );
}

/** Opening the same (edited) text twice, alone each time, gives the same diagnostics. */
export function openingIsDeterministic(
  session: LspSession,
  seeds: readonly SeedFile[],
  stats: LspFuzzStats,
): fc.IAsyncPropertyWithHooks<[SeedFile, TextEdit[]]> {
  return fc.asyncProperty(fc.constantFrom(...seeds), editSequence, async (seed, edits) => {
    stats.iterations++;
    let document = TextDocument.create('file:///scratch.yaml', 'yaml', 1, seed.text);
    for (const edit of edits) {
      const resolved = resolveEdit(document.getText(), edit);
      const range = { start: document.positionAt(resolved.start), end: document.positionAt(resolved.end) };
      document = TextDocument.update(document, [{ range, text: resolved.insert }], document.version + 1);
    }
    const first = await diagnosticsOfFreshOpen(session, document.getText(), stats);
    assert.deepEqual(await diagnosticsOfFreshOpen(session, document.getText(), stats), first);
  });
}

/** Hostile text is answered: diagnostics published, hover, completion and outline answered. */
export function hostileTextIsAnswered(
  session: LspSession,
  stats: LspFuzzStats,
): fc.IAsyncPropertyWithHooks<[string, number]> {
  return fc.asyncProperty(hostileText, fc.nat(), async (text, at) => {
    stats.iterations++;
    const uri = freshUri('hostile');
    try {
      await stats.slowest.time('diagnostics of hostile text', session.open(uri, text));
      const document = TextDocument.create(uri, 'yaml', 1, text);
      await askEverything(session, uri, document.positionAt(at % (text.length + 1)), stats.slowest);
    } finally {
      await session.close(uri);
    }
  });
}
