import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileRule } from '../../../server/src/language/crd/cel/rule-program';

/**
 * The Kubernetes CEL functions we add, each row following an example of the upstream library's doc comment
 * (staging/src/k8s.io/apiserver/pkg/cel/library/urls.go, lists.go, quantity.go, regex.go) or cel-go's
 * ext/strings.go; an error row expects the expression to throw.
 */
const cases: { name: string; expression: string; expected: unknown }[] = [
  {
    name: 'urls.go: getScheme of a full URL',
    expression: "url('https://user:pass@example.com:80/path?query=val#fragment').getScheme()",
    expected: 'https',
  },
  {
    name: 'urls.go: getScheme of an absolute path is empty',
    expression: "url('/path').getScheme()",
    expected: '',
  },
  {
    name: 'urls.go: getHost keeps the port',
    expression: "url('https://example.com:80/').getHost()",
    expected: 'example.com:80',
  },
  {
    name: 'urls.go: getHost keeps IPv6 brackets',
    expression: "url('https://[::1]:80/').getHost()",
    expected: '[::1]:80',
  },
  {
    name: 'urls.go: getHostname drops IPv6 brackets and the port',
    expression: "url('https://[::1]:80/').getHostname()",
    expected: '::1',
  },
  {
    name: 'urls.go: getPort of a URL without port is empty',
    expression: "url('https://example.com/').getPort()",
    expected: '',
  },
  { name: 'urls.go: getPort', expression: "url('https://example.com:80/').getPort()", expected: '80' },
  {
    name: 'urls.go: getEscapedPath escapes spaces',
    expression: "url('https://example.com/path with spaces/').getEscapedPath()",
    expected: '/path%20with%20spaces/',
  },
  {
    name: 'urls.go: getEscapedPath of a URL without path is empty',
    expression: "url('https://example.com').getEscapedPath()",
    expected: '',
  },
  {
    name: 'urls.go: getQuery keeps repeated keys as lists',
    expression: "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()",
    expected: { k1: ['a'], k2: ['b', 'c'] },
  },
  {
    name: 'urls.go: getQuery of an empty query is an empty map',
    expression: "url('https://example.com/path?').getQuery()",
    expected: {},
  },
  {
    name: 'urls.go: isURL refuses a port that is not a number',
    expression: "isURL('https://a:b:c/')",
    expected: false,
  },
  {
    name: 'urls.go: isURL refuses a relative path',
    expression: "isURL('../relative-path')",
    expected: false,
  },
  { name: 'urls.go: isURL accepts an absolute path', expression: "isURL('/absolute-path')", expected: true },
  {
    name: 'urls.go: url() of a relative path is an error',
    expression: "url('../relative-path')",
    expected: Error,
  },
  {
    name: 'lists.go: isSorted',
    expression: '[1, 2, 3].isSorted() && !["b", "a"].isSorted()',
    expected: true,
  },
  {
    name: 'lists.go: sum of ints and of doubles',
    expression: '[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0',
    expected: true,
  },
  {
    name: 'lists.go: min and max',
    expression: '[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3',
    expected: true,
  },
  { name: 'lists.go: min of an empty list is an error', expression: '[].min()', expected: Error },
  {
    name: 'lists.go: indexOf and lastIndexOf',
    expression: '[1, 2, 2, 3].indexOf(2) == 1 && [1, 2, 2, 3].lastIndexOf(2) == 2 && [1].indexOf(5) == -1',
    expected: true,
  },
  {
    name: 'quantity.go: isQuantity',
    expression: "isQuantity('1.3G') && !isQuantity('1.3Gi ')",
    expected: true,
  },
  {
    name: 'quantity.go: comparisons',
    expression:
      "quantity('200M').isGreaterThan(quantity('100M')) && quantity('50M').isLessThan(quantity('100M'))",
    expected: true,
  },
  {
    name: 'quantity.go: compareTo and sign',
    expression: "quantity('1Ki').compareTo(quantity('1024')) == 0 && quantity('-1').sign() == -1",
    expected: true,
  },
  {
    name: 'quantity.go: asInteger and isInteger',
    expression: "quantity('50k').asInteger() == 50000 && !quantity('50m').isInteger()",
    expected: true,
  },
  {
    name: 'regex.go: find and findAll',
    expression: "'abc 123'.find('[0-9]+') == '123' && 'a1 b2'.findAll('[a-z][0-9]') == ['a1', 'b2']",
    expected: true,
  },
  {
    name: 'RE2 leading flags: (?i) after ^ makes matches() case-insensitive',
    expression: "'ABC'.matches('^(?i)abc$')",
    expected: true,
  },
  {
    name: 'ext/strings.go: charAt and replace',
    expression:
      "'hello'.charAt(1) == 'e' && 'hello'.replace('l', 'L') == 'heLLo' && 'hello'.replace('l', 'L', 1) == 'heLlo'",
    expected: true,
  },
  {
    name: 'ip.go: isIP accepts IPv4 and IPv6, refuses leading zeros',
    expression: "isIP('192.168.0.1') && isIP('::1') && !isIP('192.168.0.01') && !isIP('fe80::1%eth0')",
    expected: true,
  },
  {
    name: 'cel-go has() on a field of an index expression',
    expression: 'has(self.l[0].a) && !has(self.l[0].b)',
    expected: true,
  },
];

void describe('Kubernetes CEL library', () => {
  for (const row of cases) {
    void test(row.name, () => {
      const program = compileRule(row.expression);
      assert.ok(program.ok, program.ok ? '' : program.reason);
      const run = (): unknown => program.run({ self: { l: [{ a: 1n }] } });
      if (row.expected === Error) {
        assert.throws(run);
      } else {
        assert.deepEqual(run(), row.expected);
      }
    });
  }

  void test('a function of a library we do not implement makes the rule not evaluable, naming the function', () => {
    const program = compileRule(
      "!format.dns1123Label().validate(self.name).hasValue() && cidr('10.0.0.0/8').prefixLength() == 8",
    );
    assert.equal(program.ok, false);
    assert.match(
      program.ok ? '' : program.reason,
      /calls cidr\(\), dns1123Label\(\), prefixLength\(\), validate\(\)/,
    );
  });
});
