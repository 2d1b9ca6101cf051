/**
 * Keeps the editor's code lenses current: remembers the lenses given per document version and tells when those
 * no longer match the predictions of an unchanged version (a setting, the cluster file or another manifest of the
 * folder changed them), so that the server sends workspace/codeLens/refresh. A document edited since it got its
 * lenses is asked for again by the editor itself.
 */
import type { CodeLens } from 'vscode-languageserver';
import type { DocumentState } from '../language/service';

/** The lenses given to the client, per document. */
export class CodeLensRefresh {
  /** Whether the client takes workspace/codeLens/refresh. */
  isSupported = false;
  private readonly shown = new Map<string, { readonly version: number; readonly key: string }>();

  /** Records the lenses answered for a document version. */
  record(state: DocumentState, lenses: readonly CodeLens[]): void {
    this.shown.set(state.uri, { version: state.version, key: JSON.stringify(lenses) });
  }

  /** Forgets a closed document. */
  forget(uri: string): void {
    this.shown.delete(uri);
  }

  /**
   * Whether a refresh is due: a document's current lenses differ from those given for the same version. When it
   * is, what was recorded is dropped (the editor asks again for what it shows).
   */
  isDue(states: readonly DocumentState[], lensesOf: (state: DocumentState) => readonly CodeLens[]): boolean {
    if (!this.isSupported) {
      return false;
    }
    const isStale = states.some((state) => {
      const shown = this.shown.get(state.uri);
      return (
        shown !== undefined &&
        shown.version === state.version &&
        shown.key !== JSON.stringify(lensesOf(state))
      );
    });
    if (isStale) {
      for (const state of states) {
        this.shown.delete(state.uri);
      }
    }
    return isStale;
  }
}
