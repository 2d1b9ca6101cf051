/**
 * The bundled language server checks a file that a kustomization on disk names as what kustomize makes of it: a
 * patch as a partial object, a transformer configuration not as an object. Requires `npm run build` first.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { LspSession } from '../support/lsp-session';

const FIXTURES = join(__dirname, '..', 'fixtures', 'kustomize-files');

const CASES: readonly { name: string; file: string; codes: string[] }[] = [
  {
    name: 'a strategic-merge patch with $patch: delete gets no diagnostic',
    file: 'app/overlays/prod/replicas-patch.yaml',
    codes: [],
  },
  {
    name: 'a transformer configuration gets no diagnostic',
    file: 'app/overlays/prod/label-transformer.yaml',
    codes: [],
  },
  {
    name: 'a base Deployment whose selector the kustomization supplies is not missing it',
    file: 'app/base/deployment.yaml',
    codes: [],
  },
  {
    name: 'a wrong type and a misspelt field in a patch are still reported',
    file: 'app/overlays/broken/bad-patch.yaml',
    codes: ['schema-type', 'schema-unknown-field'],
  },
];

describe('kustomize files over LSP', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  for (const { name, file, codes } of CASES) {
    test(name, async () => {
      const path = join(FIXTURES, file);
      const diagnostics = await session.open(pathToFileURL(path).href, readFileSync(path, 'utf8'));
      assert.deepEqual(
        diagnostics.filter((diagnostic) => diagnostic.severity !== 4).map((diagnostic) => diagnostic.code),
        codes,
      );
    });
  }
});
