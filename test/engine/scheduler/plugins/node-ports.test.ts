import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createNodePorts,
  REASON_NODE_PORTS_CONFLICT,
} from '../../../../server/src/engine/scheduler/plugins/node-ports';
import { buildPlugin, container, makeNode, makePod, messages, runFilter, withPods } from '../builders';

// Situations of upstream TestNodePorts (nodeports/node_ports_test.go): host ports conflict by protocol, port and
// host IP, with 0.0.0.0 meaning every address.

type Port = { containerPort?: number; hostPort?: number; hostIP?: string; protocol?: string };

function podWithPorts(name: string, ports: readonly Port[], extra: Record<string, unknown> = {}) {
  return makePod(name, { containers: [container({}, {}, { ports })], ...extra });
}

const CONFLICT = "node(s) didn't have free ports for the requested pod ports";

const CASES: readonly {
  name: string;
  existing: readonly Port[];
  wanted: readonly Port[];
  reasons: readonly string[];
}[] = [
  {
    name: 'a pod without host ports is skipped',
    existing: [{ hostPort: 8080 }],
    wanted: [{ containerPort: 8080 }],
    reasons: [],
  },
  {
    name: 'a free host port fits',
    existing: [{ hostPort: 8080 }],
    wanted: [{ hostPort: 8081 }],
    reasons: [],
  },
  {
    name: 'the same TCP port on the same address conflicts',
    existing: [{ hostPort: 8080 }],
    wanted: [{ hostPort: 8080 }],
    reasons: [CONFLICT],
  },
  {
    name: 'the same port with another protocol does not conflict',
    existing: [{ hostPort: 53, protocol: 'UDP' }],
    wanted: [{ hostPort: 53, protocol: 'TCP' }],
    reasons: [],
  },
  {
    name: 'the same port on two different host IPs does not conflict',
    existing: [{ hostPort: 8080, hostIP: '127.0.0.1' }],
    wanted: [{ hostPort: 8080, hostIP: '127.0.0.2' }],
    reasons: [],
  },
  {
    name: 'a port bound on 0.0.0.0 conflicts with the same port on any address',
    existing: [{ hostPort: 8080, hostIP: '0.0.0.0' }],
    wanted: [{ hostPort: 8080, hostIP: '127.0.0.1' }],
    reasons: [CONFLICT],
  },
  {
    name: 'wanting 0.0.0.0 conflicts with the port taken on a single address',
    existing: [{ hostPort: 8080, hostIP: '127.0.0.1' }],
    wanted: [{ hostPort: 8080 }],
    reasons: [CONFLICT],
  },
];

describe('NodePorts filter', () => {
  for (const testCase of CASES) {
    test(testCase.name, () => {
      const node = withPods(makeNode('n1'), [podWithPorts('running', testCase.existing)]);
      const { plugin } = buildPlugin(createNodePorts, [node]);
      const status = runFilter(plugin, podWithPorts('p', testCase.wanted), node);
      assert.deepEqual(messages(status), testCase.reasons);
      if (testCase.reasons.length > 0) {
        assert.equal(status.code, 'Unschedulable');
      }
    });
  }

  test('with hostNetwork every container port is a host port', () => {
    const node = withPods(makeNode('n1'), [podWithPorts('running', [{ hostPort: 9100 }])]);
    const { plugin } = buildPlugin(createNodePorts, [node]);
    const status = runFilter(
      plugin,
      podWithPorts('p', [{ containerPort: 9100 }], { hostNetwork: true }),
      node,
    );
    assert.deepEqual(messages(status), [CONFLICT]);
  });

  test('sidecar (restartable init container) ports count, other init containers do not', () => {
    const node = withPods(makeNode('n1'), [
      podWithPorts('running', [{ hostPort: 7000 }, { hostPort: 7001 }]),
    ]);
    const { plugin } = buildPlugin(createNodePorts, [node]);
    const sidecar = makePod('sidecar', {
      initContainers: [container({}, {}, { restartPolicy: 'Always', ports: [{ hostPort: 7000 }] })],
    });
    const init = makePod('init', { initContainers: [container({}, {}, { ports: [{ hostPort: 7001 }] })] });
    assert.deepEqual(messages(runFilter(plugin, sidecar, node)), [CONFLICT]);
    assert.deepEqual(messages(runFilter(plugin, init, node)), []);
    assert.equal(REASON_NODE_PORTS_CONFLICT.code, 'NodePorts/PortsInUse');
  });
});
