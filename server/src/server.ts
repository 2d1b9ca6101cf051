/**
 * The language server's entry point: connection and handler wiring only. Started by the extension, by other
 * editors, and by our tests as `node dist/server.js --stdio`.
 */
import {
  CodeActionKind,
  createConnection,
  DidChangeConfigurationNotification,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import type { InitializeResult } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CLUSTER_WRITTEN_NOTIFICATION,
  PLAN_REQUEST,
  PROFILES_REQUEST,
  SIMULATION_REQUEST,
} from '../../protocol/messages';
import { fileURLToPath } from 'node:url';
import { LanguageServer } from './host/language-server';
import { answerSimulationRequest } from './host/simulation-request';
import { answerPlanRequest } from './host/plan-request';
import { profileSummaries } from './host/cluster-file';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const server = new LanguageServer(connection, documents);
let canRegisterConfiguration = false;
/** The workspace folders: the panels' requests resolve a relative cluster setting against them, as predictions do. */
let workspaceRoots: readonly string[] = [];

connection.onInitialize((params): InitializeResult => {
  const workspace = params.capabilities.workspace;
  server.settings.setSupportsConfiguration(workspace?.configuration === true);
  const options = params.initializationOptions as { workspaceTrusted?: unknown } | undefined;
  server.setWorkspaceTrusted(options?.workspaceTrusted !== false);
  server.setSupportsCodeLensRefresh(workspace?.codeLens?.refreshSupport === true);
  workspaceRoots = (params.workspaceFolders ?? []).flatMap((folder) => {
    try {
      return folder.uri.startsWith('file:') ? [fileURLToPath(folder.uri)] : [];
    } catch {
      return [];
    }
  });
  server.setWorkspaceRoots(workspaceRoots);
  canRegisterConfiguration = workspace?.didChangeConfiguration?.dynamicRegistration === true;
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      hoverProvider: true,
      completionProvider: { triggerCharacters: [':', ' '] },
      documentSymbolProvider: true,
      codeLensProvider: { resolveProvider: false },
    },
    serverInfo: { name: 'kube-foresight' },
  };
});

connection.onInitialized(() => {
  if (canRegisterConfiguration) {
    void connection.client.register(DidChangeConfigurationNotification.type, undefined);
  }
});

connection.onDidChangeConfiguration(() => server.configurationChanged());
documents.onDidChangeContent((event) => server.changed(event.document.uri));
documents.onDidClose((event) => server.closed(event.document.uri));
connection.onCodeAction((params) => server.codeActions(params));
connection.onHover((params) => server.hover(params));
connection.onCompletion((params) => server.completion(params));
connection.onDocumentSymbol((params) => server.documentSymbols(params));
connection.onCodeLens((params) => server.codeLenses(params));
connection.onRequest(SIMULATION_REQUEST, (params: unknown) =>
  answerSimulationRequest(params, {
    openDocuments: () => documents.all(),
    settingsFor: (uri) => server.settings.get(uri),
    service: server.service,
    gitops: server.gitops,
    renders: server.panelRenders,
    workspaceRoots: () => workspaceRoots,
  }),
);
connection.onRequest(PLAN_REQUEST, (params: unknown) =>
  answerPlanRequest(params, {
    openDocuments: () => documents.all(),
    settingsFor: (uri) => server.settings.get(uri),
    service: server.service,
    gitops: server.gitops,
    renders: server.panelRenders,
    workspaceRoots: () => workspaceRoots,
  }),
);
connection.onRequest(PROFILES_REQUEST, () => profileSummaries());
// A capture was written: everything predicted with the old cluster file is predicted again.
connection.onNotification(CLUSTER_WRITTEN_NOTIFICATION, () => server.configurationChanged());
connection.onShutdown(() => server.dispose());

process.on('uncaughtException', (error: unknown) => server.reportError('running', error));
process.on('unhandledRejection', (error: unknown) => server.reportError('running', error));

documents.listen(connection);
connection.listen();
