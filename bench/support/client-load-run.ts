/**
 * Run in a fresh process by bench/extension.ts (bundled): loads the extension's client bundle (dist/client.js)
 * the way the extension host does, with `vscode` resolved to a stand-in, and prints how long the require took.
 * No VS Code build runs on this machine; this is the part of activation that the bundle's size decides.
 */
import Module, { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

/** A stand-in for any part of the vscode API: every property, call and construction yields another stand-in. */
function standIn(): unknown {
  const target = function vscodeStandIn(): void {};
  const proxy: unknown = new Proxy(target, {
    get: (_target, property) => (property === Symbol.toPrimitive ? () => 'vscode' : proxy),
    apply: () => proxy,
    construct: () => proxy as object,
  });
  return proxy;
}

const clientPath = process.argv[2];
if (clientPath === undefined) {
  throw new Error('usage: client-load-run <dist/client.js>');
}
const loader = Module as unknown as {
  _load: (request: string, parent: unknown, isMain: boolean) => unknown;
};
const originalLoad = loader._load;
const vscode = standIn();
loader._load = function load(this: unknown, request: string, parent: unknown, isMain: boolean): unknown {
  return request === 'vscode' ? vscode : originalLoad.call(this, request, parent, isMain);
};
const started = performance.now();
const exports = createRequire(__filename)(clientPath) as { activate?: unknown };
const loadMs = performance.now() - started;
process.stdout.write(
  `${JSON.stringify({ loadMs, exportsActivate: typeof exports.activate === 'function' })}\n`,
);
