/**
 * Where a source text spells one of a set of names by hand, read with TypeScript's parser: a string literal or a
 * template without substitutions equal to the name, or a property key equal to it (`{ NodeResourcesFit: … }`,
 * `'NodeResourcesFit': …`, an interface member). A name reached through an object (`PLUGIN_NAMES.NodeResourcesFit`)
 * or only part of a longer string (`'NodeResourcesFit/TooManyPods'`) is not spelled there.
 */
import ts from 'typescript';

/** One place a name is spelled. */
export interface NameLiteral {
  readonly name: string;
  /** 1-based line. */
  readonly line: number;
  readonly kind: 'string' | 'property key';
}

/** The places `text` spells one of `names`. */
export function nameLiterals(
  text: string,
  names: ReadonlySet<string>,
  fileName = 'module.ts',
): NameLiteral[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: NameLiteral[] = [];
  const add = (node: ts.Node, name: string, kind: NameLiteral['kind']): void => {
    if (names.has(name)) {
      found.push({ name, kind, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    }
  };
  const visit = (node: ts.Node): void => {
    if (isKeyed(node) && node.name !== undefined && !ts.isComputedPropertyName(node.name)) {
      if (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) {
        add(node.name, node.name.text, 'property key');
      }
    } else if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      !ts.isImportDeclaration(node.parent) &&
      !ts.isExportDeclaration(node.parent) &&
      !(isKeyed(node.parent) && node.parent.name === node)
    ) {
      add(node, node.text, 'string');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Declarations whose name is a key: object literal properties, interface and type literal members, enum members. */
function isKeyed(
  node: ts.Node,
): node is ts.PropertyAssignment | ts.PropertySignature | ts.MethodSignature | ts.EnumMember {
  return (
    ts.isPropertyAssignment(node) ||
    ts.isPropertySignature(node) ||
    ts.isMethodSignature(node) ||
    ts.isEnumMember(node)
  );
}
