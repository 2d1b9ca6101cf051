/**
 * The editor predicting against a captured cluster (#31.4's editor half), as a user meets it: a folder whose
 * `.foresight/cluster.yaml` is the capture, a manifest opened in it, then keystrokes. The bundled server
 * (dist/server.js, the extension's flags) is driven over LSP. Timed: didOpen → the first publish whose
 * prediction was made on the capture, then each keystroke → the publish that carries its own prediction.
 *
 * The manifest holds a Deployment too large for any node of the capture (64 CPUs); each keystroke gives it one
 * more replica. Its diagnostic then reads "All N replicas stay Pending: 0/NODES nodes are available: …", which
 * names both this keystroke's replicas and the capture's node count: a publish of the embedded cluster's
 * prediction or of the last keystroke's never matches.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STATUS_NOTIFICATION } from '../protocol/messages';
import type { StatusParams } from '../protocol/messages';
import { foresightLaunch } from './support/servers';
import { BenchLspClient } from './support/lsp-client';
import type { Summary } from './support/stats';
import { summarize } from './support/stats';

/** The editor's figures on one capture. */
export interface CaptureEditorResult {
  /** didOpen → the first prediction made on the capture. */
  readonly openMs: number;
  /** Each keystroke → the publish of its prediction. */
  readonly keystrokeMs: Summary;
  /** The server's CPU (both threads) per keystroke. */
  readonly keystrokeCpuMs: Summary;
  /** The server process's peak resident memory over the session, in MB. */
  readonly peakMB: number;
  /** The cluster the status bar names after the first prediction. */
  readonly cluster: string;
}

/** The edited manifest: a Deployment that fits, and one that fits no node (its replicas are what keystrokes edit). */
function manifestText(replicas: number): string {
  const deployment = (name: string, cpu: string, count: number): string =>
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: ${name}`,
      '  namespace: default',
      'spec:',
      `  replicas: ${count}`,
      '  selector:',
      '    matchLabels:',
      `      app: ${name}`,
      '  template:',
      '    metadata:',
      '      labels:',
      `        app: ${name}`,
      '    spec:',
      '      containers:',
      `        - name: ${name}`,
      `          image: registry.example/${name}:1`,
      '          resources:',
      '            requests:',
      `              cpu: "${cpu}"`,
      '              memory: 128Mi',
      '',
    ].join('\n');
  return `${deployment('web', '100m', 3)}---\n${deployment('huge', '64', replicas)}`;
}

/** The huge Deployment's diagnostic on the capture, for this many replicas. */
function expectedMessage(replicas: number, nodes: number): string {
  const pending = replicas === 1 ? 'Its only replica stays Pending' : `All ${replicas} replicas stay Pending`;
  return `${pending}: 0/${nodes} nodes are available`;
}

/** Opens a manifest next to the capture and types `keystrokes` edits, each awaited until its prediction. */
export async function benchCaptureInEditor(options: {
  captureText: string;
  nodes: number;
  keystrokes: number;
  timeoutMs: number;
}): Promise<CaptureEditorResult> {
  const root = mkdtempSync(join(tmpdir(), 'capture-editor-'));
  try {
    mkdirSync(join(root, '.foresight'));
    writeFileSync(join(root, '.foresight', 'cluster.yaml'), options.captureText);
    let replicas = 1;
    const path = join(root, 'app.yaml');
    writeFileSync(path, manifestText(replicas));
    const uri = `file://${path}`;
    const { client } = await BenchLspClient.start(foresightLaunch(), root);
    let cluster = '';
    client.connection.onNotification(STATUS_NOTIFICATION, (params: StatusParams) => {
      cluster = params.cluster;
    });
    try {
      const predicted = (count: number): Promise<{ receivedAt: number }> =>
        client.diagnostics(
          uri,
          (diagnostics) =>
            diagnostics.some((entry) => entry.message.startsWith(expectedMessage(count, options.nodes))),
          options.timeoutMs,
        );
      const opened = predicted(replicas);
      const openedAt = performance.now();
      await client.open(uri, manifestText(replicas), 1);
      const openMs = (await opened).receivedAt - openedAt;
      const times: number[] = [];
      const cpu: number[] = [];
      // One character each: the huge Deployment's replicas, 2 to 9.
      const before = manifestText(replicas);
      const at = before.indexOf('replicas: ', before.indexOf('name: huge')) + 'replicas: '.length;
      const line = before.slice(0, at).split('\n').length - 1;
      const character = at - (before.lastIndexOf('\n', at - 1) + 1);
      for (let keystroke = 0; keystroke < Math.min(options.keystrokes, 8); keystroke++) {
        replicas++;
        const published = predicted(replicas);
        const cpuBefore = client.cpuMs();
        const started = performance.now();
        await client.change(uri, keystroke + 2, {
          range: { start: { line, character }, end: { line, character: character + 1 } },
          text: String(replicas),
        });
        times.push((await published).receivedAt - started);
        cpu.push(client.cpuMs() - cpuBefore);
      }
      return {
        openMs,
        keystrokeMs: summarize(times),
        keystrokeCpuMs: summarize(cpu),
        peakMB: Math.round(client.peakResidentBytes() / 1e6),
        cluster,
      };
    } finally {
      await client.stop();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
