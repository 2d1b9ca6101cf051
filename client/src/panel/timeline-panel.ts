/**
 * One timeline panel: its page (HTML with a per-render nonce), the message bridge, and what it shows. It follows
 * the folder of the active manifest and re-simulates, debounced, when a manifest of that folder changes (the page
 * keeps its playhead). Messages from the page are checked as untrusted input; unexpected errors are logged with
 * their stack, shown once, and leave the page with a message rather than stale data.
 */
import * as vscode from 'vscode';
import type { SimulationResult } from '../../../protocol/messages';
import type {
  PanelWorkload,
  HostToWebviewMessage,
  PanelReport,
  WebviewToHostMessage,
} from '../../../protocol/webview-messages';
import { buildPanelHtml, createNonce } from './panel-html';
import { folderInfo, PanelErrors, manifestFolderOf, webviewOptions } from './panel-support';
import { parseWebviewMessage } from './webview-message-check';

/** Delay between the last change of a manifest and the new simulation. */
const UPDATE_DELAY_MS = 400;

/** Where simulations come from (the language server). */
interface SimulationSource {
  /** Simulates the manifests of a folder; undefined when the server is not running. */
  simulate(folderUri: string): Promise<SimulationResult | undefined>;
}

/** What a panel needs from the extension. */
export interface TimelinePanelContext {
  readonly extensionUri: vscode.Uri;
  readonly source: SimulationSource;
  readonly output: vscode.OutputChannel;
}

/** One timeline panel. */
export class TimelinePanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private folder: vscode.Uri | undefined;
  private report: PanelReport | undefined;
  private generation = 0;
  private updateTimer: ReturnType<typeof setTimeout> | undefined;
  private isStale = false;
  private editorColumn = vscode.ViewColumn.One;
  /** The workload to select once the page shows a simulation (the Replay lens). */
  private pendingFocus: PanelWorkload | undefined;
  private readonly errors: PanelErrors;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly context: TimelinePanelContext,
    folder: vscode.Uri | undefined,
    private readonly onDisposed: () => void,
  ) {
    this.folder = folder;
    this.errors = new PanelErrors(context.output, 'Timeline panel');
    const webview = panel.webview;
    webview.options = webviewOptions(context.extensionUri);
    const media = vscode.Uri.joinPath(context.extensionUri, 'dist', 'media');
    webview.html = buildPanelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'main.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'main.css')).toString(),
      nonce: createNonce(),
    });
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidChangeViewState(() => {
        if (panel.visible && this.isStale) {
          this.scheduleUpdate();
        }
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => this.followEditor(editor)),
      vscode.workspace.onDidChangeTextDocument((event) => this.documentChanged(event.document.uri)),
      vscode.workspace.onDidSaveTextDocument((document) => this.documentChanged(document.uri)),
      vscode.workspace.onDidCreateFiles((event) => event.files.forEach((uri) => this.documentChanged(uri))),
      vscode.workspace.onDidDeleteFiles((event) => event.files.forEach((uri) => this.documentChanged(uri))),
    );
  }

  /**
   * Shows a folder (or the active editor's when none is given) and brings the panel to the front; with a
   * workload (the Replay lens), the page selects its first pod.
   */
  show(folder: vscode.Uri | undefined, workload?: PanelWorkload): void {
    this.panel.reveal(undefined, true);
    this.pendingFocus = workload;
    if (folder !== undefined && folder.toString() !== this.folder?.toString()) {
      this.folder = folder;
      void this.load(false);
    } else if (this.report !== undefined) {
      this.postFocus();
    }
  }

  /** Sends the workload the Replay lens asked for (after a simulation, so that the page can select it). */
  private postFocus(): void {
    if (this.pendingFocus !== undefined) {
      this.post({ type: 'focusWorkload', workload: this.pendingFocus });
      this.pendingFocus = undefined;
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
    const message = parseWebviewMessage(raw);
    if (message === undefined) {
      this.context.output.appendLine('Timeline panel: dropped a message of unexpected shape from the page.');
      return;
    }
    this.guard('handling a message from the timeline panel', () => this.handle(message));
  }

  private async handle(message: WebviewToHostMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        if (this.folder === undefined) {
          this.followEditor(vscode.window.activeTextEditor);
        }
        if (this.folder === undefined) {
          this.post({
            type: 'unavailable',
            message: 'Open a Kubernetes manifest to replay its folder.',
            isError: false,
          });
        } else if (this.report !== undefined) {
          // The page was rebuilt (the panel was hidden): send what it showed; it restores its own playhead.
          this.post({
            type: 'simulation',
            folder: folderInfo(this.folder),
            report: this.report,
            isUpdate: false,
          });
          this.postFocus();
        } else {
          await this.load(false);
        }
        break;
      case 'reload':
        await this.load(this.report !== undefined);
        break;
      case 'revealPod':
        await this.revealPod(message.namespace, message.name);
        break;
      case 'openOverlay': {
        // The index names an overlay of the report the page shows; a URI from the page is never opened as is.
        const overlay = this.report?.includedBy?.[message.index];
        if (overlay !== undefined) {
          this.folder = vscode.Uri.parse(overlay.uri);
          this.report = undefined;
          await this.load(false);
        }
        break;
      }
    }
  }

  private followEditor(editor: vscode.TextEditor | undefined): void {
    if (editor === undefined) {
      return;
    }
    this.editorColumn = editor.viewColumn ?? this.editorColumn;
    const folder = manifestFolderOf(editor.document);
    if (folder !== undefined && folder.toString() !== this.folder?.toString()) {
      this.folder = folder;
      this.report = undefined;
      void this.load(false);
    }
  }

  private documentChanged(uri: vscode.Uri): void {
    const folder = this.folder?.toString();
    if (folder === undefined || uri.scheme !== 'file') {
      return;
    }
    // A kustomization's render reads files outside its folder (its bases): a change to one its pods come from
    // replays it again too.
    const isRenderSource =
      this.report?.renderOf !== undefined &&
      this.report.pods.some((pod) => pod.location?.uri === uri.toString());
    if (uri.toString().startsWith(`${folder}/`) || isRenderSource) {
      this.scheduleUpdate();
    }
  }

  private scheduleUpdate(): void {
    if (!this.panel.visible) {
      this.isStale = true;
      return;
    }
    this.isStale = false;
    clearTimeout(this.updateTimer);
    this.updateTimer = setTimeout(() => void this.load(true), UPDATE_DELAY_MS);
  }

  private async load(isUpdate: boolean): Promise<void> {
    const folder = this.folder;
    if (folder === undefined) {
      return;
    }
    const generation = ++this.generation;
    const info = folderInfo(folder);
    if (!isUpdate) {
      this.post({ type: 'loading', folder: info });
    }
    try {
      const result = await this.context.source.simulate(folder.toString());
      if (generation !== this.generation) {
        return;
      }
      if (result === undefined) {
        this.post({
          type: 'unavailable',
          message:
            'The Kube Foresight language server is not running. Run "Kube Foresight: Restart Language Server".',
          isError: true,
        });
      } else if (result.ok) {
        this.report = result.report;
        this.post({ type: 'simulation', folder: info, report: result.report, isUpdate });
        this.postFocus();
      } else {
        this.post({ type: 'unavailable', message: result.message, isError: true });
      }
    } catch (error: unknown) {
      if (generation === this.generation) {
        this.report = undefined;
        this.post({
          type: 'unavailable',
          message: 'The simulation failed; see the "Kube Foresight" output.',
          isError: true,
        });
        this.errors.report(`simulating ${folder.toString()}`, error);
      }
    }
  }

  private async revealPod(namespace: string, name: string): Promise<void> {
    const pod = this.report?.pods.find((entry) => entry.namespace === namespace && entry.name === name);
    const location = pod?.location;
    if (location === undefined) {
      return;
    }
    const uri = vscode.Uri.parse(location.uri, true);
    if (uri.scheme !== 'file' && uri.scheme !== 'untitled') {
      return;
    }
    const position = new vscode.Position(location.line, location.character);
    await vscode.window.showTextDocument(uri, {
      viewColumn: this.editorColumn,
      selection: new vscode.Range(position, position),
      preserveFocus: false,
    });
  }

  private post(message: HostToWebviewMessage): void {
    void this.panel.webview.postMessage(message);
  }

  private guard(activity: string, work: () => Promise<void>): void {
    work().catch((error: unknown) => this.errors.report(activity, error));
  }
}
