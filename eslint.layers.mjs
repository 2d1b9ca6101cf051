// The layers of the project (../shared/DESIGN.md, STYLE.md "Dependencies point one way"), as no-restricted-imports
// per folder. eslint.config.mjs applies them; test/architecture/layers.test.ts lints upward imports against them.

const NODE_BUILTINS = [
  'fs',
  'path',
  'os',
  'url',
  'child_process',
  'crypto',
  'util',
  'events',
  'stream',
  'worker_threads',
];
const LSP_PACKAGES = [
  'vscode',
  'vscode-languageserver',
  'vscode-languageserver/node',
  'vscode-languageclient',
  'vscode-languageclient/node',
];

/** A no-restricted-imports rule from forbidden bare names and path patterns (regular expressions). */
function restrict(paths, patterns) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: paths.map((name) => ({ name, message: `${name} is outside this layer` })),
        patterns: patterns.map(([regex, message]) => ({ regex, message })),
      },
    ],
  };
}

const NO_NODE = ['^node:', 'no file system, process or clock in this layer (node: built-ins)'];

/** A module of language/ other than its front door, language/service (index.ts). */
const BEHIND_THE_SERVICE = '(^|/)language/(?!service$)';

export const LAYER_RULES = [
  {
    files: ['server/src/engine/**/*.ts'],
    rules: restrict(
      [...NODE_BUILTINS, ...LSP_PACKAGES],
      [
        NO_NODE,
        ['^vscode', 'the engine knows no editor'],
        [
          '(^|/)(language|host|cli|files)(/|$)',
          'the engine imports nothing from language/, host/, cli/ or files/',
        ],
      ],
    ),
  },
  {
    files: ['server/src/language/**/*.ts'],
    rules: restrict(
      [...NODE_BUILTINS, 'vscode', 'vscode-languageclient', 'vscode-languageclient/node'],
      [
        NO_NODE,
        ['(^|/)(host|cli|files)(/|$)', 'language/ is pure: it imports nothing from host/, cli/ or files/'],
      ],
    ),
  },
  {
    // The hosts reach the language layer (and through it the engine) only by its front door.
    files: ['server/src/host/**/*.ts'],
    rules: restrict(
      ['vscode'],
      [
        [BEHIND_THE_SERVICE, 'host/ reaches language/ only through language/service, its front door'],
        ['(^|/)engine(/|$)', 'host/ reaches the engine only through language/service'],
        ['(^|/)cli(/|$)', 'host/ imports nothing of cli/'],
      ],
    ),
  },
  {
    files: ['server/src/cli/**/*.ts', 'server/src/cli.ts'],
    rules: restrict(LSP_PACKAGES, [
      [BEHIND_THE_SERVICE, 'cli/ reaches language/ only through language/service, its front door'],
      ['(^|/)engine(/|$)', 'cli/ reaches the engine only through language/service'],
      ['(^|/)host(/|$)', 'cli/ imports nothing of host/'],
    ]),
  },
  {
    // The node layer the hosts inject into the service: disk, processes. It serves hosts, never the other way.
    files: ['server/src/files/**/*.ts'],
    rules: restrict(LSP_PACKAGES, [
      [BEHIND_THE_SERVICE, 'files/ reaches language/ only through language/service'],
      ['(^|/)engine(/|$)', 'files/ reaches the engine only through language/service'],
      ['(^|/)(host|cli)(/|$)', 'files/ imports nothing of host/ or cli/'],
    ]),
  },
  {
    files: ['client/**/*.ts'],
    rules: restrict(
      [],
      [['(^|/)(server|media)(/|$)', 'the client knows the server only through protocol/ (and the LSP)']],
    ),
  },
  {
    files: ['media/**/*.ts'],
    rules: restrict(
      [...NODE_BUILTINS, ...LSP_PACKAGES],
      [
        NO_NODE,
        ['^vscode', 'the webview talks to the host by messages only'],
        ['(^|/)(server|client)(/|$)', 'the webview knows protocol/ only'],
      ],
    ),
  },
];
