/**
 * The involved object of a kubelet container event (recordContainerEvent's fieldPath "spec.containers{app}"): one
 * object per pod and container, shared by that container's events, each with the pod's namespace and name.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ContainerRefs, containerEvent } from '../../../server/src/engine/kubelet/kubelet-events';

describe('ContainerRefs', () => {
  const web = { namespace: 'default', name: 'web-1' };
  const api = { namespace: 'prod', name: 'web-1' };

  test('a container names its pod and its field path, keys in the timeline order', () => {
    const refs = new ContainerRefs();
    assert.equal(
      JSON.stringify(refs.of(web, { list: 'initContainers', name: 'init' })),
      '{"kind":"Pod","namespace":"default","name":"web-1","fieldPath":"spec.initContainers{init}"}',
    );
  });

  test("the events of one pod's container share one object; another container, list or pod gets its own", () => {
    const refs = new ContainerRefs();
    const pulled = containerEvent('Pulled', refs, web, 'n1', { list: 'containers', name: 'app' });
    const started = containerEvent('Started', refs, web, 'n1', { list: 'containers', name: 'app' });
    assert.equal(started.involvedObject, pulled.involvedObject);
    const sidecar = refs.of(web, { list: 'containers', name: 'sidecar' });
    const init = refs.of(web, { list: 'initContainers', name: 'app' });
    const other = refs.of(api, { list: 'containers', name: 'app' });
    assert.deepEqual(
      [sidecar.fieldPath, init.fieldPath, other.namespace, other.fieldPath],
      ['spec.containers{sidecar}', 'spec.initContainers{app}', 'prod', 'spec.containers{app}'],
    );
    assert.equal(new Set([pulled.involvedObject, sidecar, init, other]).size, 4);
  });
});
