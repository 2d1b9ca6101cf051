import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { FINDING_CODES } from '../../protocol/finding-codes';
import type { Page } from './markdown';
import {
  codeBlockLines,
  codeSpans,
  documentedPages,
  headingAnchors,
  linkTargets,
  ROOT,
  tableRows,
  withoutCodeBlocks,
} from './markdown';

// What README.md, CHANGELOG.md and docs/*.md name exists: the files they link to (and the headings of a link's
// #anchor), the repository paths they mention, the flags of `foresight` (in docs/cli.md and on every foresight
// command line), the kubeForesight.* settings and commands, the command titles, and the finding codes.

const PAGES = documentedPages();
const CLI = join(ROOT, 'dist', 'cli.js');

interface Manifest {
  readonly contributes: {
    readonly configuration: { readonly properties: Record<string, { readonly default?: unknown }> };
    readonly commands: readonly {
      readonly command: string;
      readonly title: string;
      readonly category: string;
    }[];
  };
}
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/**
 * Backticked words with dashes that are not finding codes: packages, hooks, rule and folder names. Anything else
 * of that shape in the pages must be a code of protocol/finding-codes.ts, so a renamed code cannot stay in prose.
 */
const NOT_CODES = new Set([
  'build-essential',
  'code-server',
  'foresight-simulate',
  'foresight-validate',
  'inter-pod-affinity',
  'kube-foresight',
  'x-kubernetes-list-type',
  'x-kubernetes-validations',
  'libkrb5-dev',
  'libsecret-1-dev',
  'libx11-dev',
  'libxkbfile-dev',
  'no-restricted-imports',
]);

/** Top-level folders whose paths the pages mention in prose; such a path must exist. */
const PATH_ROOTS = [
  'bench',
  'client',
  'docs',
  'examples',
  'media',
  'protocol',
  'schemas',
  'scripts',
  'server',
  'test',
];

/** Links of a page that lead nowhere: a missing file, or an anchor no heading of the target has. */
function brokenLinks(page: Page): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(page.text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      continue; // https:, mailto:
    }
    const [file = '', anchor] = target.split('#');
    const path = file === '' ? join(ROOT, page.path) : normalize(join(ROOT, dirname(page.path), file));
    if (!path.startsWith(ROOT) || !existsSync(path)) {
      broken.push(target);
    } else if (anchor !== undefined && path.endsWith('.md') && statSync(path).isFile()) {
      if (!headingAnchors(readFileSync(path, 'utf8')).has(anchor)) {
        broken.push(target);
      }
    }
  }
  return broken;
}

/** Repository paths a page mentions outside links and code blocks (placeholders like <name> or * end the path). */
function mentionedPaths(page: Page): string[] {
  const prose = withoutCodeBlocks(page.text).replace(/\]\([^)]*\)/g, ']');
  const pattern = new RegExp(`(?<![\\w./:-])(?:${PATH_ROOTS.join('|')})/[\\w./-]*`, 'g');
  return [...prose.matchAll(pattern)].map((match) => match[0].replace(/[.,]+$/, ''));
}

/** The output of `node dist/cli.js ARGS`. */
function foresight(args: readonly string[]): string {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  assert.equal(run.status, 0, `foresight ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** Whether the help names this option (`-R`, `--fail-on`) as an option, not as part of a longer one. */
function helpHasFlag(help: string, flag: string): boolean {
  return new RegExp(`(^|[\\s\\[,])${flag}(?![\\w-])`, 'm').test(help);
}

/** The long flags of docs/cli.md, the short ones in its code spans, and those of every foresight command line. */
function documentedFlags(pages: readonly Page[]): { page: string; flag: string }[] {
  const flags: { page: string; flag: string }[] = [];
  for (const page of pages) {
    const lines =
      page.path === 'docs/cli.md'
        ? [...withoutCodeBlocks(page.text).split('\n'), ...codeBlockLines(page.text)]
        : [...codeBlockLines(page.text), ...codeSpans(page.text)].filter((line) =>
            /\bforesight (validate|simulate)\b|dist\/cli\.js/.test(line),
          );
    for (const line of lines) {
      // Elsewhere, only the foresight part of a pipeline, before any comment (kubectl has flags of its own).
      const command = line
        .replace(/#.*$/, '')
        .split('|')
        .find((part) => /foresight|cli\.js/.test(part));
      const long = page.path === 'docs/cli.md' ? line : (command ?? '');
      const short = page.path === 'docs/cli.md' ? codeSpans(line) : [command ?? ''];
      for (const match of long.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)) {
        flags.push({ page: page.path, flag: match[0] });
      }
      for (const text of short) {
        for (const match of text.matchAll(/(?<![\w-])-[A-Za-z](?![\w-])/g)) {
          flags.push({ page: page.path, flag: match[0] });
        }
      }
    }
  }
  return flags;
}

/** The values docs/cli.md gives an option that takes a fixed set (`--output`, `--fail-on`), per option. */
function documentedValues(cliPage: string): { flag: string; value: string }[] {
  const values: { flag: string; value: string }[] = [];
  for (const [first = '', , what = ''] of tableRows(cliPage)) {
    const flag = /`(--output|--fail-on)\b/.exec(first)?.[1];
    if (flag !== undefined) {
      for (const match of what.matchAll(/`([a-z]+)`/g)) {
        values.push({ flag, value: match[1] ?? '' });
      }
    }
  }
  return values;
}

/** Every kubeForesight.* identifier of a page. */
function mentionedSettings(page: Page): string[] {
  return [...page.text.matchAll(/\bkubeForesight(?:\.[A-Za-z][A-Za-z0-9]*)+/g)].map((match) => match[0]);
}

describe('README.md and docs/', () => {
  test('the pages are found, and README.md stays a front page (10,000 characters at most)', () => {
    assert.ok(PAGES.length >= 8, PAGES.map((page) => page.path).join(', '));
    const readme = PAGES.find((page) => page.path === 'README.md');
    assert.ok(readme !== undefined && readme.text.length <= 10_000, `README.md: ${readme?.text.length}`);
  });

  test('every relative link points at an existing file, and its #anchor at a heading there', () => {
    const broken = PAGES.flatMap((page) => brokenLinks(page).map((target) => `${page.path}: ${target}`));
    assert.deepEqual(broken, []);
  });

  test('the link check notices a missing file and a missing heading', () => {
    const page = {
      path: 'docs/x.md',
      text: '[a](cli.md#no-such-heading) [b](no-such-file.md) [c](cli.md#options)',
    };
    assert.deepEqual(brokenLinks(page), ['cli.md#no-such-heading', 'no-such-file.md']);
  });

  test('every repository path the pages mention exists', () => {
    const missing = PAGES.flatMap((page) =>
      mentionedPaths(page)
        .filter((path) => !existsSync(join(ROOT, path)))
        .map((path) => `${page.path}: ${path}`),
    );
    assert.deepEqual(missing, []);
  });

  test('every flag docs/cli.md names, and every flag of a foresight command line, is in foresight --help', () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is not built: run npm run build (npm test builds it)');
    const help = foresight(['--help']);
    const flags = documentedFlags(PAGES);
    assert.ok(
      flags.filter((entry) => entry.page === 'docs/cli.md').length >= 12,
      'too few flags in docs/cli.md',
    );
    const unknown = flags
      .filter(({ flag }) => !helpHasFlag(help, flag))
      .map(({ page, flag }) => `${page}: ${flag}`);
    assert.deepEqual([...new Set(unknown)], []);
  });

  test('the values docs/cli.md gives --output and --fail-on are the ones the help lists', () => {
    const help = foresight(['--help']);
    const values = documentedValues(PAGES.find((page) => page.path === 'docs/cli.md')?.text ?? '');
    assert.deepEqual(
      values.map(({ flag, value }) => `${flag} ${value}`),
      [
        '--output text',
        '--output json',
        '--output sarif',
        '--output junit',
        '--fail-on error',
        '--fail-on prediction',
        '--fail-on warning',
        '--fail-on never',
      ],
    );
    const usage = (flag: string) => new RegExp(`\\[${flag} ([a-z|]+)\\]`).exec(help)?.[1]?.split('|') ?? [];
    const unknown = values.filter(({ flag, value }) => !usage(flag).includes(value));
    assert.deepEqual(unknown, []);
  });

  test('the flag check notices a flag the CLI does not have', () => {
    const help = foresight(['--help']);
    const page = {
      path: 'docs/cli.md',
      text: 'Use `--format json` or `-x`.\n\n```sh\nforesight simulate --dry-run k8s/\n```\n',
    };
    const unknown = documentedFlags([page]).filter(({ flag }) => !helpHasFlag(help, flag));
    assert.deepEqual(
      unknown.map(({ flag }) => flag),
      ['--format', '-x', '--dry-run'],
    );
  });

  test('every kubeForesight.* the pages name is a setting of package.json, or a command', () => {
    const settings = new Set(Object.keys(MANIFEST.contributes.configuration.properties));
    const commands = new Set(MANIFEST.contributes.commands.map((command) => command.command));
    const unknown = PAGES.flatMap((page) =>
      mentionedSettings(page)
        .filter((name) => !settings.has(name) && !commands.has(name))
        .map((name) => `${page.path}: ${name}`),
    );
    assert.deepEqual(unknown, []);
    const named = new Set(PAGES.flatMap(mentionedSettings));
    assert.ok(named.size >= 8, [...named].join(', '));
  });

  test('a setting documented with a default in a table has that default in package.json', () => {
    const properties = MANIFEST.contributes.configuration.properties;
    const wrong: string[] = [];
    for (const page of PAGES) {
      for (const [first = '', second = ''] of tableRows(page.text)) {
        const names = [...first.matchAll(/`(kubeForesight\.[\w.]+)`/g)].map((match) => match[1] ?? '');
        const value = /^`([^`]+)`$/.exec(second)?.[1];
        const name = names[0];
        if (names.length === 1 && name !== undefined && value !== undefined) {
          if (String(properties[name]?.default) !== value) {
            wrong.push(`${page.path}: ${name} = ${value}`);
          }
        }
      }
    }
    assert.deepEqual(wrong, []);
  });

  test('every "Kube Foresight: …" command the pages name is a command of package.json', () => {
    const titles = new Set(
      MANIFEST.contributes.commands.map((command) => `${command.category}: ${command.title}`),
    );
    const unknown = PAGES.flatMap((page) =>
      [...page.text.matchAll(/"(Kube Foresight: [^"]+)"/g)]
        .map((match) => match[1] ?? '')
        .filter((title) => !titles.has(title))
        .map((title) => `${page.path}: ${title}`),
    );
    assert.deepEqual(unknown, []);
  });

  test('every backticked word that looks like a finding code is one', () => {
    const codeShaped = PAGES.flatMap((page) =>
      codeSpans(page.text)
        .filter((span) => /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/.test(span) && !NOT_CODES.has(span))
        .map((span) => ({ page: page.path, span })),
    );
    assert.ok(codeShaped.length >= 100, `only ${codeShaped.length} codes found`);
    const unknown = codeShaped
      .filter(({ span }) => !(span in FINDING_CODES))
      .map(({ page, span }) => `${page}: ${span} (a finding code? if not, add it to NOT_CODES)`);
    assert.deepEqual(unknown, []);
    assert.deepEqual(
      [...NOT_CODES].filter((word) => word in FINDING_CODES),
      [],
    );
  });
});
