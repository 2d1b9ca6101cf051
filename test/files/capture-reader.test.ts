import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readCaptureText } from '../../server/src/language/manifests/capture-reader';
import { captureText } from '../../bench/captured-cluster';

describe('readCaptureText (a cluster capture read as data)', () => {
  test('JSON (kubectl -o json): the List as one document', () => {
    const read = readCaptureText(
      'c.json',
      '{"apiVersion":"v1","kind":"List","items":[{"kind":"Node","metadata":{"name":"a"}}]}',
    );
    assert.ok(read.ok);
    assert.deepEqual(
      read.objects.map((entry) => [entry.source.documentIndex, (entry.object as { kind: string }).kind]),
      [[0, 'List']],
    );
  });

  test('YAML of several documents keeps their indices; empty documents are skipped', () => {
    const read = readCaptureText(
      'c.yaml',
      'kind: Node\nmetadata: {name: a}\n---\n---\nkind: Pod\nmetadata: {name: p}\n',
    );
    assert.ok(read.ok);
    assert.deepEqual(
      read.objects.map((entry) => [entry.source.documentIndex, (entry.object as { kind: string }).kind]),
      [
        [0, 'Node'],
        [2, 'Pod'],
      ],
    );
  });

  test('an unquoted time stays the string the API server reads, not a Date', () => {
    const read = readCaptureText(
      'c.yaml',
      'kind: Pod\nmetadata: {name: p, creationTimestamp: 2026-11-01T00:00:00Z}\nstatus: {startTime: 2026-11-01T00:00:05Z}\n',
    );
    assert.ok(read.ok);
    const pod = read.objects[0]?.object as {
      metadata: { creationTimestamp: unknown };
      status: { startTime: unknown };
    };
    assert.equal(pod.status.startTime, '2026-11-01T00:00:05Z');
    assert.equal(pod.metadata.creationTimestamp, '2026-11-01T00:00:00Z');
  });

  test('YAML 1.2 core scalars and merge keys, as sigs.k8s.io/yaml reads them', () => {
    const read = readCaptureText(
      'c.yaml',
      'base: &b {cpu: "1"}\nnode: {<<: *b, ready: true, pods: 110, name: yes, ratio: 0.5, none: null}\n',
    );
    assert.ok(read.ok);
    assert.deepEqual((read.objects[0]?.object as { node: unknown }).node, {
      cpu: '1',
      ready: true,
      pods: 110,
      name: 'yes',
      ratio: 0.5,
      none: null,
    });
  });

  test('a capture too large for the editing analysis (one List of 1,000 nodes and 5,000 pods) is read whole', () => {
    const read = readCaptureText('c.yaml', captureText(1_000, 5_000));
    assert.ok(read.ok);
    const items = (read.objects[0]?.object as { items: { kind: string }[] }).items;
    assert.equal(items.filter((item) => item.kind === 'Pod').length, 5_000);
    assert.equal(items.filter((item) => item.kind === 'Node').length, 1_000);
  });

  test('broken YAML or JSON is a clear message, not a crash', () => {
    const yaml = readCaptureText('c.yaml', 'kind: Node\n  metadata: [unclosed\n');
    assert.equal(yaml.ok, false);
    assert.match(yaml.ok ? '' : yaml.message, /^not valid YAML: /);
    const json = readCaptureText('c.json', '{"kind": "List", "items": [}');
    assert.equal(json.ok, false);
    assert.match(json.ok ? '' : json.message, /^not valid JSON: /);
  });

  test('an alias bomb is refused before it is expanded', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level <= 12; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      lines.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(', ')}]`);
    }
    const read = readCaptureText('bomb.yaml', `${lines.join('\n')}\n`);
    assert.equal(read.ok, false);
    assert.match(read.ok ? '' : read.message, /^120 YAML aliases, more than the 100 allowed$/);
  });
});
