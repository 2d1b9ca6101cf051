/**
 * The project's import graph, read from the sources: each TypeScript file under the given roots and the files it
 * imports by relative path (`import … from './x'`, `export … from '../y'`). Packages and node built-ins are left
 * out. `import type` lines can be left out too: they are erased at compile time and order no module's loading.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const IMPORT_PATTERN = /(?:^|\n)\s*(import|export)\s+(type\s)?[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every .ts file under a folder. */
export function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) {
    return [];
  }
  return readdirSync(folder).flatMap((name) => {
    const full = join(folder, name);
    if (statSync(full).isDirectory()) {
      return name === 'node_modules' ? [] : sourceFiles(full);
    }
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The relative imports of each file, resolved to files (paths relative to `root`). */
export function importGraph(
  root: string,
  folders: readonly string[],
  options: { readonly withTypeImports: boolean },
): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of folders.flatMap((folder) => sourceFiles(join(root, folder)))) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(IMPORT_PATTERN)) {
      if (match[2] !== undefined && !options.withTypeImports) {
        continue;
      }
      const target = resolveImport(dirname(file), match[3] ?? '');
      if (target !== undefined) {
        targets.push(relative(root, target));
      }
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(from, specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) {
      return candidate;
    }
  }
  return undefined;
}

/** The cycles of a graph: each strongly connected component of more than one file (or a file importing itself). */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member !== undefined) {
          onStack.delete(member);
          component.push(member);
        }
      } while (member !== undefined && member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) {
        cycles.push(component.sort());
      }
    }
  };
  for (const node of [...graph.keys()].sort()) {
    if (!index.has(node)) {
      visit(node);
    }
  }
  return cycles;
}
