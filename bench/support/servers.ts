/**
 * The two language servers of the side-by-side benchmark, launched as their editor integrations launch them:
 * ours as the extension's client does, yaml-language-server as vscode-yaml does (the `kubernetes` schema keyword,
 * the client registered for schema content requests). yaml-language-server's Kubernetes schema requests are
 * answered from local files built from the same Kubernetes version's schemas as ours; its HTTP proxy points at a
 * dead loopback port, the schema store is off, so nothing reaches the network.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_SETTINGS, SETTINGS_SECTION } from '../../protocol/settings';
import { SERVER_NODE_FLAGS } from '../../protocol/server-process';
import type { ServerLaunch } from './lsp-client';

const ROOT = join(__dirname, '..', '..');

/**
 * Our bundled server, as `npm run build` writes it, with the extension's default settings: predictions on, unless
 * `predictions` is false (to show what the engine adds to each figure).
 */
export function foresightLaunch(predictions = true): ServerLaunch {
  const settings = { ...DEFAULT_SETTINGS, predictions: { enable: predictions } };
  return {
    command: process.execPath,
    args: [...SERVER_NODE_FLAGS, join(ROOT, 'dist', 'server.js'), '--stdio'],
    capabilities: { workspace: { configuration: true, workspaceFolders: true } },
    initializationOptions: { workspaceTrusted: true },
    configuration: (section) => (section === SETTINGS_SECTION ? settings : null),
  };
}

/** The Kubernetes version whose schemas both servers validate with. */
export const KUBERNETES_VERSION = '1.35';

/** yaml-language-server with what it asked for while it ran. */
export interface YamlLanguageServer {
  readonly launch: ServerLaunch;
  /** Every schema URI it asked the client for, in order. */
  readonly schemaRequests: string[];
  /** Schema URIs it asked for that have no local answer (the request failed, as offline). */
  readonly unansweredSchemaRequests: string[];
  /** The installed version. */
  readonly version: string;
}

/** The schema documents, built once: `all.json` and `_definitions.json`, as kubernetes-json-schema lays them out. */
let schemaDocuments: { all: string; definitions: string } | undefined;

/**
 * all.json is a oneOf over the kinds, each a `$ref` into `_definitions.json` (the shape of kubernetes-json-schema's
 * all.json, which yaml-language-server's Kubernetes detection reads to pick the definition of a document's
 * apiVersion and kind); `_definitions.json` holds our generated definitions (strict: unknown fields are errors).
 */
function buildSchemaDocuments(): { all: string; definitions: string } {
  const source = JSON.parse(
    readFileSync(join(ROOT, 'schemas', 'kubernetes', `${KUBERNETES_VERSION}.json`), 'utf8'),
  ) as { definitions: Record<string, unknown>; kinds: Record<string, string> };
  const definitionNames = [...new Set(Object.values(source.kinds))].sort();
  return {
    all: JSON.stringify({
      $schema: 'http://json-schema.org/draft-07/schema#',
      oneOf: definitionNames.map((name) => ({ $ref: `_definitions.json#/definitions/${name}` })),
    }),
    definitions: JSON.stringify({ definitions: source.definitions }),
  };
}

/** The content of a schema URI; a fragment is not part of the document (HTTP does not send it either). */
function schemaContent(uri: string): string | undefined {
  schemaDocuments ??= buildSchemaDocuments();
  const [document = ''] = uri.split('#', 1);
  if (document.endsWith('-standalone-strict/all.json')) {
    return schemaDocuments.all;
  }
  if (document.endsWith('-standalone-strict/_definitions.json')) {
    return schemaDocuments.definitions;
  }
  return undefined;
}

/** yaml-language-server (the devDependency) configured for Kubernetes, offline; `proxyUrl` is a dead proxy. */
export function yamlLanguageServerLaunch(proxyUrl: string): YamlLanguageServer {
  const packageJson = require.resolve('yaml-language-server/package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const schemaRequests: string[] = [];
  const unansweredSchemaRequests: string[] = [];
  const answer = (params: unknown): string => {
    const uri = String(params);
    schemaRequests.push(uri);
    const content = schemaContent(uri);
    if (content === undefined) {
      unansweredSchemaRequests.push(uri);
      throw new Error(`offline: no local schema for ${uri}`);
    }
    return content;
  };
  const yamlSettings = {
    schemas: { kubernetes: ['*.yaml'] },
    kubernetesVersion: `v${KUBERNETES_VERSION}.0`,
    schemaStore: { enable: false },
    validate: true,
    hover: true,
    completion: true,
    format: { enable: false },
  };
  return {
    launch: {
      command: process.execPath,
      args: [join(dirname(packageJson), 'bin', 'yaml-language-server'), '--stdio'],
      capabilities: {
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeConfiguration: { dynamicRegistration: true },
        },
      },
      configuration: (section) => {
        switch (section) {
          case 'yaml':
            return yamlSettings;
          case 'http':
            return { proxy: proxyUrl, proxyStrictSSL: false };
          default:
            return {};
        }
      },
      // vscode-yaml registers for content requests and fetches http(s) schemas for the server: we answer them
      // from local files. Other schemes come as custom/schema/content, answered the same way.
      requests: { 'vscode/content': answer, 'custom/schema/content': answer },
      notificationsAfterInitialized: ['yaml/registerContentRequest'],
    },
    schemaRequests,
    unansweredSchemaRequests,
    version,
  };
}
