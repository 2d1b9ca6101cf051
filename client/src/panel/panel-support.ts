/**
 * What the timeline panel and the Preview Apply panel share: their webview options, the folder a manifest
 * editor stands for, the folder as the page names it, and how an unexpected error is reported (logged with its
 * stack every time, shown to the user once per panel).
 */
import * as vscode from 'vscode';
import type { PanelFolder } from '../../../protocol/webview-messages';

const MANIFEST_LANGUAGES = new Set(['yaml', 'json']);

/** The webview options: scripts on, local resources from dist/media only. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'media')],
  };
}

/** The folder of a manifest document, or undefined for documents that are not files of a known kind. */
export function manifestFolderOf(document: vscode.TextDocument): vscode.Uri | undefined {
  if (document.uri.scheme !== 'file' || !MANIFEST_LANGUAGES.has(document.languageId)) {
    return undefined;
  }
  return vscode.Uri.joinPath(document.uri, '..');
}

/** A folder as the page names it: its URI and its last segment. */
export function folderInfo(folder: vscode.Uri): PanelFolder {
  const segments = folder.path.split('/').filter((segment) => segment !== '');
  return { uri: folder.toString(), name: segments[segments.length - 1] ?? folder.toString() };
}

/** A panel's unexpected errors: each in the output with its stack, the first one also in a notification. */
export class PanelErrors {
  private hasShownError = false;

  constructor(
    private readonly output: vscode.OutputChannel,
    /** How the output names the panel ("Timeline panel", "Preview Apply"). */
    private readonly panelName: string,
  ) {}

  /** Logs an error met while doing `activity`, and shows it once. */
  report(activity: string, error: unknown): void {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.output.appendLine(`${this.panelName}: unexpected error while ${activity}: ${detail}`);
    if (!this.hasShownError) {
      this.hasShownError = true;
      void vscode.window.showErrorMessage(
        `Kube Foresight: error while ${activity}; see the output for details.`,
      );
    }
  }
}
