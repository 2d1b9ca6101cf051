/**
 * What the docs tests read out of the repository's Markdown: its pages, their links, code spans, table rows and
 * heading anchors. Small and literal: the pages are written by us, in the subset of Markdown Prettier leaves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root. */
export const ROOT = join(__dirname, '..', '..');

/** A Markdown page of the repository: its path relative to ROOT, and its text. */
export interface Page {
  readonly path: string;
  readonly text: string;
}

/** The pages a reader is sent to: README.md, CHANGELOG.md and docs/*.md. */
export function documentedPages(): Page[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', 'CHANGELOG.md', ...docs].map((path) => ({
    path,
    text: readFileSync(join(ROOT, path), 'utf8'),
  }));
}

/** The text without fenced code blocks (their lines left empty, so line numbers stay). */
export function withoutCodeBlocks(markdown: string): string {
  let inBlock = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inBlock = !inBlock;
        return '';
      }
      return inBlock ? '' : line;
    })
    .join('\n');
}

/** The lines of fenced code blocks. */
export function codeBlockLines(markdown: string): string[] {
  let inBlock = false;
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      inBlock = !inBlock;
    } else if (inBlock) {
      lines.push(line);
    }
  }
  return lines;
}

/** The contents of the inline code spans outside code blocks. */
export function codeSpans(markdown: string): string[] {
  return [...withoutCodeBlocks(markdown).matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');
}

/** The targets of the links and images outside code blocks and code spans. */
export function linkTargets(markdown: string): string[] {
  const prose = withoutCodeBlocks(markdown).replace(/`[^`\n]+`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
}

/** The anchors GitHub gives the headings of a page (lowercase, punctuation dropped, spaces as dashes, -N for repeats). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line)?.[1];
    if (heading === undefined) {
      continue;
    }
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The cells of each table row outside code blocks (header and separator rows included). */
export function tableRows(markdown: string): string[][] {
  return withoutCodeBlocks(markdown)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

/** Code → severity from every table row whose first cell holds backticked codes and whose second is a severity. */
export function documentedCodes(markdown: string): Map<string, string> {
  const codes = new Map<string, string>();
  for (const [first, severity] of tableRows(markdown)) {
    if (first === undefined || severity === undefined || !first.startsWith('`')) {
      continue;
    }
    if (!['error', 'warning', 'information'].includes(severity)) {
      continue;
    }
    for (const match of first.matchAll(/`([a-z0-9-]+)`/g)) {
      codes.set(match[1] ?? '', severity);
    }
  }
  return codes;
}
