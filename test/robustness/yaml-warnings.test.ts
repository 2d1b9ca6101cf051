/**
 * The yaml package prints warnings (a collection used as a mapping key is stringified) through
 * process.emitWarning; in the language server that reaches the editor as an error log message, once per
 * document per keystroke. Parsing must stay silent: what matters is reported as findings.
 */
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { parseSlice } from '../../server/src/language/yaml/parse-document';

const cases: { name: string; text: string }[] = [
  { name: 'a flow sequence as a key', text: '? [a, b]\n: value\n' },
  { name: 'a flow mapping as a key', text: '{ first: Sammy, last: Sosa }: value\n' },
  {
    name: 'an empty flow sequence as a key inside a manifest',
    text: 'apiVersion: v1\nkind: ConfigMap\ndata:\n  []: x\n',
  },
];

describe('parsing YAML emits no process warning', () => {
  for (const { name, text } of cases) {
    test(`${name} parses without a process warning`, async () => {
      const warnings: string[] = [];
      const listener = (warning: Error): void => {
        warnings.push(warning.message);
      };
      process.on('warning', listener);
      try {
        const [document] = parseSlice(text);
        assert.ok(document?.document !== null, 'parsed');
        await nextTurn();
      } finally {
        process.off('warning', listener);
      }
      assert.deepEqual(warnings, []);
    });
  }
});
