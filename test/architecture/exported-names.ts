/**
 * The names each module declares and exports, read with TypeScript's parser: `export function f`, `export const a,
 * b`, `export class`, `export interface`, `export type`, `export enum`, and `export { local as name }`. Re-exports
 * (`export … from`, `export *`) declare nothing: an index file that passes a name on does not clash with the module
 * that declares it.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { appendAll } from '../../protocol/collections';

/** The exported names a source text declares, in order. */
export function declaredExports(text: string, fileName = 'module.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.moduleSpecifier === undefined && statement.exportClause !== undefined) {
        if (ts.isNamedExports(statement.exportClause)) {
          appendAll(
            names,
            statement.exportClause.elements.map((element) => element.name.text),
          );
        }
      }
      continue;
    }
    if (!hasExportModifier(statement)) {
      continue;
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        appendAll(names, bindingNames(declaration.name));
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name !== undefined
    ) {
      names.push(statement.name.text);
    }
  }
  // An overloaded function declares its name once per signature.
  return [...new Set(names)];
}

function hasExportModifier(statement: ts.Statement): boolean {
  return (
    ts.canHaveModifiers(statement) &&
    (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
  );
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) {
    return [name.text];
  }
  return name.elements.flatMap((element) => (ts.isBindingElement(element) ? bindingNames(element.name) : []));
}

/** Each exported name declared by more than one of `files`, with the files (relative to `root`) that declare it. */
export function exportClashes(root: string, files: readonly string[]): Map<string, string[]> {
  const declaredBy = new Map<string, string[]>();
  for (const file of files) {
    for (const name of declaredExports(readFileSync(file, 'utf8'), file)) {
      const list = declaredBy.get(name) ?? [];
      list.push(relative(root, file));
      declaredBy.set(name, list);
    }
  }
  return new Map(
    [...declaredBy].filter(([, list]) => list.length > 1).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
