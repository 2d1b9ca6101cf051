/**
 * Keystrokes against the bundled language server over LSP, as the side-by-side benchmark types them: the
 * generated file opened in a folder of its own, then edits that each change one Deployment's replicas (every
 * edit changes what the engine is given), each waited for until its diagnostics settle. Prints one JSON line:
 * medians of didChange → first publish, → last publish (the predictions), and the server's CPU per keystroke.
 * Usage: npx tsx bench/support/lsp-keystroke-run.ts [server.js=dist/server.js] [resources=1000] [edits=8]
 * (extra arguments after the third are passed to node before the server, e.g. --cpu-prof).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_SETTINGS, SETTINGS_SECTION } from '../../protocol/settings';
import { generateManifests } from '../manifests';
import { BenchLspClient } from './lsp-client';
import { summarize } from './stats';

const serverPath = resolve(process.argv[2] ?? 'dist/server.js');
const count = Number(process.argv[3] ?? 1000);
const edits = Number(process.argv[4] ?? 8);
const nodeFlags = process.argv.slice(5);

/** The position of an offset. */
function positionAt(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

async function main(): Promise<void> {
  const folder = join(mkdtempSync(join(tmpdir(), 'lsp-keystroke-')), 'manifests');
  mkdirSync(folder);
  const path = join(folder, 'manifests.yaml');
  let text = generateManifests(count);
  writeFileSync(path, text);
  const uri = `file://${path}`;
  const { client } = await BenchLspClient.start(
    {
      command: process.execPath,
      args: [...nodeFlags, serverPath, '--stdio'],
      capabilities: { workspace: { configuration: true, workspaceFolders: true } },
      initializationOptions: { workspaceTrusted: true },
      configuration: (section) => (section === SETTINGS_SECTION ? DEFAULT_SETTINGS : null),
    },
    folder,
  );
  try {
    const opened = client.diagnostics(uri, () => true, 60_000);
    await client.open(uri, text, 1);
    await opened;
    await client.settled(uri, 600, performance.now());
    const first: number[] = [];
    const last: number[] = [];
    const cpu: number[] = [];
    for (let edit = 0; edit < edits; edit++) {
      // Deployment app-(3k) gets 4 to 7 replicas (never the 3 it had): one workload changes each time.
      const name = `app-${String(3 * ((edit % 50) + 1))}`;
      const at = text.indexOf(`replicas: `, text.indexOf(`  name: ${name}\n`)) + 'replicas: '.length;
      const value = String((edit % 4) + 4);
      const start = positionAt(text, at);
      text = `${text.slice(0, at)}${value}${text.slice(at + 1)}`;
      const published = client.diagnostics(uri, () => true, 60_000);
      const cpuBefore = client.cpuMs();
      const started = performance.now();
      await client.change(uri, edit + 2, {
        range: { start, end: { line: start.line, character: start.character + 1 } },
        text: value,
      });
      first.push((await published).receivedAt - started);
      last.push((await client.settled(uri, 600, started)) - started);
      cpu.push(client.cpuMs() - cpuBefore);
    }
    const median = (values: number[]): number => Math.round(summarize(values).median);
    process.stdout.write(
      `${JSON.stringify({ resources: count, edits, firstPublishMs: median(first), lastPublishMs: median(last), cpuMs: median(cpu) })}\n`,
    );
  } finally {
    await client.stop();
  }
}

void main();
