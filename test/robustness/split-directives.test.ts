/**
 * Directives stay with the document they introduce when a file is split at "---" lines. Found by the YAML
 * test suite (cases 5TYM, 6CK3, CC74, U3C3, Z9M4, H7TQ, MUS6/00): the split used to leave "%TAG" in a slice of
 * its own, so valid tag shorthands were reported as "Could not resolve tag" and bad directives went unreported.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSlice } from '../../server/src/language/yaml/parse-document';
import { splitDocuments } from '../../server/src/language/yaml/split-documents';

const cases: { name: string; text: string; slices: string[] }[] = [
  {
    name: 'a %TAG directive at the start of the stream stays with the first document',
    text: '%TAG !e! tag:example.com,2000:app/\n---\n!e!foo "bar"\n',
    slices: ['%TAG !e! tag:example.com,2000:app/\n---\n!e!foo "bar"\n'],
  },
  {
    name: 'comments and blank lines between a directive and its --- stay with the directive',
    text: '# header\n%YAML 1.2\n\n# more\n--- a\n',
    slices: ['# header\n%YAML 1.2\n\n# more\n--- a\n'],
  },
  {
    name: 'a directive after a ... end marker starts the next slice, the marker stays with the previous one',
    text: '%TAG !m! !my-\n--- # Bulb\n!m!light fluorescent\n...\n%TAG !m! !my-\n--- # Color\n!m!light green\n',
    slices: [
      '%TAG !m! !my-\n--- # Bulb\n!m!light fluorescent\n...\n',
      '%TAG !m! !my-\n--- # Color\n!m!light green\n',
    ],
  },
  {
    name: 'a leading comment without directives is still split off as before',
    text: '# only a comment\n---\na: 1\n',
    slices: ['# only a comment\n', '---\na: 1\n'],
  },
  {
    name: 'a % line inside a document body is content, not a directive, and does not move the split',
    text: 'a: |\n  %not-a-directive\n---\nb: 2\n',
    slices: ['a: |\n  %not-a-directive\n', '---\nb: 2\n'],
  },
  {
    name: 'a ... followed by comments only splits at the --- as before',
    text: 'a: 1\n...\n# c\n---\nb: 2\n',
    slices: ['a: 1\n...\n# c\n', '---\nb: 2\n'],
  },
];

describe('splitDocuments keeps directives with their document', () => {
  for (const { name, text, slices } of cases) {
    test(name, () => {
      const result = splitDocuments(text);
      assert.deepEqual(
        result.map((slice) => slice.text),
        slices,
      );
      assert.equal(result.map((slice) => slice.text).join(''), text, 'slices cover the text exactly');
    });
  }

  test('a valid tag shorthand declared by %TAG parses without any finding once split', () => {
    const text = '%TAG !e! tag:example.com,2000:app/\n---\n- !e!foo "bar"\n';
    const findings = splitDocuments(text).flatMap((slice) =>
      parseSlice(slice.text).flatMap((d) => d.findings),
    );
    assert.deepEqual(findings, []);
  });

  test('extra words on a %YAML directive are still reported once split', () => {
    const text = '%YAML 1.2 foo\n---\n';
    const codes = splitDocuments(text).flatMap((slice) =>
      parseSlice(slice.text).flatMap((d) => d.findings.map((finding) => finding.code)),
    );
    assert.ok(codes.includes('yaml-syntax'), codes.join(','));
  });
});
