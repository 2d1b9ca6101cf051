import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import type { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { findCycles, importGraph } from './import-graph';

// The layers hold: no cycle of imports, and ESLint refuses an import that goes the wrong way (eslint.config.mjs,
// no-restricted-imports per folder). Upward imports are tried on snippets linted as if they were project files.

const ROOT = join(__dirname, '..', '..');
const FOLDERS = ['server/src', 'client/src', 'protocol', 'media'];

describe('the import graph', () => {
  test('has no cycle of runtime imports', () => {
    const graph = importGraph(ROOT, FOLDERS, { withTypeImports: false });
    assert.ok(graph.size > 200, `read ${graph.size} files`);
    assert.deepEqual(findCycles(graph), []);
  });

  test('the cycle finder finds the one cycle of a small graph and leaves the file outside it', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    assert.deepEqual(findCycles(graph), [['a.ts', 'b.ts', 'c.ts']]);
  });
});

describe('lint refuses imports that go the wrong way', () => {
  // The layer rules of eslint.config.mjs alone (eslint.layers.mjs), with the TypeScript parser: the snippets are
  // not files of the program the type-aware rules need.
  const linter = (async () => {
    const { LAYER_RULES } = (await import(join(ROOT, 'eslint.layers.mjs'))) as {
      LAYER_RULES: Linter.Config[];
    };
    return new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...LAYER_RULES],
    });
  })();
  const cases: { name: string; file: string; code: string; refused: boolean }[] = [
    {
      name: 'the engine importing the language layer',
      file: 'server/src/engine/model/x.ts',
      code: "import { analyzeText } from '../../language/analyzer';",
      refused: true,
    },
    {
      name: 'the engine importing the host',
      file: 'server/src/engine/x.ts',
      code: "import { FolderFiles } from '../host/folder-files';",
      refused: true,
    },
    {
      name: 'the engine importing node:fs',
      file: 'server/src/engine/x.ts',
      code: "import { readFileSync } from 'node:fs';",
      refused: true,
    },
    {
      name: 'the engine importing vscode-languageserver',
      file: 'server/src/engine/x.ts',
      code: "import { Diagnostic } from 'vscode-languageserver';",
      refused: true,
    },
    {
      name: 'the language layer importing the CLI',
      file: 'server/src/language/x.ts',
      code: "import { runValidate } from '../cli/validate';",
      refused: true,
    },
    {
      name: 'the language layer importing node:fs',
      file: 'server/src/language/x.ts',
      code: "import { readFileSync } from 'node:fs';",
      refused: true,
    },
    {
      name: 'the client importing the server',
      file: 'client/src/x.ts',
      code: "import { simulate } from '../../server/src/engine/simulate/simulate';",
      refused: true,
    },
    {
      name: 'the webview importing vscode',
      file: 'media/x.ts',
      code: "import * as vscode from 'vscode';",
      refused: true,
    },
    {
      name: 'the host importing the analyzer around the language service',
      file: 'server/src/host/x.ts',
      code: "import { analyzeText } from '../language/analyzer';",
      refused: true,
    },
    {
      name: 'the host importing a module of the service other than its front door',
      file: 'server/src/host/x.ts',
      code: "import { runPrediction } from '../language/service/prediction-run';",
      refused: true,
    },
    {
      name: 'the host importing the engine',
      file: 'server/src/host/x.ts',
      code: "import { simulate } from '../engine/simulate/simulate';",
      refused: true,
    },
    {
      name: 'the CLI importing the manifest reader around the language service',
      file: 'server/src/cli/x.ts',
      code: "import { readManifests } from '../language/manifests/read-manifests';",
      refused: true,
    },
    {
      name: 'a CLI format importing the engine',
      file: 'server/src/cli/formats/x.ts',
      code: "import { formatBytes } from '../../engine/model/quantity';",
      refused: true,
    },
    {
      name: 'the CLI importing the host',
      file: 'server/src/cli/x.ts',
      code: "import { LanguageServer } from '../host/language-server';",
      refused: true,
    },
    {
      name: 'files/ importing the language layer around its front door',
      file: 'server/src/files/x.ts',
      code: "import { LineIndex } from '../language/text/line-index';",
      refused: true,
    },
    {
      name: 'files/ importing the host',
      file: 'server/src/files/x.ts',
      code: "import { FolderFiles } from '../host/folder-files';",
      refused: true,
    },
    {
      name: 'the host importing the language service (allowed)',
      file: 'server/src/host/x.ts',
      code: "import { createLanguageService } from '../language/service';",
      refused: false,
    },
    {
      name: 'a CLI thread importing the language service (allowed)',
      file: 'server/src/cli/parallel/x.ts',
      code: "import type { LanguageService } from '../../language/service';",
      refused: false,
    },
    {
      name: 'the engine importing protocol/ (allowed)',
      file: 'server/src/engine/x.ts',
      code: "import { FINDING_CODES } from '../../../protocol/finding-codes';",
      refused: false,
    },
    {
      name: 'the language layer importing the engine (allowed)',
      file: 'server/src/language/x.ts',
      code: "import { simulate } from '../engine/simulate/simulate';",
      refused: false,
    },
  ];
  test('a host file that goes around the language service has every such import refused (fixture)', async () => {
    const eslint = await linter;
    const fixture = join(ROOT, 'test', 'fixtures', 'architecture', 'bypass-the-service.ts.fixture');
    const [result] = await eslint.lintText(readFileSync(fixture, 'utf8'), {
      filePath: join(ROOT, 'server', 'src', 'host', 'bypass-the-service.ts'),
    });
    const refused = (result?.messages ?? [])
      .filter((message) => message.ruleId === 'no-restricted-imports')
      .map((message) => message.line);
    assert.deepEqual(refused, [3, 4, 5, 6], JSON.stringify(result?.messages));
  });

  for (const entry of cases) {
    test(`${entry.name} is ${entry.refused ? 'refused' : 'allowed'}`, async () => {
      const eslint = await linter;
      const [result] = await eslint.lintText(`${entry.code}\nexport const used = 1;\n`, {
        filePath: join(ROOT, entry.file),
      });
      const refusals = (result?.messages ?? []).filter(
        (message) => message.ruleId === 'no-restricted-imports',
      );
      assert.equal(refusals.length > 0, entry.refused, JSON.stringify(result?.messages));
    });
  }
});
