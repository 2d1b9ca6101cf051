import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from '../../server/src/cli';
import type { CliIo } from '../../server/src/cli/io';
import { commonDefaults, readCommandLine } from '../../server/src/cli/command-line';
import type { CommonOptions, FlagOutcome } from '../../server/src/cli/command-line';

// One walk over the arguments for both commands: the flags they share are read and worded alike.

const IO: CliIo = { stdout: () => undefined, stderr: () => undefined, cwd: '/' };

/** Reads `args` with no command flags of its own but `--own VALUE`. */
function read(args: string[]): { options: CommonOptions & { own?: string }; error: string | undefined } {
  const options: CommonOptions & { own?: string } = commonDefaults(IO, 'error');
  const error = readCommandLine(
    args,
    options,
    (flag, value): FlagOutcome => {
      if (flag !== '--own') {
        return 'not-mine';
      }
      const own = value();
      if (own === undefined) {
        return { error: '--own needs a value' };
      }
      options.own = own;
      return 'handled';
    },
    'no path',
  );
  return { options, error };
}

describe('readCommandLine', () => {
  test('`--flag=value` and `--flag value` read the same', () => {
    assert.deepEqual(read(['--output=json', 'a']).options, read(['--output', 'json', 'a']).options);
    assert.equal(read(['-o', 'sarif', 'a']).options.output, 'sarif');
  });

  test('the command reads its own flags first, with their values', () => {
    const { options, error } = read(['--own', 'x', '-R', 'dir', '--fail-on=warning']);
    assert.equal(error, undefined);
    assert.equal(options.own, 'x');
    assert.equal(options.recursive, true);
    assert.equal(options.failOn, 'warning');
    assert.deepEqual(options.paths, ['dir']);
  });

  test('a flag that needs a value, given none, is an error, not a path', () => {
    assert.equal(read(['a', '--own']).error, '--own needs a value');
    assert.match(read(['a', '--kustomize']).error ?? '', /--kustomize needs the path/);
    assert.match(read(['a', '--output']).error ?? '', /--output/);
  });

  test('an unknown option is named without its value; `-` alone is standard input', () => {
    assert.equal(read(['--frobnicate=3', 'a']).error, 'unknown option --frobnicate');
    assert.deepEqual(read(['-']).options.paths, ['-']);
    assert.equal(read([]).error, 'no path');
  });

  test('FORESIGHT_KUSTOMIZE is the default kustomize, a flag overrides it', () => {
    const io: CliIo = { ...IO, env: { FORESIGHT_KUSTOMIZE: '/opt/kustomize' } };
    assert.equal(commonDefaults(io, 'error').kustomize, '/opt/kustomize');
    const options = commonDefaults(io, 'error');
    readCommandLine(['--kustomize=/bin/kubectl', 'a'], options, () => 'not-mine', 'no path');
    assert.equal(options.kustomize, '/bin/kubectl');
  });
});

describe('validate and simulate word a shared flag alike', () => {
  async function stderrOf(args: string[]): Promise<{ code: number; stderr: string }> {
    let stderr = '';
    const code = await runCli(args, { ...IO, stderr: (text) => (stderr += text) });
    return { code, stderr };
  }

  for (const [name, args, expected] of [
    ['a bad output format', ['--output=yaml', 'x'], /--output must be one of/],
    ['a bad --fail-on', ['--fail-on', 'sometimes', 'x'], /--fail-on/],
    ['an unknown option with a value', ['--frobnicate=1', 'x'], /^unknown option --frobnicate$/],
    ['--kustomize without a path', ['x', '--kustomize'], /--kustomize needs the path/],
  ] as const) {
    test(name, async () => {
      const validate = await stderrOf(['validate', ...args]);
      const simulate = await stderrOf(['simulate', ...args]);
      assert.equal(validate.code, 2);
      assert.equal(simulate.code, 2);
      const firstLine = (text: string): string => (text.split('\n')[0] ?? '').replace(/^foresight \w+: /, '');
      assert.match(firstLine(validate.stderr), expected);
      assert.equal(firstLine(validate.stderr), firstLine(simulate.stderr));
    });
  }
});
