/**
 * The Preview Apply panel: the plan of `kubectl apply` of the active manifest's folder against the cluster the
 * editor uses for it (PLAN_REQUEST), shown by the page in media/plan/. Built as the timeline panel is
 * (timeline-panel.ts): an empty page with a per-render nonce, data by postMessage once the page is ready, every
 * message from the page checked as untrusted input (a source link opens only a place the plan shown names). It
 * follows the active manifest's folder and plans again, debounced, when a manifest of that folder changes.
 */
import * as vscode from 'vscode';
import type { PlanResult } from '../../../protocol/messages';
import type { Plan } from '../../../protocol/plan';
import type { HostToPlanMessage, PlanToHostMessage } from '../../../protocol/plan-messages';
import type { PanelFolder } from '../../../protocol/webview-messages';
import { buildPanelHtml, createNonce } from './panel-html';
import { isPlanPlace, parsePlanMessage } from './plan-message-check';
import { folderInfo, manifestFolderOf, PanelErrors, webviewOptions } from './panel-support';

/** Delay between the last change of a manifest and the new plan. */
const UPDATE_DELAY_MS = 600;

/** What a plan panel needs from the extension. */
export interface PlanPanelContext {
  readonly extensionUri: vscode.Uri;
  readonly output: vscode.OutputChannel;
  /** Plans the folder of a URI; undefined when the server is not running. */
  plan(folderUri: string): Promise<PlanResult | undefined>;
  /** Opens the timeline panel on a folder. */
  openTimeline(folder: vscode.Uri): void;
}

/** One Preview Apply panel. */
export class PlanPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private plan: { readonly folder: PanelFolder; readonly cluster: string; readonly plan: Plan } | undefined;
  private generation = 0;
  private updateTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly errors: PanelErrors;
  private editorColumn = vscode.ViewColumn.One;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly context: PlanPanelContext,
    private folder: vscode.Uri | undefined,
    private readonly onDisposed: () => void,
  ) {
    this.errors = new PanelErrors(context.output, 'Preview Apply');
    const webview = panel.webview;
    webview.options = webviewOptions(context.extensionUri);
    const media = vscode.Uri.joinPath(context.extensionUri, 'dist', 'media');
    webview.html = buildPanelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'plan.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'plan.css')).toString(),
      nonce: createNonce(),
      title: 'Preview Apply',
    });
    this.editorColumn = vscode.window.activeTextEditor?.viewColumn ?? this.editorColumn;
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      vscode.window.onDidChangeActiveTextEditor((editor) => this.followEditor(editor)),
      vscode.workspace.onDidChangeTextDocument((event) => this.documentChanged(event.document.uri)),
      vscode.workspace.onDidSaveTextDocument((document) => this.documentChanged(document.uri)),
    );
  }

  /** Shows a folder (the active editor's when none is given) and brings the panel to the front. */
  show(folder: vscode.Uri | undefined): void {
    this.panel.reveal(undefined, true);
    if (folder !== undefined && folder.toString() !== this.folder?.toString()) {
      this.folder = folder;
      void this.load();
    }
  }

  /** Stops listening and closes the panel. */
  dispose(): void {
    clearTimeout(this.updateTimer);
    this.generation += 1;
    for (const disposable of this.disposables.splice(0)) {
      disposable.dispose();
    }
    this.onDisposed();
  }

  private receive(raw: unknown): void {
    const message = parsePlanMessage(raw);
    if (message === undefined) {
      this.context.output.appendLine('Preview Apply: dropped a message of unexpected shape from the page.');
      return;
    }
    this.handle(message).catch((error: unknown) =>
      this.errors.report('handling a message of the plan', error),
    );
  }

  private async handle(message: PlanToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        if (this.folder === undefined) {
          this.followEditor(vscode.window.activeTextEditor);
        }
        if (this.folder === undefined) {
          this.post({
            type: 'unavailable',
            message: 'Open a Kubernetes manifest to preview the apply of its folder.',
            isError: false,
            needsCluster: false,
          });
        } else if (this.plan !== undefined) {
          this.post({ type: 'plan', ...this.plan });
        } else {
          await this.load();
        }
        break;
      case 'reload':
        await this.load();
        break;
      case 'openTimeline':
        if (this.folder !== undefined) {
          this.context.openTimeline(this.folder);
        }
        break;
      case 'openSource':
        await this.openSource(message.file, message.line);
        break;
    }
  }

  /** Opens a place the plan names, beside the panel, with the cursor on its line. */
  private async openSource(file: string, line: number): Promise<void> {
    if (this.plan === undefined || !isPlanPlace(this.plan.plan, file, line)) {
      this.context.output.appendLine('Preview Apply: refused to open a place the plan does not name.');
      return;
    }
    const uri = vscode.Uri.parse(file, true);
    if (uri.scheme !== 'file') {
      return;
    }
    const position = new vscode.Position(line - 1, 0);
    await vscode.window.showTextDocument(uri, {
      viewColumn: this.editorColumn,
      selection: new vscode.Range(position, position),
      preserveFocus: false,
    });
  }

  private followEditor(editor: vscode.TextEditor | undefined): void {
    if (editor === undefined) {
      return;
    }
    this.editorColumn = editor.viewColumn ?? this.editorColumn;
    const folder = manifestFolderOf(editor.document);
    if (folder !== undefined && folder.toString() !== this.folder?.toString()) {
      this.folder = folder;
      this.plan = undefined;
      void this.load();
    }
  }

  private documentChanged(uri: vscode.Uri): void {
    const folder = this.folder?.toString();
    if (folder !== undefined && uri.scheme === 'file' && uri.toString().startsWith(`${folder}/`)) {
      clearTimeout(this.updateTimer);
      this.updateTimer = setTimeout(() => void this.load(), UPDATE_DELAY_MS);
    }
  }

  private async load(): Promise<void> {
    const folder = this.folder;
    if (folder === undefined) {
      return;
    }
    const generation = ++this.generation;
    this.post({ type: 'loading', folder: folderInfo(folder) });
    try {
      const result = await this.context.plan(folder.toString());
      if (generation !== this.generation) {
        return;
      }
      if (result === undefined) {
        this.post({
          type: 'unavailable',
          message:
            'The Kube Foresight language server is not running. Run "Kube Foresight: Restart Language Server".',
          isError: true,
          needsCluster: false,
        });
      } else if (result.ok) {
        this.plan = { folder: result.folder, cluster: result.cluster, plan: result.plan };
        this.post({ type: 'plan', ...this.plan });
      } else {
        this.plan = undefined;
        this.post({
          type: 'unavailable',
          message: result.message,
          isError: !result.needsCluster,
          needsCluster: result.needsCluster,
        });
      }
    } catch (error: unknown) {
      if (generation === this.generation) {
        this.plan = undefined;
        this.post({
          type: 'unavailable',
          message: 'The plan failed; see the "Kube Foresight" output.',
          isError: true,
          needsCluster: false,
        });
        this.errors.report(`planning ${folder.toString()}`, error);
      }
    }
  }

  private post(message: HostToPlanMessage): void {
    void this.panel.webview.postMessage(message);
  }
}
