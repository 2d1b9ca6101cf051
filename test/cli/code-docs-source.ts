/**
 * The doc comments of protocol/finding-codes.ts, read with the TypeScript parser: the meaning of each finding code
 * that SARIF's rules carry. The CLI cannot read the comments at run time (the bundle has no source), so
 * server/src/cli/formats/code-docs.ts holds a copy; test/cli/code-docs.test.ts checks the copy against the source,
 * and this file rewrites it:
 *
 *   npx tsx test/cli/code-docs-source.ts --write
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const SOURCE = join(ROOT, 'protocol', 'finding-codes.ts');
/** The generated module. */
export const CODE_DOCS_MODULE = join(ROOT, 'server', 'src', 'cli', 'formats', 'code-docs.ts');

/** Each code of FINDING_CODES with the text of its doc comment (lines joined by spaces), in source order. */
export function readCodeDocs(): Record<string, string> {
  const file = ts.createSourceFile(SOURCE, readFileSync(SOURCE, 'utf8'), ts.ScriptTarget.ES2022, true);
  const docs: Record<string, string> = {};
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === 'FINDING_CODES' &&
      node.initializer !== undefined
    ) {
      let table: ts.Expression = node.initializer;
      while (ts.isSatisfiesExpression(table) || ts.isAsExpression(table)) {
        table = table.expression;
      }
      if (!ts.isObjectLiteralExpression(table)) {
        throw new Error('FINDING_CODES is not an object literal');
      }
      for (const property of table.properties) {
        if (!ts.isPropertyAssignment(property) || !ts.isStringLiteral(property.name)) {
          throw new Error(`unexpected entry in FINDING_CODES: ${property.getText(file)}`);
        }
        const comment = ts
          .getJSDocCommentsAndTags(property)
          .filter(ts.isJSDoc)
          .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
          .join(' ');
        docs[property.name.text] = comment.replace(/\s+/g, ' ').trim();
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return docs;
}

async function writeModule(): Promise<void> {
  const entries = Object.entries(readCodeDocs())
    .map(([code, doc]) => `  ${JSON.stringify(code)}: ${JSON.stringify(doc)},`)
    .join('\n');
  const text = `/**
 * What each finding code means: the doc comment of its entry in protocol/finding-codes.ts, for the rules of the
 * SARIF output (the bundled CLI has no access to the comments). Generated: do not edit; run
 * \`npx tsx test/cli/code-docs-source.ts --write\` after changing protocol/finding-codes.ts
 * (test/cli/code-docs.test.ts fails until then).
 */
import type { FindingCode } from '../../../../protocol/finding-codes';

/** The meaning of each finding code. */
export const CODE_DOCS: Readonly<Record<FindingCode, string>> = {
${entries}
};
`;
  const options = (await prettier.resolveConfig(CODE_DOCS_MODULE)) ?? {};
  writeFileSync(CODE_DOCS_MODULE, await prettier.format(text, { ...options, filepath: CODE_DOCS_MODULE }));
  console.log(`wrote ${CODE_DOCS_MODULE}`);
}

if (require.main === module && process.argv.includes('--write')) {
  writeModule().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
