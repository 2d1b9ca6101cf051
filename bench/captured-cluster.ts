/**
 * A captured cluster of real size: a `kubectl get … -A -o yaml` export (one List document) of `nodes` nodes and
 * `pods` running pods of Deployments (with their ReplicaSets), read and simulated with one Deployment of it
 * re-applied with a new image. Measured in this process: reading the capture (language/manifests/capture-reader.ts), then
 * the simulation as `foresight simulate --cluster` runs it, and the heap the whole holds. Also the editor's
 * verdict for it as you type: simulated, or the notice that says why not (MAX_CLUSTER_FILE_PODS), and from
 * `editorFrom` pods on the editor itself predicting against it (capture-editor.ts).
 */
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { readCaptureText } from '../server/src/language/manifests/capture-reader';
import { simulate } from '../server/src/engine/simulate/simulate';
import { MAX_CLUSTER_FILE_PODS, MAX_SIMULATED_NODES } from '../server/src/language/service/prediction-types';
import type { CaptureEditorResult } from './capture-editor';
import { benchCaptureInEditor } from './capture-editor';
import type { Summary } from './support/stats';
import { summarize } from './support/stats';

/** CaptureResult.asYouType when the editor simulates the capture as you type (the goals read it). */
export const SIMULATED_AS_YOU_TYPE = 'simulated as you type';

/** One size's figures. */
export interface CaptureResult {
  readonly nodes: number;
  readonly pods: number;
  /** The capture's YAML size in MB. */
  readonly megabytes: number;
  readonly readMs: Summary;
  readonly simulateMs: Summary;
  /** Heap used after reading and simulating, in MB (after a collection when --expose-gc is on). */
  readonly heapMB: Summary;
  /** What the editor does with it: SIMULATED_AS_YOU_TYPE or the reason it uses the embedded cluster. */
  readonly asYouType: string;
  /** `foresight simulate --cluster` run as a user runs it (dist/cli.js in its own process), when measured. */
  readonly cli?: CliRunResult;
  /** The bundled language server predicting against it as you type (capture-editor.ts), when measured. */
  readonly editor?: CaptureEditorResult;
}

/** One size's figures of the built CLI in a process of its own. */
export interface CliRunResult {
  readonly wallMs: Summary;
  /** User + system CPU of the process (every thread, the garbage collector included). */
  readonly cpuMs: Summary;
  /** Peak resident memory of the process (getrusage's ru_maxrss), in MB. */
  readonly peakMB: Summary;
}

/**
 * Preloaded (`node -r`) into the CLI's process: its resource usage on stderr's last line at exit. Preloaded, not a
 * `node -e` wrapper that requires the CLI: under `-e` there is no main module, so the CLI's `require.main ===
 * module` start was never taken and the process exited at once with nothing done (the figures of an empty run).
 */
const USAGE_HOOK = [
  "process.on('exit', () => {",
  '  const u = process.resourceUsage();',
  "  require('fs').writeSync(2, '\\nUSAGE ' + JSON.stringify({ maxRss: u.maxRSS, cpu: (u.userCPUTime + u.systemCPUTime) / 1000 }) + '\\n');",
  '});',
].join('\n');

/** The capture's text: nodes, then per Deployment its ReplicaSet and pods spread over the nodes. */
export function captureText(nodes: number, pods: number): string {
  const items: unknown[] = [];
  for (let n = 0; n < nodes; n++) {
    const name = `node-${String(n).padStart(5, '0')}`;
    items.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${n % 3}` },
      },
      status: { allocatable: { cpu: '16', memory: '64Gi', pods: '110' } },
    });
  }
  const perDeployment = 100;
  for (let d = 0; d * perDeployment < pods; d++) {
    const app = `app-${String(d).padStart(4, '0')}`;
    const replicas = Math.min(perDeployment, pods - d * perDeployment);
    const labels = { app, 'pod-template-hash': '5d8f9c7b6' };
    const spec = {
      containers: [
        {
          name: 'c',
          image: `registry.example/${app}:1`,
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
          imagePullPolicy: 'IfNotPresent',
          terminationMessagePath: '/dev/termination-log',
        },
      ],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
    };
    items.push({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: app, namespace: 'default', uid: `d-${d}` },
      spec: {
        replicas,
        selector: { matchLabels: { app } },
        template: { metadata: { labels: { app } }, spec },
      },
    });
    items.push({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${app}-5d8f9c7b6`,
        namespace: 'default',
        uid: `r-${d}`,
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: app, uid: `d-${d}`, controller: true },
        ],
      },
      spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec } },
    });
    for (let i = 0; i < replicas; i++) {
      const index = d * perDeployment + i;
      items.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${app}-5d8f9c7b6-${String(i).padStart(5, '0')}`,
          namespace: 'default',
          labels,
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'ReplicaSet',
              name: `${app}-5d8f9c7b6`,
              uid: `r-${d}`,
              controller: true,
            },
          ],
        },
        spec: { ...spec, nodeName: `node-${String(index % nodes).padStart(5, '0')}` },
        status: {
          phase: 'Running',
          startTime: '2026-11-01T00:00:00Z',
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      });
    }
  }
  return dump({ apiVersion: 'v1', kind: 'List', items }, { noRefs: true });
}

/** The re-applied Deployment: app-0000 with a new image. */
function manifest(): unknown {
  const labels = { app: 'app-0000' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'app-0000', namespace: 'default' },
    spec: {
      replicas: 100,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'registry.example/app-0000:2',
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
            },
          ],
        },
      },
    },
  };
}

/**
 * Runs `node dist/cli.js simulate --cluster CAPTURE app.yaml` `repeats` times (after one warm-up for the file
 * cache): wall time, CPU and peak memory of the process, which is what the goal names.
 */
function benchCli(text: string, repeats: number): CliRunResult {
  const dir = mkdtempSync(join(tmpdir(), 'foresight-capture-'));
  try {
    const capture = join(dir, 'capture.yaml');
    const app = join(dir, 'app.yaml');
    writeFileSync(capture, text);
    writeFileSync(app, dump(manifest()));
    const hook = join(dir, 'usage-hook.js');
    writeFileSync(hook, USAGE_HOOK);
    const cli = join(__dirname, '..', 'dist', 'cli.js');
    const wallMs: number[] = [];
    const cpuMs: number[] = [];
    const peakMB: number[] = [];
    for (let run = 0; run <= repeats; run++) {
      const started = performance.now();
      const child = spawnSync(
        process.execPath,
        ['-r', hook, cli, 'simulate', '--output', 'json', '--cluster', capture, app],
        { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 },
      );
      const wall = performance.now() - started;
      const usage = /USAGE (.*)\n?$/.exec(child.stderr);
      if (child.status !== 0 || usage?.[1] === undefined) {
        throw new Error(`foresight simulate exited ${child.status}: ${child.stderr.slice(-2000)}`);
      }
      assertSimulated(child.stdout);
      const { maxRss, cpu } = JSON.parse(usage[1]) as { maxRss: number; cpu: number };
      if (run > 0) {
        wallMs.push(wall);
        cpuMs.push(cpu);
        peakMB.push(maxRss / 1024);
      }
    }
    return { wallMs: summarize(wallMs), cpuMs: summarize(cpuMs), peakMB: summarize(peakMB) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Refuses a run that did not simulate: the JSON report must hold the re-applied Deployment's pods, so a CLI that
 * exits early without error (as the old wrapper made it) fails the bench instead of timing nothing.
 */
function assertSimulated(stdout: string): void {
  let pods: unknown;
  try {
    pods = (JSON.parse(stdout) as { pods?: unknown }).pods;
  } catch {
    throw new Error(`foresight simulate wrote no JSON report: ${stdout.slice(0, 200)}`);
  }
  if (!Array.isArray(pods) || pods.length === 0) {
    throw new Error('foresight simulate reported no pods for the re-applied Deployment');
  }
}

/**
 * Runs the sizes; `cliFrom` runs the CLI too at this many pods and more, `editorFrom` the language server with
 * `keystrokes` edits.
 */
export async function benchCapture(options: {
  sizes: readonly (readonly [number, number])[];
  repeats: number;
  cliFrom?: number;
  editorFrom?: number;
  keystrokes?: number;
  log: (line: string) => void;
}): Promise<CaptureResult[]> {
  const collect = (globalThis as { gc?: () => void }).gc;
  const results: CaptureResult[] = [];
  for (const [nodes, pods] of options.sizes) {
    const text = captureText(nodes, pods);
    const readMs: number[] = [];
    const simulateMs: number[] = [];
    const heapMB: number[] = [];
    for (let run = 0; run <= options.repeats; run++) {
      collect?.();
      const started = performance.now();
      const capture = readCaptureText('capture.yaml', text);
      const read = performance.now();
      if (!capture.ok) {
        throw new Error(capture.message);
      }
      const result = simulate({
        manifests: [{ object: manifest(), source: { file: 'app.yaml', documentIndex: 0, path: [] } }],
        cluster: capture.objects,
        version: '1.35',
      });
      const done = performance.now();
      if (result.report.pods.length === 0) {
        throw new Error('the re-applied Deployment has no pods');
      }
      collect?.();
      if (run > 0) {
        readMs.push(read - started);
        simulateMs.push(done - read);
        heapMB.push(process.memoryUsage().heapUsed / 2 ** 20);
      }
    }
    const asYouType =
      nodes > MAX_SIMULATED_NODES
        ? `embedded cluster: more than ${MAX_SIMULATED_NODES} nodes`
        : pods > MAX_CLUSTER_FILE_PODS
          ? `embedded cluster: more than ${MAX_CLUSTER_FILE_PODS} running pods (the notice says so)`
          : SIMULATED_AS_YOU_TYPE;
    const cli =
      options.cliFrom !== undefined && pods >= options.cliFrom ? benchCli(text, options.repeats) : undefined;
    const editor =
      options.editorFrom !== undefined && pods >= options.editorFrom && asYouType === SIMULATED_AS_YOU_TYPE
        ? await benchCaptureInEditor({
            captureText: text,
            nodes,
            keystrokes: options.keystrokes ?? 5,
            timeoutMs: 120_000,
          })
        : undefined;
    const result: CaptureResult = {
      nodes,
      pods,
      megabytes: Math.round((text.length / 2 ** 20) * 10) / 10,
      readMs: summarize(readMs),
      simulateMs: summarize(simulateMs),
      heapMB: summarize(heapMB),
      asYouType,
      ...(cli === undefined ? {} : { cli }),
      ...(editor === undefined ? {} : { editor }),
    };
    options.log(
      `${nodes} nodes, ${pods} pods (${result.megabytes} MB): read ${Math.round(result.readMs.median)} ms, simulate ${Math.round(result.simulateMs.median)} ms, heap ${Math.round(result.heapMB.median)} MB; ${asYouType}` +
        (cli === undefined
          ? ''
          : `; CLI ${Math.round(cli.wallMs.median)} ms wall, ${Math.round(cli.cpuMs.median)} ms CPU, ${Math.round(cli.peakMB.median)} MB peak`) +
        (editor === undefined
          ? ''
          : `; editor: open ${Math.round(editor.openMs)} ms, keystroke ${Math.round(editor.keystrokeMs.median)} ms (${Math.round(editor.keystrokeCpuMs.median)} ms CPU), ${editor.peakMB} MB peak, on ${editor.cluster}`),
    );
    results.push(result);
  }
  return results;
}
