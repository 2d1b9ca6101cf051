import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  byteLength,
  checkDns1035Label,
  checkDns1123Label,
  checkDns1123Subdomain,
  checkLabelKey,
  checkLabelValue,
  checkPathSegmentName,
  checkPortName,
} from '../../../server/src/language/rules/name-formats';

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const KEY_NAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const cases: { name: string; check: (value: string) => string[]; value: string; messages: string[] }[] = [
  {
    name: 'a dotted lowercase name is a subdomain',
    check: checkDns1123Subdomain,
    value: 'web.example-1',
    messages: [],
  },
  { name: 'uppercase is not a subdomain', check: checkDns1123Subdomain, value: 'Web', messages: [SUBDOMAIN] },
  {
    name: 'a subdomain longer than 253 characters is too long and still checked for its characters',
    check: checkDns1123Subdomain,
    value: `${'a'.repeat(254)}_`,
    messages: ['must be no more than 253 characters', SUBDOMAIN],
  },
  {
    name: 'a dotted name is not a label, and the message says so',
    check: checkDns1123Label,
    value: 'a.b',
    messages: ['must not contain dots'],
  },
  {
    name: 'an underscore is not allowed in a label',
    check: checkDns1123Label,
    value: 'a_b',
    messages: [LABEL],
  },
  {
    name: 'a label of 64 characters is too long',
    check: checkDns1123Label,
    value: 'a'.repeat(64),
    messages: ['must be no more than 63 characters'],
  },
  { name: 'a label may start with a digit', check: checkDns1123Label, value: '1web', messages: [] },
  {
    name: 'a DNS-1035 label may not start with a digit',
    check: checkDns1035Label,
    value: '1web',
    messages: [DNS1035],
  },
  {
    name: 'a path segment may hold colons and capitals',
    check: (value) => checkPathSegmentName(value),
    value: 'system:Controller',
    messages: [],
  },
  {
    name: 'a path segment may not contain slashes or percent signs',
    check: (value) => checkPathSegmentName(value),
    value: 'a/b%c',
    messages: ["may not contain '/'", "may not contain '%'"],
  },
  {
    name: 'a path segment may not be ..',
    check: (value) => checkPathSegmentName(value),
    value: '..',
    messages: ["may not be '..'"],
  },
  {
    name: 'a prefixed label key is valid',
    check: checkLabelKey,
    value: 'app.kubernetes.io/name',
    messages: [],
  },
  {
    name: 'a label key with a space is invalid',
    check: checkLabelKey,
    value: 'my key',
    messages: [KEY_NAME],
  },
  {
    name: 'a label key with an uppercase prefix is invalid in its prefix part',
    check: checkLabelKey,
    value: 'Example.com/name',
    messages: [`prefix part ${SUBDOMAIN}`],
  },
  {
    name: 'a label key with an empty prefix says so',
    check: checkLabelKey,
    value: '/name',
    messages: ['prefix part must be non-empty'],
  },
  {
    name: 'a label key with an empty name part says so',
    check: checkLabelKey,
    value: 'example.com/',
    messages: ['name part must be non-empty', KEY_NAME],
  },
  {
    name: 'a label key with two slashes is reported as one message',
    check: checkLabelKey,
    value: 'a/b/c',
    messages: [
      "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
  },
  {
    name: 'a label key name part of 64 bytes is too long',
    check: checkLabelKey,
    value: 'k'.repeat(64),
    messages: ['name part must be no more than 63 bytes'],
  },
  { name: 'an empty label value is valid', check: checkLabelValue, value: '', messages: [] },
  {
    name: 'a label value ending in a dash is invalid',
    check: checkLabelValue,
    value: 'v1-',
    messages: [VALUE],
  },
  {
    name: 'a label value of 64 bytes is too long',
    check: checkLabelValue,
    value: 'v'.repeat(64),
    messages: ['must be no more than 63 bytes'],
  },
  { name: 'a short lowercase port name is valid', check: checkPortName, value: 'http-metrics', messages: [] },
  {
    name: 'a port name of 16 characters is too long',
    check: checkPortName,
    value: 'http-metrics-web',
    messages: ['must be no more than 15 characters'],
  },
  {
    name: 'a numeric port name needs a letter',
    check: checkPortName,
    value: '8080',
    messages: ['must contain at least one letter (a-z)'],
  },
  {
    name: 'an uppercase port name is outside the charset',
    check: checkPortName,
    value: 'HTTP',
    messages: [
      'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'must contain at least one letter (a-z)',
    ],
  },
  {
    name: 'a port name with doubled and trailing hyphens gets both messages',
    check: checkPortName,
    value: 'a--b-',
    messages: ['must not contain consecutive hyphens', 'must not begin or end with a hyphen'],
  },
];

void describe('name formats', () => {
  for (const { name, check, value, messages } of cases) {
    void test(name, () => {
      assert.deepEqual(check(value), messages);
    });
  }
});

describe('byteLength counts UTF-8 bytes as Go len() does (the limits of validation.IsValidLabelValue are in bytes)', () => {
  const cases: { name: string; value: string; bytes: number }[] = [
    { name: 'an ASCII string is as long in bytes as in characters', value: 'web-frontend.v2', bytes: 15 },
    { name: 'the empty string has no bytes', value: '', bytes: 0 },
    { name: 'a Latin letter with an accent takes 2 bytes', value: 'café', bytes: 5 },
    { name: 'a character of the Basic Multilingual Plane above U+07FF takes 3 bytes', value: 'a€', bytes: 4 },
    { name: 'a character beyond the BMP (a surrogate pair) takes 4 bytes', value: 'x\u{1F600}', bytes: 5 },
    { name: 'a lone surrogate is encoded as U+FFFD, 3 bytes', value: 'a\ud800', bytes: 4 },
  ];
  for (const { name, value, bytes } of cases) {
    test(name, () => {
      assert.equal(byteLength(value), bytes);
      assert.equal(byteLength(value), Buffer.byteLength(value, 'utf8'));
    });
  }
});
