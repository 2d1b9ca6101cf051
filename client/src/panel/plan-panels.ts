/**
 * One Preview Apply panel at a time: the command creates it beside the editor or reveals it, and VS Code revives
 * it after a reload through this serializer (the page's saved state names the folder it showed; it is checked as
 * untrusted input).
 */
import * as vscode from 'vscode';
import type { PlanPanelContext } from './plan-panel';
import { PlanPanel } from './plan-panel';
import { readPlanViewState } from './plan-message-check';
import { manifestFolderOf, webviewOptions } from './panel-support';
import { PLAN_VIEW_TYPE } from './view-type';

/** Creates, reveals and revives the Preview Apply panel. */
export class PlanPanels implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private current: PlanPanel | undefined;

  constructor(private readonly context: PlanPanelContext) {}

  /** Registers the serializer; dispose the result (and this) on deactivation. */
  register(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(PLAN_VIEW_TYPE, this);
  }

  /** Shows the plan of the active editor's folder: reveals the open panel, or opens one beside the editor. */
  show(): void {
    const editor = vscode.window.activeTextEditor;
    const folder = editor === undefined ? undefined : manifestFolderOf(editor.document);
    if (this.current !== undefined) {
      this.current.show(folder);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      PLAN_VIEW_TYPE,
      'Preview Apply',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      webviewOptions(this.context.extensionUri),
    );
    this.adopt(panel, folder);
  }

  /** Revives a panel VS Code restored after a reload. */
  deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Thenable<void> {
    if (this.current !== undefined) {
      // One panel at a time: a second restored panel is closed.
      panel.dispose();
      return Promise.resolve();
    }
    const saved = readPlanViewState(state);
    let folder: vscode.Uri | undefined;
    try {
      const parsed = saved === undefined ? undefined : vscode.Uri.parse(saved, true);
      folder = parsed?.scheme === 'file' ? parsed : undefined;
    } catch {
      folder = undefined;
    }
    this.adopt(panel, folder);
    return Promise.resolve();
  }

  /** Closes the panel. */
  dispose(): void {
    this.current?.panel.dispose();
    this.current = undefined;
  }

  private adopt(panel: vscode.WebviewPanel, folder: vscode.Uri | undefined): PlanPanel {
    const created = new PlanPanel(panel, this.context, folder, () => {
      if (this.current === created) {
        this.current = undefined;
      }
    });
    this.current = created;
    return created;
  }
}
