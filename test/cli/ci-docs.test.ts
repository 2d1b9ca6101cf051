import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT, runForesight } from './cli-harness';

// docs/ci.md and .pre-commit-hooks.yaml name only what the CLI has: every flag and value they pass to foresight is
// in `foresight --help`, and the hooks run the package's bin over manifests.

const CI_DOC = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');

/** The options that take a value, whose value the help must list (the others take paths and numbers). */
const LISTED_VALUES = new Set(['--output', '-o', '--fail-on']);

/** Each use of foresight in a text: its command and its arguments (after `foresight`, or in a hook's args). */
function foresightUses(markdown: string): { command: string; args: string[] }[] {
  const uses: { command: string; args: string[] }[] = [];
  const joined = markdown.replace(/\n\s+(?=>|--|-[A-Za-z] )/g, ' ');
  for (const match of joined.matchAll(/\bforesight (validate|simulate|plan)\b([^\n`]*)/g)) {
    uses.push({ command: match[1] ?? '', args: (match[2] ?? '').split(/\s+/).filter(Boolean) });
  }
  for (const match of joined.matchAll(/- id: (foresight-validate|foresight-simulate)\n((?:\s+\w+:.*\n)*)/g)) {
    const args = /args: \[(.*)\]/.exec(match[2] ?? '')?.[1];
    if (args !== undefined) {
      uses.push({
        command: (match[1] ?? '').replace('foresight-', ''),
        args: args.split(',').map((arg) => arg.trim()),
      });
    }
  }
  return uses;
}

/**
 * The flags the prose names in code spans (`--fail-on`, `-R`), and the values of the tables whose first header
 * cell is a flag (| `--output` | … then | `sarif` | …).
 */
function proseFlags(markdown: string): { flag: string; value?: string }[] {
  const flags: { flag: string; value?: string }[] = [];
  for (const match of markdown.matchAll(/`(--?[A-Za-z][\w-]*)`/g)) {
    flags.push({ flag: match[1] ?? '' });
  }
  let tableFlag: string | undefined;
  for (const line of markdown.split('\n')) {
    const first = /^\| `([^`]+)` +\|/.exec(line)?.[1];
    if (!line.startsWith('|')) {
      tableFlag = undefined;
    } else if (first?.startsWith('-') === true) {
      tableFlag = first;
    } else if (first !== undefined && tableFlag !== undefined) {
      flags.push({ flag: tableFlag, value: first });
    }
  }
  return flags;
}

/** The flags of an argument list, with the value of those whose values the help lists. */
function flagsOf(args: readonly string[]): { flag: string; value?: string }[] {
  const flags: { flag: string; value?: string }[] = [];
  args.forEach((arg, index) => {
    if (!/^--?[A-Za-z]/.test(arg)) {
      return;
    }
    const [flag = arg, inline] = arg.split('=');
    const value = inline ?? args[index + 1];
    flags.push(LISTED_VALUES.has(flag) && value !== undefined ? { flag, value } : { flag });
  });
  return flags;
}

describe('docs/ci.md and the pre-commit hooks', () => {
  test('docs/ci.md runs both commands, uploads SARIF and shows the pre-commit hooks', () => {
    const commands = new Set(foresightUses(CI_DOC).map((use) => use.command));
    assert.deepEqual([...commands].sort(), ['plan', 'simulate', 'validate']);
    assert.match(CI_DOC, /uses: github\/codeql-action\/upload-sarif@v\d+/);
    assert.match(CI_DOC, /run: npx foresight validate -R --output sarif/);
    assert.match(CI_DOC, /- id: foresight-validate\n/);
    assert.match(CI_DOC, /- id: foresight-simulate\n/);
  });

  test('every flag and every --output and --fail-on value docs/ci.md uses is in foresight --help', async () => {
    const help = (await runForesight(['--help'])).stdout;
    const usage = {
      validate: (await runForesight(['validate', '--help'])).stdout,
      simulate: (await runForesight(['simulate', '--help'])).stdout,
      plan: (await runForesight(['plan', '--help'])).stdout,
    };
    const uses = foresightUses(CI_DOC);
    const flags = uses.flatMap((use) => flagsOf(use.args).map((flag) => ({ ...flag, command: use.command })));
    assert.ok(flags.length >= 10, `only ${flags.length} flags found in docs/ci.md's commands`);
    const prose = proseFlags(CI_DOC);
    assert.deepEqual(
      prose.filter((entry) => entry.value !== undefined).map((entry) => `${entry.flag} ${entry.value}`),
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
    // A flag the prose names belongs to either command; one in a command line, to that command.
    const everyUse = [...flags, ...prose.map((entry) => ({ ...entry, command: 'either' }))];
    const missing = everyUse.filter(({ flag, value, command }) => {
      const usageLine =
        command === 'validate' || command === 'simulate' || command === 'plan'
          ? usage[command]
          : `${usage.validate}\n${usage.simulate}`;
      const flagKnown = new RegExp(`(^|[\\s\\[,])${flag}(?![\\w-])`, 'm');
      if (!flagKnown.test(help) || !flagKnown.test(usageLine)) {
        return true;
      }
      return value !== undefined && !new RegExp(`(^|[\\s|(,])${value}(?![\\w-])`, 'm').test(help);
    });
    assert.deepEqual(missing, []);
  });

  test('the check above notices a flag or a value the CLI does not have', async () => {
    const help = (await runForesight(['--help'])).stdout;
    for (const [flag, value] of [
      ['--format', undefined],
      ['--output', 'html'],
      ['--fail-on', 'always'],
    ] as const) {
      const flagKnown = new RegExp(`(^|[\\s\\[,])${flag}(?![\\w-])`, 'm').test(help);
      const valueKnown = value === undefined || new RegExp(`(^|[\\s|(,])${value}(?![\\w-])`, 'm').test(help);
      assert.equal(flagKnown && valueKnown, false, `${flag} ${value ?? ''}`);
    }
  });

  test('.pre-commit-hooks.yaml runs the package bin over YAML and JSON files, in one process', () => {
    const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as {
      id: string;
      entry: string;
      language: string;
      files: string;
      require_serial?: boolean;
    }[];
    const bin = Object.keys(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin,
    );
    assert.deepEqual(
      hooks.map((hook) => [hook.id, hook.entry, hook.language, hook.require_serial]),
      [
        ['foresight-validate', 'foresight validate', 'node', true],
        ['foresight-simulate', 'foresight simulate', 'node', true],
      ],
    );
    for (const hook of hooks) {
      assert.ok(bin.includes(hook.entry.split(' ')[0] ?? ''), hook.entry);
      const files = new RegExp(hook.files);
      for (const path of ['k8s/web.yaml', 'deploy.yml', 'nested/dir/service.json']) {
        assert.ok(files.test(path), `${hook.id} takes ${path}`);
      }
      for (const path of ['README.md', 'chart/values.yaml.tpl', 'notes.txt']) {
        assert.ok(!files.test(path), `${hook.id} leaves out ${path}`);
      }
    }
  });
});
