/**
 * Settings with wrong values get the defaults, never a crash: normalizeSettings over a table of garbage, and
 * the bundled server over LSP when the client answers workspace/configuration with garbage, with null for the
 * whole answer, or with an error. Requires `npm run build` (npm test does it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigurationRequest, ResponseError } from 'vscode-languageserver-protocol/node';
import type { Settings } from '../../protocol/settings';
import { DEFAULT_SETTINGS, normalizeSettings } from '../../protocol/settings';
import { LspSession } from '../support/lsp-session';
import { collectServerErrors, withinBound, stopWithin } from './lsp-support';

const cases: { name: string; raw: unknown; expected: Settings }[] = [
  { name: 'null gives every default', raw: null, expected: DEFAULT_SETTINGS },
  { name: 'a string gives every default', raw: 'yes', expected: DEFAULT_SETTINGS },
  { name: 'a number gives every default', raw: 42, expected: DEFAULT_SETTINGS },
  {
    name: 'an array gives every default',
    raw: [1, 'two', { validation: { enable: false } }],
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'kubernetesVersion "2.0", maxFileSizeKB -1 and validation.enable "yes" each get their default',
    raw: { kubernetesVersion: '2.0', maxFileSizeKB: -1, validation: { enable: 'yes' } },
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'maxFileSizeKB as a string gets the default',
    raw: { maxFileSizeKB: '100' },
    expected: DEFAULT_SETTINGS,
  },
  { name: 'maxFileSizeKB 0 gets the default', raw: { maxFileSizeKB: 0 }, expected: DEFAULT_SETTINGS },
  {
    name: 'defaultResources with a malformed quantity or an unknown resource name get the defaults',
    raw: { defaultResources: { requests: { cpu: '128mb' }, limits: { 'cpu s': '1' } } },
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'defaultResources that are not objects get the defaults',
    raw: { defaultResources: { requests: ['cpu'], limits: 'memory' } },
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'valid defaultResources are kept, numbers as quantities',
    raw: { defaultResources: { requests: { cpu: 0.25, memory: '64Mi' }, limits: {} } },
    expected: {
      ...DEFAULT_SETTINGS,
      defaultResources: { requests: { cpu: '0.25', memory: '64Mi' }, limits: {} },
    },
  },
  {
    name: 'maxFileSizeKB 0.5 (below the manifest’s minimum of 1) gets the default',
    raw: { maxFileSizeKB: 0.5 },
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'maxFileSizeKB NaN gets the default',
    raw: { maxFileSizeKB: Number.NaN },
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'maxFileSizeKB Infinity gets the default',
    raw: { maxFileSizeKB: Number.POSITIVE_INFINITY },
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'a Kubernetes version as a number gets the default',
    raw: { kubernetesVersion: 1.34 },
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'a padded Kubernetes version gets the default',
    raw: { kubernetesVersion: ' 1.34' },
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'validation as a boolean (not an object) gets the default',
    raw: { validation: false },
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'cluster, scope and predictions of the wrong types get their defaults',
    raw: { cluster: 42, scope: 'everything', predictions: 'on' },
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'a "__proto__" key from JSON does not leak into the settings',
    raw: JSON.parse(
      '{"__proto__": {"validation": {"enable": false}, "kubernetesVersion": "1.33"}}',
    ) as unknown,
    expected: DEFAULT_SETTINGS,
  },
  {
    name: 'valid fields are kept beside invalid ones',
    raw: { kubernetesVersion: '1.34', maxFileSizeKB: 'big', validation: { enable: false }, cluster: 7 },
    expected: { ...DEFAULT_SETTINGS, kubernetesVersion: '1.34', validation: { enable: false } },
  },
];

describe('normalizeSettings turns garbage into defaults', () => {
  for (const { name, raw, expected } of cases) {
    test(name, () => {
      assert.deepEqual(normalizeSettings(raw), expected);
    });
  }
});

/** A Deployment with one schema error, to tell whether validation ran with the default version. */
const MANIFEST =
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: "3"\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: app\n          image: nginx:1.27\n          resources:\n            requests:\n              cpu: 100m\n';

/** What the client answers for a document, by the name in its URI. */
const ANSWERS: Record<string, () => unknown> = {
  'each-garbage-value': () => [
    { kubernetesVersion: '2.0', maxFileSizeKB: -1, validation: { enable: 'yes' } },
  ],
  'string-size': () => [{ maxFileSizeKB: '100', validation: 'yes', scope: 12, predictions: [] }],
  'not-an-object': () => ['kubeForesight'],
  'empty-answer': () => [],
  'a-number-for-the-answer': () => 42,
  'null-for-the-answer': () => null,
  'an-error-response': () => new ResponseError(-32603, 'the client failed to read its settings'),
};

describe('the server given garbage settings over workspace/configuration', () => {
  let session: LspSession;
  let serverErrors: string[];
  before(async () => {
    session = await LspSession.start({ workspace: { configuration: true } });
    serverErrors = collectServerErrors(session);
    session.connection.onRequest(ConfigurationRequest.type, (params) => {
      const name = /settings-garbage\/([^/]+)\//.exec(params.items[0]?.scopeUri ?? '')?.[1] ?? '';
      return (ANSWERS[name] ?? (() => [null]))() as never;
    });
  });
  after(async () => {
    await stopWithin(session);
  });

  for (const name of Object.keys(ANSWERS)) {
    test(`answered with ${name.replace(/-/g, ' ')}, the server validates with the defaults, and again after an edit`, async () => {
      const uri = `file:///settings-garbage/${name}/web.yaml`;
      const first = await withinBound('diagnostics', session.open(uri, MANIFEST));
      assert.deepEqual(
        first.map((diagnostic) => diagnostic.code),
        ['schema-type'],
      );
      const edited = await withinBound(
        'diagnostics after an edit',
        session.change(uri, 2, [
          { range: { start: { line: 5, character: 12 }, end: { line: 5, character: 15 } }, text: '3' },
        ]),
      );
      assert.deepEqual(edited, []);
      await session.close(uri);
    });
  }

  test('no unexpected error was logged and the server is alive', () => {
    assert.deepEqual(serverErrors, []);
    assert.ok(session.isAlive);
  });
});
