/**
 * How the language server's Node process is started: shared by the extension, which starts it, and the
 * benchmarks, which measure it as shipped.
 */

/**
 * Node flags for the language server. V8's young generation defaults to 16 MiB semi-spaces on 64-bit machines;
 * the server's work is bursts of short-lived objects (a parse, a simulation) beside long-lived trees of the open
 * documents, and with 8 MiB its peak resident memory over a session on a 5,000-resource file drops by about
 * 20 MB (203 → 183 MB) with no measurable change in CPU per keystroke (bench/, 1,000 resources, alternated runs).
 * Another editor starting `node dist/server.js --stdio` may pass the same flags; the server works without them.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
