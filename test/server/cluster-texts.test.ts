/**
 * The cluster files' texts as predictions read them (host/cluster-texts.ts): read again only when the file's stat
 * changed, with a key that changes exactly when the text does, and the same string while it does not.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ClusterTexts } from '../../server/src/host/cluster-texts';

describe('ClusterTexts', () => {
  const folder = mkdtempSync(join(tmpdir(), 'kube-foresight-cluster-texts-'));
  after(() => rmSync(folder, { recursive: true, force: true }));
  const NODE = 'apiVersion: v1\nkind: Node\nmetadata: {name: a, ownerReferences: [{kind: X}]}\n';

  test('an unchanged file keeps its key and its very string; a changed one gets a new key', () => {
    const path = join(folder, 'cluster.yaml');
    writeFileSync(path, NODE);
    const texts = new ClusterTexts();
    const first = texts.read(path, undefined);
    assert.equal(first.text, NODE);
    assert.equal(first.objectBound, 2, 'kind: keys, an owner reference counted too');
    assert.equal(texts.read(path, undefined), first, 'the stat is unchanged: nothing read');
    // Written again with the same text (a save without changes): read, but the same key and string.
    writeFileSync(path, NODE);
    utimesSync(path, new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
    const touched = texts.read(path, undefined);
    assert.equal(touched.key, first.key);
    assert.equal(touched.text, first.text);
    const changed = `${NODE}---\n${NODE}`;
    writeFileSync(path, changed);
    const second = texts.read(path, undefined);
    assert.equal(second.text, changed);
    assert.notEqual(second.key, first.key);
    assert.equal(second.objectBound, 4);
  });

  test("the open editor's text wins over the disk, and its key follows its contents", () => {
    const path = join(folder, 'open.yaml');
    writeFileSync(path, NODE);
    const texts = new ClusterTexts();
    const saved = texts.read(path, undefined);
    assert.equal(texts.read(path, NODE).key, saved.key, 'the same text as saved');
    const edited = texts.read(path, `${NODE}# edited\n`);
    assert.notEqual(edited.key, saved.key);
    assert.equal(edited.text, `${NODE}# edited\n`);
    // Closed without saving: the disk's text again, under a key other than the edit's.
    const closed = texts.read(path, undefined);
    assert.equal(closed.text, NODE);
    assert.notEqual(closed.key, edited.key);
  });

  test('a missing file reads as empty, and a file that appears later is read', () => {
    const path = join(folder, 'later.yaml');
    const texts = new ClusterTexts();
    const missing = texts.read(path, undefined);
    assert.equal(missing.text, '');
    assert.equal(missing.objectBound, 0);
    writeFileSync(path, NODE);
    const appeared = texts.read(path, undefined);
    assert.equal(appeared.text, NODE);
    assert.notEqual(appeared.key, missing.key);
  });
});
