/**
 * The Pod Security fix says whether the pods it gets admitted would then schedule (issue #28 item 4: "a fix whose
 * result would still not schedule says so in its title"). Each case opens a refused workload over LSP on a
 * cluster file of two 4-cpu workers, reads the fix's title, applies its edits and simulates the fixed file on the
 * same cluster: the pods are admitted, and as many stay Pending as the title says.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseAllDocuments } from 'yaml';
import type { SourcedObject } from '../../server/src/engine/model/load/cluster-load';
import { simulate } from '../../server/src/engine/simulate/simulate';
import { LspSession } from '../support/lsp-session';

const worker = (name: string, extra: string[] = []): string =>
  [
    'apiVersion: v1',
    'kind: Node',
    'metadata:',
    `  name: ${name}`,
    `  labels: {kubernetes.io/hostname: ${name}, kubernetes.io/os: linux, pool: general}`,
    ...extra,
    'status:',
    '  allocatable: {cpu: "4", memory: 16Gi, pods: "110"}',
  ].join('\n');

/** Two 4-cpu workers, the second cordoned in one case. */
const cluster = (cordonSecond = false): string =>
  `${[worker('worker-1'), worker('worker-2', cordonSecond ? ['spec: {unschedulable: true}'] : [])].join('\n---\n')}\n`;

const NAMESPACE = [
  'apiVersion: v1',
  'kind: Namespace',
  'metadata:',
  '  name: tools',
  '  labels:',
  '    pod-security.kubernetes.io/enforce: baseline',
].join('\n');

/** A privileged container (baseline refuses it) with these requests and pod spec lines. */
const container = (cpu: string, specLines: string[], indent: string): string[] => [
  ...specLines.map((line) => `${indent}${line}`),
  `${indent}containers:`,
  `${indent}  - name: tool`,
  `${indent}    image: busybox:1.36`,
  `${indent}    resources: {requests: {cpu: "${cpu}", memory: 1Gi}}`,
  `${indent}    securityContext:`,
  `${indent}      privileged: true`,
];

const pod = (cpu: string, specLines: string[] = []): string =>
  [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: tool',
    '  namespace: tools',
    'spec:',
    ...container(cpu, specLines, '  '),
  ].join('\n');

const deployment = (replicas: number, cpu: string): string =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: tool',
    '  namespace: tools',
    'spec:',
    `  replicas: ${replicas}`,
    '  selector: {matchLabels: {app: tool}}',
    '  template:',
    '    metadata: {labels: {app: tool}}',
    '    spec:',
    ...container(cpu, [], '      '),
  ].join('\n');

const FIX = 'Set what Pod Security "baseline" requires: privileged: false';

/** Follows scheduler/framework/plugins (NodeUnschedulable, NodeAffinity, NodeResourcesFit Filter). */
const CASES: readonly {
  readonly name: string;
  readonly manifest: string;
  readonly cordonSecond?: boolean;
  readonly title: string;
  /** Pods Pending once the fixed file is simulated. */
  readonly pending: number;
}[] = [
  {
    name: 'a Pod that fits a worker: the title says nothing of scheduling',
    manifest: pod('2'),
    title: FIX,
    pending: 0,
  },
  {
    name: 'a Pod asking more cpu than any worker has: admitted, but Pending (NodeResourcesFit)',
    manifest: pod('6'),
    title: `${FIX} (admitted, but Pending: no node has room for it)`,
    pending: 1,
  },
  {
    name: 'a Pod whose nodeSelector no worker matches: admitted, but Pending (NodeAffinity)',
    manifest: pod('1', ['nodeSelector: {pool: gpu}']),
    title: `${FIX} (admitted, but Pending: every node is cordoned, tainted against it or outside its node selector)`,
    pending: 1,
  },
  {
    name: 'three 3-cpu replicas on two workers: room for 2 of 3',
    manifest: deployment(3, '3'),
    title: `${FIX} (admitted, but Pending: the nodes have room for 2 of 3 pods)`,
    pending: 1,
  },
  {
    name: 'two 3-cpu replicas with the second worker cordoned: room for 1 of 2 (NodeUnschedulable)',
    manifest: deployment(2, '3'),
    cordonSecond: true,
    title: `${FIX} (admitted, but Pending: the nodes have room for 1 of 2 pods)`,
    pending: 1,
  },
];

describe('the Pod Security fix says whether the admitted pods schedule', () => {
  let session: LspSession;
  before(async () => {
    session = await LspSession.start();
  });
  after(async () => {
    await session.stop();
  });

  for (const row of CASES) {
    test(row.name, async () => {
      const folder = mkdtempSync(join(tmpdir(), 'foresight-psa-schedule-'));
      const clusterText = cluster(row.cordonSecond);
      mkdirSync(join(folder, '.foresight'));
      writeFileSync(join(folder, '.foresight', 'cluster.yaml'), clusterText);
      const text = `${NAMESPACE}\n---\n${row.manifest}\n`;
      const { uri, diagnostics } = await session.openFile(folder, 'tool.yaml', text);
      const refused = diagnostics.find((d) => d.code === 'admission-refused');
      assert.ok(refused, JSON.stringify(diagnostics.map((d) => [d.code, d.message])));
      const fixes = await session.fixesFor(uri, refused);
      assert.deepEqual(
        fixes.map((fix) => fix.title),
        [row.title],
      );
      const fixed = TextDocument.applyEdits(
        TextDocument.create(uri, 'yaml', 1, text),
        fixes[0]?.edit?.changes?.[uri] ?? [],
      );
      const sourced = (file: string, documents: string): SourcedObject[] =>
        parseAllDocuments(documents).map((document, documentIndex) => ({
          object: document.toJS() as unknown,
          source: { file, documentIndex, path: [] },
        }));
      const { report } = simulate({
        manifests: sourced('tool.yaml', fixed),
        cluster: sourced('cluster.yaml', clusterText),
      });
      assert.deepEqual(report.rejected, []);
      assert.equal(report.pods.filter((p) => p.nodeName === null).length, row.pending);
    });
  }
});
