/**
 * The workload the Replay lens passes to the timeline command is untrusted (any extension can run the command):
 * only a kind, a namespace and a name, each a non-empty string of at most 253 characters, are taken.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isPodOfWorkload, readPanelWorkload } from '../../protocol/webview-messages';

describe('the Replay lens’s workload argument', () => {
  test('a kind, namespace and name are taken as they are; anything else is dropped', () => {
    assert.deepEqual(readPanelWorkload({ kind: 'Deployment', namespace: 'default', name: 'web', extra: 1 }), {
      kind: 'Deployment',
      namespace: 'default',
      name: 'web',
    });
    for (const value of [
      undefined,
      null,
      'Deployment/web',
      { kind: 'Deployment', namespace: 'default' },
      { kind: 'Deployment', namespace: '', name: 'web' },
      { kind: 'Deployment', namespace: 'default', name: 'x'.repeat(254) },
      { kind: 1, namespace: 'default', name: 'web' },
    ]) {
      assert.equal(readPanelWorkload(value), undefined, JSON.stringify(value));
    }
  });

  test('a pod belongs to the workload that owns it, or is the bare Pod of that name', () => {
    const web = { kind: 'Deployment', namespace: 'default', name: 'web' };
    const owned = {
      namespace: 'default',
      name: 'web-5d8f-abcde',
      owner: { kind: 'Deployment', name: 'web' },
    };
    assert.equal(isPodOfWorkload(owned, web), true);
    assert.equal(isPodOfWorkload({ ...owned, namespace: 'prod' }, web), false);
    assert.equal(isPodOfWorkload({ ...owned, owner: { kind: 'StatefulSet', name: 'web' } }, web), false);
    const bare = { namespace: 'default', name: 'debug', owner: null };
    assert.equal(isPodOfWorkload(bare, { kind: 'Pod', namespace: 'default', name: 'debug' }), true);
    assert.equal(isPodOfWorkload(bare, { kind: 'Deployment', namespace: 'default', name: 'debug' }), false);
  });
});
