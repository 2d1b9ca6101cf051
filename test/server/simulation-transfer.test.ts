/**
 * What crosses to the prediction worker keystroke after keystroke: the objects it does not hold yet, the numbers
 * of the others, the cluster file's objects only when its text changed; and the worker's side rebuilds the same
 * input, holding the same objects from run to run.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SourcedObject } from '../../server/src/engine/model/load/cluster-load';
import type { ScopeSimulationInput } from '../../server/src/language/service/scope-simulation';
import { SimulationDecoder, SimulationEncoder } from '../../server/src/host/simulation-transfer';
import type { SimulationRequestMessage } from '../../server/src/host/simulation-transfer';

/** A manifest of a file's document. */
function manifest(index: number, object: unknown): SourcedObject {
  return { object, source: { file: 'file:///m.yaml', documentIndex: index, path: [] } };
}

/** An input of manifests on the embedded cluster, or on a cluster file's objects. */
function inputOf(
  manifests: readonly SourcedObject[],
  cluster: readonly SourcedObject[] | null = null,
): ScopeSimulationInput {
  return {
    manifests,
    cluster,
    clusterFile:
      cluster === null
        ? undefined
        : {
            uri: 'file:///c/.foresight/cluster.yaml',
            name: 'cluster.yaml',
            path: '/c/.foresight/cluster.yaml',
          },
    version: '1.35',
    forcedNotice: undefined,
    hasClusterSyntaxErrors: false,
  };
}

/** How many objects a message carries. */
function sentObjects(message: SimulationRequestMessage): number {
  return message.manifests.filter((entry) => entry.object !== undefined).length;
}

/** How many sources a message carries (a held object at the source the worker holds it at goes without). */
function sentSources(message: SimulationRequestMessage): number {
  return message.manifests.filter((entry) => entry.source !== undefined).length;
}

const A = { kind: 'ConfigMap', metadata: { name: 'a' } };
const B = { kind: 'ConfigMap', metadata: { name: 'b' } };
const C = { kind: 'ConfigMap', metadata: { name: 'c' } };
const NODE = [manifest(0, { kind: 'Node', metadata: { name: 'n' } })];

describe('The prediction worker’s input, sent incrementally', () => {
  const cases: readonly {
    name: string;
    steps: readonly {
      input: ScopeSimulationInput;
      clusterText?: string;
      sent: number;
      sources: number;
      cluster: string;
    }[];
  }[] = [
    {
      name: 'the first request sends every object; an edit of one sends that one',
      steps: [
        { input: inputOf([manifest(0, A), manifest(1, B)]), sent: 2, sources: 2, cluster: 'none' },
        { input: inputOf([manifest(0, A), manifest(1, C)]), sent: 1, sources: 1, cluster: 'none' },
        { input: inputOf([manifest(0, A), manifest(1, C)]), sent: 0, sources: 0, cluster: 'none' },
      ],
    },
    {
      name: 'an object dropped by one request is sent again when it comes back',
      steps: [
        { input: inputOf([manifest(0, A), manifest(1, B)]), sent: 2, sources: 2, cluster: 'none' },
        { input: inputOf([manifest(0, A)]), sent: 0, sources: 0, cluster: 'none' },
        { input: inputOf([manifest(0, A), manifest(1, B)]), sent: 1, sources: 1, cluster: 'none' },
      ],
    },
    {
      name: 'a moved document keeps its object (its new source is sent); a value that is not an object is inline',
      steps: [
        { input: inputOf([manifest(0, A), manifest(1, null)]), sent: 2, sources: 2, cluster: 'none' },
        { input: inputOf([manifest(0, null), manifest(1, A)]), sent: 1, sources: 2, cluster: 'none' },
        { input: inputOf([manifest(0, null), manifest(1, A)]), sent: 1, sources: 1, cluster: 'none' },
      ],
    },
    {
      name: 'the cluster file’s objects are sent again only when its text changed',
      steps: [
        { input: inputOf([manifest(0, A)], NODE), clusterText: 'v1', sent: 1, sources: 1, cluster: 'sent' },
        { input: inputOf([manifest(0, A)], NODE), clusterText: 'v1', sent: 0, sources: 0, cluster: 'held' },
        { input: inputOf([manifest(0, A)], NODE), clusterText: 'v2', sent: 0, sources: 0, cluster: 'sent' },
        { input: inputOf([manifest(0, A)]), sent: 0, sources: 0, cluster: 'none' },
        { input: inputOf([manifest(0, A)], NODE), clusterText: 'v2', sent: 0, sources: 0, cluster: 'sent' },
      ],
    },
  ];
  for (const { name, steps } of cases) {
    test(name, () => {
      const encoder = new SimulationEncoder();
      const decoder = new SimulationDecoder();
      /** Each object given, and the object the worker rebuilt for it. */
      const rebuiltOf = new Map<unknown, unknown>();
      steps.forEach(({ input, clusterText, sent, sources, cluster }, step) => {
        // Structured clone, as postMessage does.
        const message = structuredClone(encoder.encode(input, clusterText ?? ''));
        assert.equal(sentObjects(message), sent, `step ${step}: objects sent`);
        assert.equal(sentSources(message), sources, `step ${step}: sources sent`);
        const clusterSent = message.cluster === 'held' ? 'held' : message.cluster === null ? 'none' : 'sent';
        assert.equal(clusterSent, cluster, `step ${step}: cluster`);
        const rebuilt = decoder.decode(message);
        assert.deepEqual(rebuilt, input, `step ${step}: the input rebuilt`);
        // An object the worker held (not sent) is the very object it rebuilt before.
        input.manifests.forEach((entry, index) => {
          const object = rebuilt.manifests[index]?.object;
          if (message.manifests[index]?.ref !== 0 && message.manifests[index]?.object === undefined) {
            assert.equal(object, rebuiltOf.get(entry.object), `step ${step}: object ${index} held`);
          }
          rebuiltOf.set(entry.object, object);
        });
      });
    });
  }

  const fresh = (value: unknown): unknown => structuredClone(value);
  const copies: readonly {
    name: string;
    first: readonly SourcedObject[];
    second: readonly SourcedObject[];
    sent: number;
  }[] = [
    {
      name: 'a document analysed afresh (new objects, the same data at the same sources) sends nothing again',
      first: [manifest(0, A), manifest(1, B)],
      second: [manifest(0, fresh(A)), manifest(1, fresh(B))],
      sent: 0,
    },
    {
      name: 'the same data at another source is sent (an object is compared with its own source’s only)',
      first: [manifest(0, A), manifest(1, B)],
      second: [manifest(0, fresh(B)), manifest(1, fresh(A))],
      sent: 2,
    },
    {
      name: 'keys in another order are other data',
      first: [manifest(0, { metadata: { name: 'a' }, kind: 'ConfigMap' })],
      second: [manifest(0, fresh(A))],
      sent: 1,
    },
    {
      name: '-0 is not 0, and a Date is never taken as the same (structured clone keeps them apart)',
      first: [manifest(0, { spec: { replicas: 0 } }), manifest(1, { at: new Date(0) })],
      second: [manifest(0, { spec: { replicas: -0 } }), manifest(1, { at: new Date(0) })],
      sent: 2,
    },
    {
      name: 'NaN is NaN, and a missing key is not a key whose value is undefined',
      first: [manifest(0, { spec: { replicas: Number.NaN } }), manifest(1, { a: 1 })],
      second: [manifest(0, { spec: { replicas: Number.NaN } }), manifest(1, { a: 1, b: undefined })],
      sent: 1,
    },
    {
      name: 'a changed value deep inside is other data',
      first: [manifest(0, { spec: { containers: [{ name: 'a', ports: [{ containerPort: 8080 }] }] } })],
      second: [manifest(0, { spec: { containers: [{ name: 'a', ports: [{ containerPort: '808x' }] }] } })],
      sent: 1,
    },
  ];
  for (const { name, first, second, sent } of copies) {
    test(name, () => {
      const encoder = new SimulationEncoder();
      const decoder = new SimulationDecoder();
      const before = decoder.decode(structuredClone(encoder.encode(inputOf(first), '')));
      const message = structuredClone(encoder.encode(inputOf(second), ''));
      assert.equal(sentObjects(message), sent);
      const rebuilt = decoder.decode(message);
      assert.deepEqual(rebuilt, inputOf(second));
      // An object not sent is the very object the worker held for its source.
      message.manifests.forEach((entry, index) => {
        if (entry.object === undefined) {
          assert.equal(rebuilt.manifests[index]?.object, before.manifests[index]?.object);
        }
      });
    });
  }

  test('an object the worker does not hold (after a reset of only one side) is a protocol error', () => {
    const encoder = new SimulationEncoder();
    encoder.encode(inputOf([manifest(0, A)]), '');
    const message = encoder.encode(inputOf([manifest(0, A)]), '');
    assert.throws(() => new SimulationDecoder().decode(message), /object 1 is not held/);
  });

  test('objects recognised ahead of a request (after an open) give the message encode alone gives, and change nothing held', () => {
    const first = [manifest(0, A), manifest(1, B)];
    const copies = [manifest(0, fresh(A)), manifest(1, fresh(C))];
    const plain = new SimulationEncoder();
    const recognising = new SimulationEncoder();
    const decoder = new SimulationDecoder();
    plain.encode(inputOf(first), '');
    decoder.decode(structuredClone(recognising.encode(inputOf(first), '')));
    // Recognising other objects first (a scope planned but not run) leaves what the worker holds as it was.
    recognising.recognize([manifest(0, fresh(C)), manifest(2, fresh(A))]);
    recognising.recognize(copies);
    const expected = plain.encode(inputOf(copies), '');
    const message = recognising.encode(inputOf(copies), '');
    // The same objects sent, and a held one by the same number (a new object's number may differ).
    const shape = (entry: SimulationRequestMessage['manifests'][number]): unknown =>
      entry.object === undefined ? { held: entry.ref } : 'sent';
    assert.deepEqual(message.manifests.map(shape), expected.manifests.map(shape));
    assert.equal(sentObjects(message), 1, 'the copy of A is held; C is new at its source');
    assert.deepEqual(decoder.decode(structuredClone(message)), inputOf(copies));
  });
});
