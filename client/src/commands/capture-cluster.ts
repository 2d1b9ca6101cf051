/**
 * "Kube Foresight: Capture Cluster" (trusted workspaces only: it runs kubectl): runs the extension's own
 * `foresight capture` (dist/cli.js, forked as the language client forks the server) in the workspace folder,
 * into its `.foresight/cluster.yaml`, showing each resource it lists in a progress notification
 * (protocol/capture-progress.ts). kubectl's messages reach the user unchanged: in the output channel, and the
 * first of them in the error shown when nothing was written. Cancelling stops the capture; nothing is written then.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseCaptureProgress } from '../../../protocol/capture-progress';

/** What the command needs from the extension. */
export interface CaptureTarget {
  /** The path of the CLI bundle (dist/cli.js). */
  readonly cliPath: string;
  readonly output: vscode.OutputChannel;
  /** Called after a capture was written: the server predicts again with it. */
  written(): Promise<void>;
}

/** Where a capture goes, relative to the workspace folder: the cluster file predictions find first. */
const CAPTURE_FILE = join('.foresight', 'cluster.yaml');

/** Runs the capture; resolves when it ended (written, failed or cancelled). */
export async function captureCluster(target: CaptureTarget): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      'Kube Foresight: capturing a cluster runs kubectl; trust this workspace first.',
    );
    return;
  }
  const folder = await pickFolder();
  if (folder === undefined) {
    return;
  }
  const file = join(folder.uri.fsPath, CAPTURE_FILE);
  const result = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: 'Kube Foresight: capturing the cluster',
      cancellable: true,
    },
    (progress, cancellation) => runCapture(target, folder.uri.fsPath, file, progress, cancellation),
  );
  target.output.appendLine(`foresight capture --output-file ${file}: exit ${result.code ?? 'none'}`);
  target.output.append(result.stderr);
  if (result.cancelled) {
    void vscode.window.showInformationMessage(
      'Kube Foresight: the capture was cancelled; nothing was written.',
    );
  } else if (result.code === 0) {
    await target.written();
    const leftOut = result.stderr.split('\n').filter((line) => / left out of the capture:/.test(line));
    void vscode.window.showInformationMessage(
      `Kube Foresight: ${result.stdout.trim()}${leftOut.length > 0 ? ` (${leftOut.length} left out: see the output)` : ''}`,
    );
  } else {
    const kubectlSaid = result.stderr
      .split('\n')
      .filter(
        (line) =>
          line.trim() !== '' && parseCaptureProgress(line) === null && !line.startsWith('foresight capture:'),
      )
      .slice(0, 3)
      .join(' ');
    const choice = await vscode.window.showErrorMessage(
      `Kube Foresight: the capture failed and nothing was written. ${kubectlSaid}`,
      'Show Output',
    );
    if (choice === 'Show Output') {
      target.output.show(true);
    }
  }
}

/** The workspace folder to capture into: the only one, or the one picked. */
async function pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) {
    if (folders[0] === undefined) {
      void vscode.window.showWarningMessage('Kube Foresight: open a folder to capture a cluster into.');
    }
    return folders[0];
  }
  return vscode.window.showWorkspaceFolderPick({
    placeHolder: 'The folder whose .foresight/cluster.yaml to write',
  });
}

/** What a capture run gave. */
interface CaptureRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly cancelled: boolean;
}

function runCapture(
  target: CaptureTarget,
  cwd: string,
  file: string,
  progress: vscode.Progress<{ message?: string; increment?: number }>,
  cancellation: vscode.CancellationToken,
): Promise<CaptureRun> {
  return new Promise((resolve) => {
    const child = fork(target.cliPath, ['capture', '--output-file', file], { cwd, silent: true });
    let stdout = '';
    let stderr = '';
    let pending = '';
    let cancelled = false;
    const subscription = cancellation.onCancellationRequested(() => {
      cancelled = true;
      child.kill();
    });
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      stderr += text;
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const step = parseCaptureProgress(line);
        if (step !== null) {
          progress.report({
            message: `${step.resource} (${step.done}/${step.total})`,
            increment: 100 / step.total,
          });
        }
      }
    });
    child.on('error', (error) => {
      stderr += `${error.message}\n`;
    });
    child.on('close', (code) => {
      subscription.dispose();
      resolve({ code, stdout, stderr, cancelled });
    });
  });
}
