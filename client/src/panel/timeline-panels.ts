/**
 * One timeline panel at a time: the command creates it beside the editor or reveals it, and VS Code revives it
 * after a reload through this serializer (the page's saved state names the folder it showed; it is checked as
 * untrusted input).
 */
import * as vscode from 'vscode';
import { readPanelViewState } from '../../../protocol/webview-messages';
import type { PanelWorkload } from '../../../protocol/webview-messages';
import type { TimelinePanelContext } from './timeline-panel';
import { manifestFolderOf, webviewOptions } from './panel-support';
import { TimelinePanel } from './timeline-panel';
import { TIMELINE_VIEW_TYPE } from './view-type';

/** Creates, reveals and revives the timeline panel. */
export class TimelinePanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private current: TimelinePanel | undefined;

  constructor(private readonly context: TimelinePanelContext) {}

  /** Registers the serializer; dispose the result (and this) on deactivation. */
  register(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, this);
  }

  /**
   * Shows the panel for a manifest's folder (the Replay code lens passes the manifest), else for the active
   * editor's folder: reveals the open one, or opens one beside the editor.
   */
  show(manifest?: vscode.Uri, workload?: PanelWorkload): void {
    const editor = vscode.window.activeTextEditor;
    const folder =
      manifest?.scheme === 'file'
        ? vscode.Uri.joinPath(manifest, '..')
        : editor === undefined
          ? undefined
          : manifestFolderOf(editor.document);
    this.showFolder(folder, workload);
  }

  /** Shows a folder (Preview Apply's "open the timeline" link: the folder it planned). */
  showFolder(folder: vscode.Uri | undefined, workload?: PanelWorkload): void {
    if (this.current !== undefined) {
      this.current.show(folder, workload);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      TIMELINE_VIEW_TYPE,
      'Simulation Timeline',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      webviewOptions(this.context.extensionUri),
    );
    this.adopt(panel, folder).show(undefined, workload);
  }

  /** Revives a panel VS Code restored after a reload. */
  deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Thenable<void> {
    const saved = readPanelViewState(state);
    let folder: vscode.Uri | undefined;
    try {
      const parsed =
        saved?.folderUri === null || saved === null ? undefined : vscode.Uri.parse(saved.folderUri, true);
      folder = parsed?.scheme === 'file' ? parsed : undefined;
    } catch {
      folder = undefined;
    }
    if (this.current !== undefined) {
      // One panel at a time: a second restored panel is closed.
      panel.dispose();
      return Promise.resolve();
    }
    this.adopt(panel, folder);
    return Promise.resolve();
  }

  /** Closes the panel. */
  dispose(): void {
    this.current?.panel.dispose();
    this.current = undefined;
  }

  private adopt(panel: vscode.WebviewPanel, folder: vscode.Uri | undefined): TimelinePanel {
    const created = new TimelinePanel(panel, this.context, folder, () => {
      if (this.current === created) {
        this.current = undefined;
      }
    });
    this.current = created;
    return created;
  }
}
