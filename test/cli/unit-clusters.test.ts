import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Ajv from 'ajv';
import type { JsonReport } from '../../server/src/cli/formats/report-json';
import { ROOT, runForesight } from './cli-harness';

// Issue #27 item 1: without --cluster or --profile, each apply unit is simulated on its nearest
// .foresight/cluster.yaml (the editor's "nearest" rule, searched up to the repository's root), units sharing a
// cluster file together, units on different ones apart, units with none on the embedded default cluster.

/** A cluster file of one node with this name and cpu. */
function clusterFile(node: string, cpu: number): string {
  return `apiVersion: v1
kind: Node
metadata:
  name: ${node}
  labels: {kubernetes.io/hostname: ${node}, kubernetes.io/os: linux}
status:
  allocatable: {cpu: "${cpu}", memory: 16Gi, pods: "110"}
`;
}

/** A bare pod requesting this cpu. */
function pod(name: string, cpu: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
    - name: main
      image: nginx:1.27
      resources:
        requests: {cpu: ${cpu}, memory: 64Mi}
`;
}

/**
 * A repository (`repo/`, with `.git`) of two teams with a cluster file each (team-a's 4-cpu node holds two units,
 * team-b's 2-cpu node one), a folder with none, and above the repository a cluster file no unit may borrow.
 */
function twoTeams(): string {
  const top = mkdtempSync(join(tmpdir(), 'foresight-unit-clusters-'));
  const files: Record<string, string> = {
    '.foresight/cluster.yaml': clusterFile('outside-node', 64),
    'repo/team-a/.foresight/cluster.yaml': clusterFile('a-node', 4),
    'repo/team-a/web/pod.yaml': pod('web-a', '100m'),
    'repo/team-a/jobs/pod.yaml': pod('batch-a', '3'),
    'repo/team-b/.foresight/cluster.yaml': clusterFile('b-node', 2),
    'repo/team-b/app/pod.yaml': pod('big-b', '3'),
    'repo/loose/pod.yaml': pod('loose', '100m'),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(top, path)), { recursive: true });
    writeFileSync(join(top, path), text);
  }
  mkdirSync(join(top, 'repo', '.git'));
  return join(top, 'repo');
}

/** The text output's sections, by the cluster its header names. */
function sections(stdout: string): Map<string, string> {
  const body = stdout.split(/^\d+ simulations, /m)[0] ?? '';
  return new Map(
    body
      .split(/^(?==== )/m)
      .filter((section) => section.startsWith('=== '))
      .map((section) => [/^=== (.+?): /.exec(section)?.[1] ?? '', section]),
  );
}

interface Simulations {
  readonly simulations: {
    readonly cluster: string;
    readonly clusterFile: string | null;
    readonly units: { name: string; command: string }[];
    readonly report: JsonReport;
  }[];
  readonly findings: JsonReport['findings'];
}

describe('foresight simulate: each unit on its nearest cluster file', () => {
  test('units on two cluster files and one on none are three simulations, with no object on another’s cluster', async () => {
    const repo = twoTeams();
    const { code, stdout } = await runForesight(['simulate', '-R', '.'], { cwd: repo });
    // big-b fits a-node's 4 cpu, but is on team-b's 2-cpu node: Pending, so exit 1.
    assert.equal(code, 1, stdout);
    const byCluster = sections(stdout);
    assert.deepEqual([...byCluster.keys()].sort(), [
      'embedded default cluster',
      'team-a/.foresight/cluster.yaml',
      'team-b/.foresight/cluster.yaml',
    ]);
    const teamA = byCluster.get('team-a/.foresight/cluster.yaml') ?? '';
    assert.match(
      teamA,
      /^=== team-a\/\.foresight\/cluster\.yaml: 2 apply units \((team-a\/jobs, team-a\/web|team-a\/web, team-a\/jobs)\)\n/,
    );
    assert.match(teamA, /^default\/web-a +- +Burstable +0 +a-node$/m);
    assert.match(teamA, /^default\/batch-a +- +Burstable +0 +a-node$/m);
    assert.doesNotMatch(teamA, /big-b|loose/);
    const teamB = byCluster.get('team-b/.foresight/cluster.yaml') ?? '';
    assert.match(
      teamB,
      /^default\/big-b +- +Burstable +0 +Pending\n {4}0\/1 nodes are available: 1 Insufficient cpu\./m,
    );
    assert.doesNotMatch(teamB, /web-a|batch-a|loose/);
    const loose = byCluster.get('embedded default cluster') ?? '';
    assert.match(loose, /^Kubernetes 1\.35 · embedded default cluster · \d+ nodes$/m);
    assert.match(loose, /^default\/loose +- +Burstable +0 +worker-\d$/m);
    // The search stops at the repository's root: the cluster file above it is nobody's.
    assert.doesNotMatch(stdout, /outside-node/);
    assert.match(
      stdout,
      /\n3 simulations, one per cluster: 4 file\(s\) read, 4 apply units, 4 object\(s\); 4 pods: 3 placed, 1 Pending\.\nexit 1: 1 predicted failure \[1 pod-unschedulable\] \(--fail-on prediction\)\n$/,
    );
  });

  test('two units of one cluster file are one simulation whose findings are grouped by unit', async () => {
    const repo = twoTeams();
    writeFileSync(join(repo, 'team-a', 'jobs', 'pod.yaml'), pod('batch-a', '5'));
    const { stdout } = await runForesight(['simulate', '-R', 'team-a'], { cwd: repo });
    // One simulation: the report alone, with the unit's header over its finding and the counts in the summary.
    assert.match(stdout, /^Kubernetes 1\.35 · team-a\/\.foresight\/cluster\.yaml · 1 node\n/);
    assert.doesNotMatch(stdout, /^=== /m);
    assert.match(
      stdout,
      /\n== team-a\/jobs \(kubectl apply -f\)\nwarning: team-a\/jobs\/pod\.yaml:\d+:? .*\[pod-unschedulable\]\n/,
    );
    assert.doesNotMatch(stdout, /== team-a\/web/);
    assert.match(stdout, /^2 file\(s\) read, 2 apply units, 2 object\(s\); 2 pods: 1 placed, 1 Pending\.$/m);
  });

  test('the JSON of several simulations follows schemas/simulations.schema.json, each report report.schema.json', async () => {
    const repo = twoTeams();
    const { stdout } = await runForesight(['simulate', '-R', '--output', 'json', '.'], { cwd: repo });
    const json = JSON.parse(stdout) as Simulations;
    const ajv = new Ajv({ strict: false });
    ajv.addSchema(JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8')) as object);
    const validate = ajv.compile(
      JSON.parse(readFileSync(join(ROOT, 'schemas', 'simulations.schema.json'), 'utf8')) as object,
    );
    assert.ok(validate(json), JSON.stringify(validate.errors));
    const pods = new Map(
      json.simulations.map((entry) => [entry.clusterFile, entry.report.pods.map((item) => item.name).sort()]),
    );
    assert.deepEqual(pods.get('team-a/.foresight/cluster.yaml'), ['batch-a', 'web-a']);
    assert.deepEqual(pods.get('team-b/.foresight/cluster.yaml'), ['big-b']);
    assert.deepEqual(pods.get(null), ['loose']);
    assert.deepEqual(
      json.findings,
      json.simulations.flatMap((entry) => entry.report.findings),
    );
    assert.ok(
      json.findings.some(
        (finding) => finding.code === 'pod-unschedulable' && finding.file === 'team-b/app/pod.yaml',
      ),
    );
  });

  test('--cluster puts every unit on the one cluster it names, in the single report shape', async () => {
    const repo = twoTeams();
    const { stdout } = await runForesight(
      ['simulate', '-R', '--output', 'json', '--cluster', 'team-b/.foresight/cluster.yaml', '.'],
      { cwd: repo },
    );
    const report = JSON.parse(stdout) as JsonReport;
    assert.equal(report.cluster.source, 'team-b/.foresight/cluster.yaml');
    assert.deepEqual(report.pods.map((item) => item.name).sort(), ['batch-a', 'big-b', 'loose', 'web-a']);
    assert.ok(report.pods.every((item) => item.nodeName === 'b-node' || item.nodeName === null));
  });

  test('a cluster of many units names the first five in its header, and how many more', async () => {
    const repo = twoTeams();
    for (const index of [1, 2, 3, 4, 5]) {
      mkdirSync(join(repo, 'team-b', `svc-${index}`));
      writeFileSync(join(repo, 'team-b', `svc-${index}`, 'pod.yaml'), pod(`svc-${index}`, '10m'));
    }
    const { stdout } = await runForesight(['simulate', '-R', 'team-a', 'team-b'], { cwd: repo });
    assert.match(
      stdout,
      /^=== team-b\/\.foresight\/cluster\.yaml: 6 apply units \(team-b\/\S+, team-b\/\S+, team-b\/\S+, team-b\/\S+, team-b\/\S+ and 1 more\)$/m,
    );
    assert.match(
      stdout,
      /^=== team-a\/\.foresight\/cluster\.yaml: 2 apply units \(team-a\/\S+, team-a\/\S+\)$/m,
    );
  });

  test('SARIF and JUnit are one list of the findings of every simulation', async () => {
    const repo = twoTeams();
    writeFileSync(join(repo, 'team-a', 'jobs', 'pod.yaml'), pod('batch-a', '5'));
    const sarif = await runForesight(['simulate', '-R', '--output', 'sarif', '.'], { cwd: repo });
    assert.equal(sarif.code, 1);
    const log = JSON.parse(sarif.stdout) as {
      runs: {
        results: {
          ruleId: string;
          locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
        }[];
      }[];
    };
    assert.equal(log.runs.length, 1);
    assert.deepEqual(
      log.runs[0]?.results
        .filter((result) => result.ruleId === 'pod-unschedulable')
        .map((result) => result.locations[0]?.physicalLocation.artifactLocation.uri)
        .sort(),
      ['team-a/jobs/pod.yaml', 'team-b/app/pod.yaml'],
    );
    const junit = await runForesight(['simulate', '-R', '--output', 'junit', '.'], { cwd: repo });
    assert.equal(junit.code, 1);
    assert.match(junit.stdout, /team-a\/jobs\/pod\.yaml:\d+:\d+: warning pod-unschedulable /);
    assert.match(junit.stdout, /team-b\/app\/pod\.yaml:\d+:\d+: warning pod-unschedulable /);
  });
});

describe('foresight simulate: a GitOps unit on the cluster that defines it', () => {
  /** A Flux Kustomization named `name` applying `path` (relative to the repository's root). */
  function fluxKustomization(name: string, path: string): string {
    return `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: flux-system
spec:
  interval: 10m
  path: ${path}
  prune: true
  sourceRef: {kind: GitRepository, name: flux-system}
`;
  }

  test('a Flux Kustomization in clusters/small/ is simulated on clusters/small/.foresight/cluster.yaml', async () => {
    const top = mkdtempSync(join(tmpdir(), 'foresight-gitops-clusters-'));
    const files: Record<string, string> = {
      'clusters/small/.foresight/cluster.yaml': clusterFile('small-node', 2),
      'clusters/small/apps.yaml': fluxKustomization('apps', './apps/small'),
      'clusters/large/.foresight/cluster.yaml': clusterFile('large-node', 8),
      'clusters/large/apps.yaml': fluxKustomization('apps', './apps/large'),
      'apps/small/pod.yaml': pod('needs-three', '3'),
      'apps/large/pod.yaml': pod('needs-three-too', '3'),
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(top, path)), { recursive: true });
      writeFileSync(join(top, path), text);
    }
    mkdirSync(join(top, '.git'));
    const { code, stdout } = await runForesight(['simulate', '-R', '--output', 'json', '.'], { cwd: top });
    assert.equal(code, 1, stdout);
    const json = JSON.parse(stdout) as Simulations & { gitopsUnits?: { path: string }[] };
    const placed = new Map(
      json.simulations.map((entry) => [
        entry.clusterFile,
        entry.report.pods.map((item) => `${item.name}@${item.nodeName ?? 'Pending'}`),
      ]),
    );
    // The apps folders have no cluster file: each unit is on the cluster of the folder that defines it.
    assert.deepEqual(placed.get('clusters/small/.foresight/cluster.yaml'), ['needs-three@Pending']);
    assert.deepEqual(placed.get('clusters/large/.foresight/cluster.yaml'), ['needs-three-too@large-node']);
    assert.deepEqual(json.gitopsUnits?.map((unit) => unit.path).sort(), ['apps/large', 'apps/small']);
    const ajv = new Ajv({ strict: false });
    ajv.addSchema(JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8')) as object);
    const validate = ajv.compile(
      JSON.parse(readFileSync(join(ROOT, 'schemas', 'simulations.schema.json'), 'utf8')) as object,
    );
    assert.ok(validate(json), JSON.stringify(validate.errors));
  });
});
